/**
 * Frames of each video theme for the README (issue 17): for every theme of VIDEO_THEMES, a card frame and
 * a subtitle frame at 9:16 (1080 × 1920), 16:9 (1920 × 1080) and an answer's own size (640 × 480), rendered
 * by the renderer itself (composeArgs, with a logo), composed into one contact sheet per theme:
 *
 *   docs/screenshots/themes/theme-<id>.png   top row: the cards; bottom row: the subtitles
 *                                            (9:16, 16:9 and 640 × 480, left to right)
 *
 *   npx tsx scripts/theme-frames.ts [--keep]   (--keep leaves the full-size frames in a temp folder)
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { VIDEO_THEMES, type VideoTheme } from '../src/contract/video-themes.js';
import { fontFile, hasBold, subtitleFont } from '../src/server/media/fonts.js';
import { CARD_SECONDS, composeArgs, cropPixels, layoutCard, writeCard, writeSubtitles, type CardStyle, type Frame, type SubtitleStyle } from '../src/server/media/render.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');
const OUT_DIR = path.join(ROOT, 'docs/screenshots/themes');
const QUESTION = 'What was it like to work with our team, and what would you tell a friend who is thinking about hiring us?';
const CUE = 'Honestly, they made the whole thing easy. I would recommend them to anyone.';
/** Row height of the contact sheets. */
const ROW = 400;

export function themeStyles(theme: VideoTheme): { card: CardStyle; subtitles: SubtitleStyle } {
  const s = theme.style;
  return {
    card: {
      background: s.background_color,
      color: s.font_color_question,
      size: s.font_size_question,
      face: { font: s.font_style_question, bold: s.font_bold_question },
      fontFile: fontFile(s.font_style_question, s.font_bold_question),
    },
    subtitles: {
      face: { font: s.font_style_subtitle, bold: s.font_bold_subtitle },
      ...subtitleFont(s.font_style_subtitle),
      size: s.font_size_subtitle,
      color: s.font_color_subtitle,
      bold: s.font_bold_subtitle && hasBold(s.font_style_subtitle),
      border: s.subtitle_border,
    },
  };
}

/** A 640 × 480 'answer': a soft moving scene with a figure, 4 s, with sound. */
async function makeAnswer(dir: string): Promise<string> {
  const file = path.join(dir, 'answer.mp4');
  const scene =
    'gradients=s=640x480:c0=0x8fa3b8:c1=0xd9cbb5:x0=0:y0=0:x1=640:y1=480:d=4:r=30,' +
    "drawbox=x=250:y=150:w=140:h=330:color=0x3b4a5c@1:t=fill,drawbox=x=280:y=70:w=80:h=95:color=0xc99a7a@1:t=fill";
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', scene, '-f', 'lavfi', '-i', 'sine=frequency=220:sample_rate=48000:duration=4', '-t', '4', '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', file]);
  return file;
}

/** A wordmark logo: a rounded-looking badge and a name, on transparency. */
async function makeLogo(dir: string): Promise<string> {
  const file = path.join(dir, 'logo.png');
  await run('ffmpeg', [
    '-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x2563eb:s=420x120,format=rgba',
    '-vf', `drawtext=fontfile=${fontFile('Arial', true)}:text=Northwind:fontsize=64:fontcolor=white:x=(w-text_w)/2:y=(h-text_h)/2`,
    '-frames:v', '1', file,
  ]);
  return file;
}

const FRAMES: { name: string; frame: Frame; crop?: { x: number; y: number; width: number; height: number } }[] = [
  { name: '9x16', frame: { width: 1080, height: 1920, kind: 'vertical' }, crop: { x: (1 - 270 / 640) / 2, y: 0, width: 270 / 640, height: 1 } },
  { name: '16x9', frame: { width: 1920, height: 1080, kind: 'landscape' }, crop: { x: 0, y: 0.125, width: 1, height: 0.75 } },
  { name: '640x480', frame: { width: 640, height: 480, kind: 'answer' } },
];

async function main() {
  const keep = process.argv.includes('--keep');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vr-theme-frames-'));
  await mkdir(OUT_DIR, { recursive: true });
  try {
    const answer = await makeAnswer(dir);
    const logo = await makeLogo(dir);
    let total = 0;
    for (const theme of VIDEO_THEMES) {
      const { card: style, subtitles } = themeStyles(theme);
      const cards: string[] = [];
      const subs: string[] = [];
      for (const f of FRAMES) {
        const prefix = `${theme.id}-${f.name}`;
        const card = await writeCard(dir, prefix, layoutCard({ text: QUESTION, frame: f.frame, style, logo: true }));
        const ass = await writeSubtitles(dir, prefix, [{ start: 0.2, end: 3.8, text: CUE }], subtitles, f.frame);
        const video = path.join(dir, `${prefix}.mp4`);
        const segment = { answer, source: { width: 640, height: 480 }, crop: f.crop ? cropPixels(f.crop, 640, 480) : undefined, card, subtitles: ass };
        await run('ffmpeg', ['-v', 'error', '-y', ...composeArgs({ output: video, frame: f.frame, style, segments: [segment], logo })]);
        for (const [at, list, kind] of [[1.2, cards, 'card'], [CARD_SECONDS + 1.5, subs, 'subtitle']] as const) {
          const png = path.join(dir, `${prefix}-${kind}.png`);
          await run('ffmpeg', ['-v', 'error', '-y', '-ss', String(at), '-i', video, '-frames:v', '1', '-update', '1', png]);
          list.push(png);
        }
      }
      // One sheet: each frame scaled to the row's height, a white gutter between them.
      const sheet = path.join(OUT_DIR, `theme-${theme.id}.png`);
      const inputs = [...cards, ...subs].flatMap((f) => ['-i', f]);
      const scaled = [...cards, ...subs].map((_, i) => `[${i}:v]scale=-2:${ROW}:flags=lanczos,pad=iw+16:ih+16:8:8:color=white[s${i}]`).join(';');
      const graph = `${scaled};[s0][s1][s2]hstack=3[top];[s3][s4][s5]hstack=3[bottom];[top][bottom]vstack=2,format=rgb24`;
      await run('ffmpeg', ['-v', 'error', '-y', ...inputs, '-filter_complex', graph, '-frames:v', '1', '-update', '1', '-compression_level', '100', sheet]);
      const size = (await stat(sheet)).size;
      total += size;
      console.log(`${path.relative(ROOT, sheet)}: ${Math.round(size / 1024)} KB`);
    }
    console.log(`total ${Math.round(total / 1024)} KB${keep ? `; full-size frames in ${dir}` : ''}`);
  } finally {
    if (!keep) await rm(dir, { recursive: true, force: true });
  }
}

await main();
