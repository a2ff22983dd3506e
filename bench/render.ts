/**
 * Rendering benchmark (issue 7): a 20 s 1280×720 answer → intro, merge of three, 9:16 export.
 * For each: wall time, the ratio to the answer's duration, and the ratio to a bare ffmpeg command
 * producing the same output (card and answer for intro and merge, with the same encoder settings; the
 * crop and scale for the export) run on the same machine in the same run.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createMediaTools } from '../src/server/media/ffmpeg.js';
import { fontFile } from '../src/server/media/fonts.js';
import { concatArgs, cropPixels, exportArgs, introArgs, wrapText } from '../src/server/media/render.js';

const { runFfmpeg } = createMediaTools({ ffmpegConcurrency: 2 });

const run = promisify(execFile);
const time = async (fn: () => Promise<unknown>) => {
  const started = performance.now();
  await fn();
  return (performance.now() - started) / 1000;
};

export async function renderBench() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vr-bench-render-'));
  try {
    const answer = path.join(dir, 'answer.mp4');
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30:duration=20', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=20', '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', answer]);
    const lines = wrapText('What made you choose us, and what would you tell a friend?', 40);
    const lineFiles: string[] = [];
    for (const [i, l] of lines.entries()) {
      const f = path.join(dir, `l${i}.txt`);
      await writeFile(f, l);
      lineFiles.push(f);
    }
    const style = { background: '#111827', color: '#ffffff', size: 36, fontFile: fontFile('Arial', true) };
    // The bare command makes the same output (a 3 s card of the background colour, then the answer,
    // 23 s in all) with the same encoder settings, and nothing else: no text, fades or loudness.
    const bare = (out: string) =>
      runFfmpeg([
        '-f', 'lavfi', '-i', 'color=c=0x111827:s=1280x720:r=30:d=3',
        '-f', 'lavfi', '-t', '3', '-i', 'anullsrc=r=48000:cl=stereo',
        '-i', answer,
        '-filter_complex', '[0:v][1:a][2:v][2:a]concat=n=2:v=1:a=1[v][a]', '-map', '[v]', '-map', '[a]',
        '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-movflags', '+faststart', out,
      ]);

    // The answer already has the frame's size, as the studio finds for an intro at the answer's size.
    const introS = await time(() => runFfmpeg(introArgs({ answer, output: path.join(dir, 'intro.mp4'), width: 1280, height: 720, fits: true, style, lineFiles })));
    const bareIntroS = await time(() => bare(path.join(dir, 'bare-intro.mp4')));

    const mergeS = await time(async () => {
      const segs = [];
      for (let i = 0; i < 3; i++) {
        const s = path.join(dir, `seg${i}.mp4`);
        await runFfmpeg(introArgs({ answer, output: s, width: 1280, height: 720, fits: true, style, lineFiles }));
        segs.push(s);
      }
      const list = path.join(dir, 'list.txt');
      await writeFile(list, segs.map((s) => `file '${s}'`).join('\n'));
      await runFfmpeg(concatArgs({ listFile: list, output: path.join(dir, 'merged.mp4') }));
    });
    const bareMergeS = await time(async () => {
      for (let i = 0; i < 3; i++) await bare(path.join(dir, `bare-merge${i}.mp4`));
    });

    const crop = cropPixels({ x: 0.34, y: 0, width: 0.3164, height: 1 }, 1280, 720);
    const exportS = await time(() => runFfmpeg(exportArgs({ input: answer, output: path.join(dir, 'short.mp4'), crop, platform: 'shorts' })));
    const bareExportS = await time(() => runFfmpeg(['-i', answer, '-vf', `crop=${crop.w}:${crop.h}:${crop.x}:${crop.y},scale=1080:1920`, '-c:v', 'libx264', '-preset', 'superfast', '-crf', '23', '-c:a', 'copy', path.join(dir, 'bare-short.mp4')]));

    const row = (s: number, bareS: number, seconds: number) => ({ wall_s: Math.round(s * 100) / 100, x_answer_duration: Math.round((s / seconds) * 100) / 100, x_bare_ffmpeg: Math.round((s / bareS) * 100) / 100 });
    return {
      render_intro_20s_720p: row(introS, bareIntroS, 20),
      render_merge_3x20s_720p: row(mergeS, bareMergeS, 60),
      render_export_9x16_20s: row(exportS, bareExportS, 20),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
