import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZCropArea } from '../../contract/api/studio.schema.js';
import { makeClip } from '../test/clips.js';
import { createMediaTools } from './ffmpeg.js';
import { ELLIPSIS, safeArea } from '../../contract/frame-layout.js';
import { boxesIntersect, boxInside, colourBox, grabFrame, matchReading, readWords, unionBox } from '../test/ocr.js';
import { fontFile, subtitleFont } from './fonts.js';
import {
  assScript,
  CARD_SECONDS,
  cardChain,
  composeArgs,
  composeGraph,
  cropPixels,
  exportArgs,
  layoutCard,
  literalAssText,
  mergedFrameSize,
  SCALE_FLAGS,
  writeCard,
  writeSubtitles,
  type CardStyle,
  type Frame,
  type SubtitleStyle,
} from './render.js';

const cardStyle = (o: Partial<CardStyle> & { font?: 'Arial' | 'Georgia' | 'Trebuchet MS'; bold?: boolean } = {}): CardStyle => {
  const font = o.font ?? 'Arial';
  const bold = o.bold ?? false;
  return { background: '#000000', color: '#ffffff', size: 36, face: { font, bold }, fontFile: fontFile(font, bold), ...o };
};
const subtitleStyle = (o: Partial<SubtitleStyle> = {}): SubtitleStyle => ({ face: { font: 'Arial', bold: false }, ...subtitleFont('Arial'), size: 30, color: '#ffffff', bold: false, border: true, ...o });

const run = promisify(execFile);
const { probe, runFfmpeg } = createMediaTools({ ffmpegConcurrency: 2 });

describe('crop maths', () => {
  it('turns fractions into even pixels inside the frame', () => {
    expect(cropPixels({ x: 0.25, y: 0, width: 0.3164, height: 1 }, 1280, 720)).toEqual({ x: 320, y: 0, w: 404, h: 720 });
    expect(cropPixels({ x: 0.999, y: 0.999, width: 0.001, height: 0.001 }, 641, 481)).toEqual({ x: 638, y: 478, w: 2, h: 2 });
    // Fractions made from whole pixels come back to the same even pixels despite floating point.
    expect(cropPixels({ x: 0, y: 0, width: 26 / 360, height: 26 / 360 }, 360, 360)).toMatchObject({ w: 26, h: 26 });
    const full = cropPixels({ x: 0, y: 0, width: 1, height: 1 }, 1081, 1921);
    expect(full).toEqual({ x: 0, y: 0, w: 1080, h: 1920 });
    expect(() => cropPixels({ x: 0, y: 0, width: 1, height: 1 }, 0, 720)).toThrow(/Invalid video dimensions/);
  });

  it.each([
    [{ x: -0.1, y: 0, width: 0.5, height: 0.5 }],
    [{ x: 0, y: 1.1, width: 0.5, height: 0.5 }],
    [{ x: 0, y: 0, width: 0, height: 0.5 }],
    [{ x: 0, y: 0, width: 0.5, height: 1.2 }],
    [{ x: 0.6, y: 0, width: 0.5, height: 0.5 }],
    [{ x: 0, y: 0.7, width: 0.5, height: 0.31 }],
    [{ x: '0', y: 0, width: 0.5, height: 0.5 }],
  ])('refuses the invalid area %j', (area) => {
    expect(ZCropArea.safeParse(area).success).toBe(false);
  });
});

describe('filter graphs', () => {
  const frame: Frame = { width: 1280, height: 720, kind: 'answer' };
  const graphOf = (args: string[]) => args[args.indexOf('-filter_complex') + 1]!;

  it('fits an answer into the frame with lanczos unless it has the frame size, and sharpens only an upscale', () => {
    const graph = (source: { width: number; height: number }) => composeGraph({ frame, style: cardStyle(), logo: false, segments: [{ answer: 'a.mp4', source }] });
    expect(graph({ width: 640, height: 360 })).toContain(
      '[0:v]fps=30,scale=1280:720:force_original_aspect_ratio=decrease:force_divisible_by=2:flags=lanczos+accurate_rnd+full_chroma_int+full_chroma_inp,unsharp=5:5:0.6:5:5:0,pad=1280:720',
    );
    expect(graph({ width: 1920, height: 1080 })).toContain(`flags=${SCALE_FLAGS},pad=`);
    expect(graph({ width: 1280, height: 720 })).not.toContain('scale=');
  });

  it('crops an export from the answer, scales it to the platform with lanczos and sharpening, subtitles drawn after', () => {
    const args = composeArgs({
      output: 'o.mp4',
      frame: { width: 1080, height: 1920, kind: 'vertical' },
      style: cardStyle(),
      segments: [{ answer: 'a.mp4', source: { width: 640, height: 480 }, crop: { x: 184, y: 0, w: 270, h: 480 }, subtitles: { assFile: '/t/s.ass', fontsDir: '/f' } }],
    });
    expect(graphOf(args)).toMatch(
      /^\[0:v\]fps=30,crop=270:480:184:0,scale=1080:1920:force_original_aspect_ratio=increase:flags=lanczos\+accurate_rnd\+full_chroma_int\+full_chroma_inp,crop=1080:1920,unsharp=[^,]+,setsar=1,ass=filename='\/t\/s.ass'/,
    );
    // One run: the answer is the only input, nothing was rendered before.
    expect(args.filter((a) => a === '-i')).toHaveLength(1);
  });

  it('composes a merged export in one run: a card per answer, the logo scaled once into its band and shared', () => {
    const fit = layoutCard({ text: 'Why us?', frame: { width: 1920, height: 1080, kind: 'landscape' }, style: cardStyle(), logo: true });
    const card = { fit, lineFiles: ['/t/l0.txt'] };
    const segment = { answer: 'a.mp4', source: { width: 640, height: 480 }, crop: { x: 0, y: 60, w: 640, h: 360 }, card };
    const args = composeArgs({ output: 'o.mp4', frame: { width: 1920, height: 1080, kind: 'landscape' }, style: cardStyle(), segments: [segment, segment], logo: 'logo.png' });
    const graph = graphOf(args);
    expect(args.filter((a) => a === '-i')).toHaveLength(3);
    expect(graph).toContain(`[2:v]scale=w=${fit.logoBox!.width}:h=${fit.logoBox!.height}:force_original_aspect_ratio=decrease:flags=lanczos,split=2[logo0][logo1]`);
    expect(graph).toContain('concat=n=4:v=1:a=1[v][a]');
    expect(graph.match(/loudnorm=/g)).toHaveLength(2);
  });
});

describe('the merged frame (issue 27, item 13)', () => {
  it("is the largest answer's size, up to 1080p either way round, aspect kept, in even pixels", () => {
    expect(mergedFrameSize([{ width: 640, height: 480 }, { width: 1280, height: 720 }])).toEqual({ width: 1280, height: 720 });
    expect(mergedFrameSize([{ width: 1280, height: 720 }, { width: 640, height: 480 }])).toEqual({ width: 1280, height: 720 });
    expect(mergedFrameSize([{ width: 3840, height: 2160 }, { width: 640, height: 480 }])).toEqual({ width: 1920, height: 1080 });
    expect(mergedFrameSize([{ width: 1080, height: 1920 }, { width: 720, height: 1280 }])).toEqual({ width: 1080, height: 1920 });
    expect(mergedFrameSize([{ width: 2160, height: 3840 }])).toEqual({ width: 1080, height: 1920 });
    expect(mergedFrameSize([{ width: 1440, height: 1080 }])).toEqual({ width: 1440, height: 1080 });
    expect(mergedFrameSize([{ width: 2880, height: 2160 }])).toEqual({ width: 1440, height: 1080 });
    expect(mergedFrameSize([{ width: 641, height: 361 }])).toEqual({ width: 640, height: 360 });
    expect(mergedFrameSize([])).toEqual({ width: 1280, height: 720 });
  });
});

describe('user text in filters', () => {
  it('turns off drawtext expansion on every line of the card, each centred in the text box at its top', () => {
    const frame: Frame = { width: 640, height: 360, kind: 'answer' };
    const fit = layoutCard({ text: 'What made you choose us, and what would you tell a friend about it?', frame, style: cardStyle(), logo: false });
    expect(fit.lines.length).toBeGreaterThan(1);
    const chain = cardChain({ frame, style: cardStyle(), card: { fit, lineFiles: fit.lines.map((_, i) => `/l${i}.txt`) }, label: 'c' });
    expect(chain.match(/drawtext=/g)).toHaveLength(fit.lines.length);
    expect(chain.match(/:expansion=none:/g)).toHaveLength(fit.lines.length);
    expect(chain).toContain(`:x=${fit.textBox.x}+(${fit.textBox.width}-text_w)/2:y=${Math.round(fit.lines[1]!.top * 100) / 100}`);
  });

  it('keeps subtitle text literal for libass: braces, backslashes; line breaks left to the wrap', () => {
    const Z = '\u200b';
    expect(literalAssText('{\\fs80}big')).toBe(`\\{\\${Z}fs80\\}big`);
    expect(literalAssText('a \\N b\nc <b>d</b> --> e')).toBe(`a \\${Z}N b c <b>d</b> --> e`);
    expect(literalAssText('50% of "us" aren\'t: 1/2')).toBe('50% of "us" aren\'t: 1/2');
  });

  it('writes the ASS script for the frame: its size as PlayRes, the style of the company, margins of the safe area', () => {
    const script = assScript({ cues: [{ start: 0.2, end: 61.5, text: 'Hello, world' }], style: subtitleStyle({ color: '#ffcc00', bold: true }), frame: { width: 1080, height: 1920, kind: 'vertical' } });
    expect(script).toContain('PlayResX: 1080\nPlayResY: 1920\nScaledBorderAndShadow: yes');
    expect(script).toContain(`Style: Default,Arimo,75,&H0000CCFF,&H000000FF,&H00000000,&H80000000,-1,0,0,0,100,100,0,0,1,6,3,2,76,151,508,1`);
    expect(script).toContain('Dialogue: 0,0:00:00.20,0:01:01.50,Default,,0,0,0,,Hello, world');
    // The size is 1.25 × on 9:16; the bottom margin holds the outline and shadow. Without the border: no outline, a denser shadow alone.
    expect(assScript({ cues: [], style: subtitleStyle({ border: false }), frame: { width: 640, height: 480, kind: 'answer' } })).toMatch(/,&H4F000000,0,0,0,0,100,100,0,0,1,0,1,2,/);
  });
});

describe('rendering with real ffmpeg', () => {
  let dir: string;
  let answer: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'vr-render-'));
    answer = await makeClip({ format: 'mp4', seconds: 4, size: '640x360', tone: 500 });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** The RGB of one pixel of the frame at `seconds`. */
  async function pixel(file: string, seconds: number, x: number, y: number): Promise<[number, number, number]> {
    const { stdout } = await run('ffmpeg', ['-v', 'error', '-ss', String(seconds), '-i', file, '-frames:v', '1', '-vf', `crop=2:2:${x}:${y}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { encoding: 'buffer' });
    return [stdout[0]!, stdout[1]!, stdout[2]!];
  }

  const frame640: Frame = { width: 640, height: 360, kind: 'answer' };
  const card = (text: string, frame: Frame, style: CardStyle, logo = false) => writeCard(dir, `c${Math.random().toString(36).slice(2, 8)}`, layoutCard({ text, frame, style, logo }));

  it('renders the card then the answer at the answer resolution, with sound, card colours and text', async () => {
    const style = cardStyle({ background: '#1e3a8a', color: '#ffcc00', size: 48, font: 'Georgia', bold: true });
    const output = path.join(dir, 'intro.mp4');
    const segment = { answer, source: { width: 640, height: 360 }, card: await card('Qu’est-ce qui vous a décidé ?', frame640, style) };
    await runFfmpeg(composeArgs({ output, frame: frame640, style, segments: [segment] }), { failOnErrors: 'filters' });
    const info = await probe(output);
    expect(info.video).toMatchObject({ codec: 'h264', width: 640, height: 360 });
    expect(info.audio?.codec).toBe('aac');
    expect(Math.abs(info.durationSeconds - (CARD_SECONDS + 4))).toBeLessThan(0.25);

    const [r, g, b] = await pixel(output, 1, 10, 10);
    expect(Math.abs(r - 0x1e) + Math.abs(g - 0x3a) + Math.abs(b - 0x8a)).toBeLessThan(40);
    // Somewhere on the text's middle row, pixels take the question colour.
    const { stdout } = await run('ffmpeg', ['-v', 'error', '-ss', '1', '-i', output, '-frames:v', '1', '-vf', 'crop=640:40:0:160', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { encoding: 'buffer' });
    let yellow = 0;
    for (let i = 0; i < stdout.length; i += 3) if (stdout[i]! > 200 && stdout[i + 1]! > 160 && stdout[i + 2]! < 90) yellow += 1;
    expect(yellow).toBeGreaterThan(50);
  }, 60_000);

  it('reports a render whose filter logs an error as failed, though ffmpeg exits with 0', async () => {
    // drawtext with expansion on: a lone % is logged as an error and the line is left out of the frame.
    const text = path.join(dir, 'stray.txt');
    await writeFile(text, '50% or more?');
    const args = ['-f', 'lavfi', '-i', `color=c=black:s=320x180:d=0.2,drawtext=fontfile=${fontFile('Arial', false)}:textfile=${text}:fontsize=20:fontcolor=white`, '-frames:v', '1', '-f', 'null', '-'];
    await expect(runFfmpeg(args)).resolves.toMatch(/Parsed_drawtext/); // what a plain run makes of it: done, the error only in its log
    await expect(runFfmpeg(args, { failOnErrors: 'filters' })).rejects.toThrow(/Stray %/);
  }, 60_000);

  it('merges a 640×480 and a 1280×720 answer at 1280×720, the smaller one fitted and letterboxed', async () => {
    const small = await makeClip({ format: 'mp4', seconds: 1, size: '640x480', tone: 400 });
    const large = await makeClip({ format: 'mp4', seconds: 1, size: '1280x720', tone: 600 });
    const sources = [
      { width: 640, height: 480 },
      { width: 1280, height: 720 },
    ];
    const frame: Frame = { ...mergedFrameSize(sources), kind: 'answer' };
    const style = cardStyle({ background: '#ff0000' });
    const output = path.join(dir, 'merged-mixed.mp4');
    const segments = [
      { answer: small, source: sources[0]! },
      { answer: large, source: sources[1]! },
    ];
    await runFfmpeg(composeArgs({ output, frame, style, segments }), { failOnErrors: 'filters' });
    expect((await probe(output)).video).toMatchObject({ width: 1280, height: 720 });
    // The 4:3 answer fills the height (960 px wide), its sides padded in the background colour.
    const [r, g, b] = await pixel(output, 0.5, 40, 360);
    expect(r).toBeGreaterThan(200);
    expect(g + b).toBeLessThan(80);
    const [r2, g2, b2] = await pixel(output, 0.5, 640, 360);
    expect(Math.abs(r2 - 255) + g2 + b2).toBeGreaterThan(60); // the picture, not the padding
  }, 60_000);

  it('upscales a 270 px-wide crop to 1080×1920 closer to the true picture than a bilinear upscale, without colour fringes', async () => {
    // The truth: a detailed, colourful 1080×1920 picture; the source: it at a quarter of the size, as a 270 px crop gives.
    const truth = path.join(dir, 'truth.mp4');
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=s=1080x1920:r=30:d=0.2', '-pix_fmt', 'yuv444p', '-c:v', 'libx264', '-qp', '0', truth]);
    const source = path.join(dir, 'quarter.mp4');
    await run('ffmpeg', ['-v', 'error', '-y', '-i', truth, '-vf', 'scale=270:480:flags=area', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-qp', '0', '-an', source]);
    const ours = path.join(dir, 'ours.mp4');
    await runFfmpeg(exportArgs({ input: source, output: ours, source: { width: 270, height: 480 }, crop: { x: 0, y: 0, w: 270, h: 480 }, platform: 'shorts' }));
    expect((await probe(ours)).video).toMatchObject({ width: 1080, height: 1920 });
    const bilinear = path.join(dir, 'bilinear.mp4');
    await run('ffmpeg', ['-v', 'error', '-y', '-i', source, '-vf', 'scale=1080:1920:flags=bilinear,format=yuv420p', '-c:v', 'libx264', '-preset', 'superfast', '-crf', '23', bilinear]);
    /** PSNR of the chroma planes (u, v) and of the whole against the truth. */
    const psnr = async (file: string) => {
      const { stderr } = await run('ffmpeg', ['-hide_banner', '-i', file, '-i', truth, '-lavfi', '[0:v]format=yuv444p[a];[1:v]format=yuv444p[b];[a][b]psnr', '-f', 'null', '-']);
      const line = /PSNR y:([\d.]+) u:([\d.]+) v:([\d.]+) average:([\d.]+)/.exec(stderr)!;
      return { y: Number(line[1]), u: Number(line[2]), v: Number(line[3]), average: Number(line[4]) };
    };
    const [good, plain] = await Promise.all([psnr(ours), psnr(bilinear)]);
    expect(good.average).toBeGreaterThan(plain.average);
    expect(good.u + good.v).toBeGreaterThan(plain.u + plain.v + 0.5);
  }, 60_000);

  it('exports the original at exactly 1080x1920 and 1920x1080, the sound kept', async () => {
    const shorts = path.join(dir, 'shorts.mp4');
    await runFfmpeg(exportArgs({ input: answer, output: shorts, source: { width: 640, height: 360 }, crop: cropPixels({ x: 0.34, y: 0, width: 0.316, height: 1 }, 640, 360), platform: 'shorts' }));
    expect((await probe(shorts)).video).toMatchObject({ width: 1080, height: 1920 });
    const wide = path.join(dir, 'wide.mp4');
    await runFfmpeg(exportArgs({ input: answer, output: wide, source: { width: 640, height: 360 }, crop: cropPixels({ x: 0, y: 0, width: 1, height: 1 }, 640, 360), platform: 'linkedin' }));
    const wideInfo = await probe(wide);
    expect(wideInfo.video).toMatchObject({ width: 1920, height: 1080 });
    expect(wideInfo.audio?.codec).toBe('aac');
  }, 60_000);

  it('burns subtitles in: the subtitle band changes during a cue and not outside every cue', async () => {
    const subtitles = await writeSubtitles(dir, 'cues', [{ start: 0.5, end: 2, text: 'Great team, great experience' }], subtitleStyle({ size: 28, color: '#ffff00', bold: true }), frame640);
    const output = path.join(dir, 'subtitled.mp4');
    await runFfmpeg(composeArgs({ output, frame: frame640, style: cardStyle(), segments: [{ answer, source: { width: 640, height: 360 }, subtitles }] }), { failOnErrors: 'filters' });
    const band = async (file: string, at: number) =>
      (await run('ffmpeg', ['-v', 'error', '-ss', String(at), '-i', file, '-frames:v', '1', '-vf', 'crop=640:90:0:240', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'], { encoding: 'buffer' })).stdout;
    const diff = (a: Buffer, b: Buffer) => {
      let d = 0;
      for (let i = 0; i < Math.min(a.length, b.length); i++) d += Math.abs(a[i]! - b[i]!);
      return d / a.length;
    };
    const during = diff(await band(output, 1.2), await band(answer, 1.2));
    const outside = diff(await band(output, 3.2), await band(answer, 3.2));
    expect(during).toBeGreaterThan(outside * 3);
    expect(during).toBeGreaterThan(3);
  }, 60_000);

  it('draws a 500-character question whole and clear of the logo, shrunk but not cut, inside the safe area', async () => {
    const question =
      'We would love to hear the whole story: how did you first hear about our bakery, what made you choose our breakfasts, catering and birthday cakes over the others in town, and how did the team handle your last-minute changes on the day? Would you recommend us to a friend, and to whom? Tell us also what we could do better next time, what surprised you most, which of our products you would order again without thinking twice, and what you would change about the way we deliver. Thank you so much, all!';
    expect(question).toHaveLength(500);
    const frame: Frame = { width: 1280, height: 720, kind: 'answer' };
    const style = cardStyle({ size: 48, font: 'Georgia', bold: true, background: '#15171f' });
    const fit = layoutCard({ text: question, frame, style, logo: true });
    expect(fit).toMatchObject({ shrunk: true, truncated: false });
    const logo = path.join(dir, 'magenta.png');
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0xff00ff:s=300x100', '-frames:v', '1', logo]);
    const output = path.join(dir, 'long.mp4');
    await runFfmpeg(composeArgs({ output, frame, style, logo, segments: [{ answer, source: { width: 640, height: 360 }, card: await writeCard(dir, 'long', fit) }] }), { failOnErrors: 'filters' });
    const png = await grabFrame(output, 1, 'long-card');
    const words = await readWords(png);
    const read = words.map((w) => w.text).join(' ');
    const reading = matchReading(question, read);
    expect(reading.ratio, read).toBeGreaterThanOrEqual(0.9);
    expect(reading.tailFound, read).toBe(true);
    expect(read).not.toContain(ELLIPSIS);
    const text = unionBox(words.map((w) => w.box))!;
    expect(boxInside(text, safeArea(1280, 720, 'answer'))).toBe(true);
    const logoBox = await colourBox(png, (r, g, b) => r > 200 && g < 70 && b > 200);
    expect(logoBox).not.toBeNull();
    expect(boxesIntersect(logoBox!, text), JSON.stringify({ logoBox, text })).toBe(false);
  }, 60_000);
  it('puts a dark wide logo on a light plate on a dark card, the logo kept at its shape (decision 172)', async () => {
    const frame = frame640;
    // A dark navy wordmark, 4:1, with transparent margins left and right (as a PNG with alpha comes).
    const logo = path.join(dir, 'navy-wide.png');
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x1b2a4a:s=300x100', '-vf', 'format=rgba,pad=400:100:50:0:color=black@0', '-frames:v', '1', logo]);
    const render = async (logoPlate: boolean) => {
      const style = cardStyle({ background: '#15171f', logoPlate });
      const fit = layoutCard({ text: 'Why us?', frame, style, logo: true });
      const output = path.join(dir, `plate-${logoPlate}.mp4`);
      await runFfmpeg(composeArgs({ output, frame, style, logo, segments: [{ answer, source: { width: 640, height: 360 }, card: await writeCard(dir, `plate${logoPlate}`, fit) }] }), { failOnErrors: 'filters' });
      return { output, band: fit.logoBox! };
    };
    const light = ([r, g, b]: [number, number, number]) => r > 200 && g > 200 && b > 200;
    const dark = ([r, g, b]: [number, number, number]) => r < 60 && g < 70 && b < 90;

    const plated = await render(true);
    const cx = plated.band.x + Math.round(plated.band.width / 2);
    const cy = plated.band.y + Math.round(plated.band.height / 2);
    const margin = Math.round(plated.band.height * 0.14);
    const logoWidth = (plated.band.height - 2 * margin) * 4;
    // Above the logo (the plate's margin) and in the logo's transparent side: the plate, light.
    expect(light(await pixel(plated.output, 1, cx, plated.band.y + 2))).toBe(true);
    expect(light(await pixel(plated.output, 1, cx - logoWidth / 2 + 4, cy))).toBe(true);
    expect(light(await pixel(plated.output, 1, cx + logoWidth / 2 - 6, cy))).toBe(true);
    // The mark itself stays navy, and it is wide: its navy spans about 3/4 of the logo's width.
    const [r, g, b] = await pixel(plated.output, 1, cx, cy);
    expect(Math.abs(r - 0x1b) + Math.abs(g - 0x2a) + Math.abs(b - 0x4a)).toBeLessThan(40);
    expect(dark(await pixel(plated.output, 1, cx - Math.round(logoWidth * 0.3), cy))).toBe(true);
    // Beside the plate, the card's own dark background.
    expect(dark(await pixel(plated.output, 1, cx - logoWidth / 2 - margin - 8, cy))).toBe(true);

    // Without the plate, the same transparent side shows the dark card: the logo is lost in it.
    const bare = await render(false);
    expect(dark(await pixel(bare.output, 1, cx - logoWidth / 2 + 4, cy))).toBe(true);
  }, 60_000);
});
