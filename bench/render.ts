/**
 * Rendering benchmark (issues 7 and 17): a 20 s 1280×720 answer → intro, merge of three, 9:16 export of
 * the original, and a 9:16 export of the enhanced version composed from the answer (card, logo, subtitles).
 * For each: wall time, the ratio to the answer's duration, and the ratio to a bare ffmpeg command
 * producing the same output (card and answer for intro and merge, with the same encoder settings; the
 * crop and scale for the export) run on the same machine in the same run.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { answerArgs, answerTiming, canCopyVideo, loudnessMeasureArgs, parseLoudness } from '../src/server/media/answer-prep.js';
import { createMediaTools } from '../src/server/media/ffmpeg.js';
import { fontFile, subtitleFont } from '../src/server/media/fonts.js';
import { avDrift, loudness } from '../src/server/test/av.js';
import { composeArgs, cropPixels, exportArgs, exportFrame, layoutCard, writeCard, writeSubtitles, type CardStyle, type Frame } from '../src/server/media/render.js';

const media = createMediaTools({ ffmpegConcurrency: 2 });
const { runFfmpeg } = media;

const run = promisify(execFile);
const time = async (fn: () => Promise<unknown>) => {
  const started = performance.now();
  await fn();
  return (performance.now() - started) / 1000;
};

/** Runs ours, then the bare command, then both again in the other order; the fastest time of each. */
async function fastestPair(ours: () => Promise<unknown>, bare: () => Promise<unknown>): Promise<[number, number]> {
  const a1 = await time(ours);
  const b1 = await time(bare);
  const b2 = await time(bare);
  const a2 = await time(ours);
  return [Math.min(a1, a2), Math.min(b1, b2)];
}

export async function renderBench() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vr-bench-render-'));
  try {
    const upload = path.join(dir, 'upload.mp4');
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30:duration=20', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=20', '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', upload]);
    // The answer as the worker stores it (picture copied, sound normalised): what every render starts from.
    const answer = path.join(dir, 'answer.mp4');
    const info = await media.probe(upload);
    const timing = answerTiming({ fileStart: info.startSeconds, span: await media.packetSpan(upload, { streams: [info.video!.index], stopAbove: Infinity }), maxSeconds: 20 });
    const measured = parseLoudness(await runFfmpeg(loudnessMeasureArgs(upload, timing)));
    await runFfmpeg(answerArgs({ input: upload, output: answer, timing, copyVideo: canCopyVideo(info.video), measured }));
    const logo = path.join(dir, 'logo.png');
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x2563eb:s=420x120', '-frames:v', '1', logo]);
    const question = 'What made you choose us, and what would you tell a friend?';
    const style: CardStyle = { background: '#111827', color: '#ffffff', size: 36, face: { font: 'Arial', bold: true }, fontFile: fontFile('Arial', true) };
    const source = { width: 1280, height: 720 };
    const own: Frame = { width: 1280, height: 720, kind: 'answer' };
    const card = (frame: Frame, prefix: string) => writeCard(dir, prefix, layoutCard({ text: question, frame, style, logo: false }));
    // The bare command makes the same output (a 3 s card of the background colour, then the answer,
    // 23 s in all) with the same encoder settings, and nothing else: no text, fades or loudness.
    const bare = (out: string, copies = 1) => {
      const inputs = Array.from({ length: copies }, () => ['-f', 'lavfi', '-i', 'color=c=0x111827:s=1280x720:r=30:d=3', '-f', 'lavfi', '-t', '3', '-i', 'anullsrc=r=48000:cl=stereo', '-i', answer]).flat();
      const pieces = Array.from({ length: copies }, (_, i) => `[${3 * i}:v][${3 * i + 1}:a][${3 * i + 2}:v][${3 * i + 2}:a]`).join('');
      return runFfmpeg([
        ...inputs,
        '-filter_complex', `${pieces}concat=n=${2 * copies}:v=1:a=1[v][a]`, '-map', '[v]', '-map', '[a]',
        '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-movflags', '+faststart', out,
      ]);
    };

    // The answer already has the frame's size, as the studio finds for an intro at the answer's size.
    const introS = await time(async () => runFfmpeg(composeArgs({ output: path.join(dir, 'intro.mp4'), frame: own, style, segments: [{ answer, source, card: await card(own, 'intro') }] })));
    const bareIntroS = await time(() => bare(path.join(dir, 'bare-intro.mp4')));

    // The merge of three answers: one run (cards, answers and the concatenation in one graph).
    const mergeS = await time(async () => {
      const segments = [];
      for (let i = 0; i < 3; i++) segments.push({ answer, source, card: await card(own, `merge${i}`) });
      await runFfmpeg(composeArgs({ output: path.join(dir, 'merged.mp4'), frame: own, style, segments }));
    });
    const bareMergeS = await time(() => bare(path.join(dir, 'bare-merge.mp4'), 3));

    // The original's 9:16 export: crop and scale (lanczos, sharpened), the sound copied.
    const crop = cropPixels({ x: 0.34, y: 0, width: 0.3164, height: 1 }, 1280, 720);
    // Against the same command run directly by ffmpeg, and (what the better picture costs) against a plain
    // bicubic crop and scale. Each pair runs twice, alternating, and keeps its fastest run: on a noisy
    // machine the order of two runs otherwise moves the ratio by ±10 %.
    const exportArgsList = exportArgs({ input: answer, output: path.join(dir, 'short.mp4'), source, crop, platform: 'shorts' });
    const [exportS, bareExportS] = await fastestPair(
      () => runFfmpeg(exportArgsList),
      () => run('ffmpeg', ['-v', 'error', '-nostdin', '-y', ...exportArgsList.slice(0, -1), path.join(dir, 'bare-short.mp4')]),
    );
    const bicubicS = await time(() => runFfmpeg(['-i', answer, '-vf', `crop=${crop.w}:${crop.h}:${crop.x}:${crop.y},scale=1080:1920`, '-c:v', 'libx264', '-preset', 'superfast', '-crf', '23', '-c:a', 'copy', path.join(dir, 'bicubic-short.mp4')]));

    // The enhanced version's 9:16 export, composed from the answer: the card laid out for the vertical
    // frame with the logo, the crop scaled with lanczos and sharpened, subtitles, loudness; against the
    // very same filter graph run directly by ffmpeg (what our layout, files and process handling cost).
    const vertical = exportFrame('shorts');
    const cues = Array.from({ length: 8 }, (_, i) => ({ start: 0.2 + i * 2.5, end: 2.4 + i * 2.5, text: `Part ${i + 1}: the team was quick, kind and always on time.` }));
    let composed: string[] = [];
    const composeOnce = async () => {
      const segment = {
        answer,
        source,
        crop,
        card: await writeCard(dir, 'vertical', layoutCard({ text: question, frame: vertical, style, logo: true })),
        subtitles: await writeSubtitles(dir, 'vertical', cues, { face: { font: 'Trebuchet MS', bold: true }, ...subtitleFont('Trebuchet MS'), size: 34, color: '#ffffff', bold: true, border: true }, vertical),
      };
      composed = composeArgs({ output: path.join(dir, 'composed.mp4'), frame: vertical, style, segments: [segment], logo });
      await runFfmpeg(composed, { failOnErrors: 'filters' });
    };
    const [composedS, bareComposedS] = await fastestPair(composeOnce, () => run('ffmpeg', ['-v', 'error', '-nostdin', '-y', ...composed.slice(0, -1), path.join(dir, 'bare-composed.mp4')]));

    // Issue 18: every output at one loudness, picture and sound starting and ending together.
    const sound: Record<string, unknown> = {};
    for (const name of ['intro', 'merged', 'short', 'composed']) {
      const file = path.join(dir, `${name}.mp4`);
      const [level, drift] = await Promise.all([loudness(file), avDrift(file)]);
      sound[name] = { lufs: level.integrated, true_peak_db: level.truePeak, start_drift_ms: Math.round(drift.start * 10000) / 10, end_drift_ms: Math.round(drift.end * 10000) / 10 };
    }

    const row = (s: number, bareS: number, seconds: number) => ({ wall_s: Math.round(s * 100) / 100, x_answer_duration: Math.round((s / seconds) * 100) / 100, x_bare_ffmpeg: Math.round((s / bareS) * 100) / 100 });
    return {
      render_intro_20s_720p: row(introS, bareIntroS, 20),
      render_merge_3x20s_720p: row(mergeS, bareMergeS, 60),
      render_export_9x16_20s: { ...row(exportS, bareExportS, 20), x_plain_bicubic: Math.round((exportS / bicubicS) * 100) / 100 },
      render_export_9x16_composed_20s: { ...row(composedS, bareComposedS, 20), bare_wall_s: Math.round(bareComposedS * 100) / 100 },
      render_outputs_sound: sound,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
