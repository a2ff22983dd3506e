/**
 * Every format (issue 31, decision 199): a 10 s 1280×720 answer's enhanced export (card with the logo,
 * crop, subtitles, loudness) composed for each of the four frames. For each format: our run against the
 * very same arguments run directly by ffmpeg (what our layout, files and process handling cost; target
 * ≤ 1.2×). Then the four formats in one run (one decode of the answer, split) against the four separate
 * runs (target: faster), in wall time and in CPU time (user + system, from /usr/bin/time: on a machine
 * shared with other work the wall time swings by ±50 % and the CPU time by a few per cent).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { EXPORT_PLATFORM_SPECS, EXPORT_PLATFORMS, type TExportPlatform } from '../src/contract/api/studio.schema.js';
import { createMediaTools } from '../src/server/media/ffmpeg.js';
import { fontFile, subtitleFont } from '../src/server/media/fonts.js';
import { multiFormatArgs, type FormatOutput } from '../src/server/media/multi-format.js';
import { composeArgs, cropPixels, exportFrame, layoutCard, writeCard, writeSubtitles, type CardStyle, type Segment } from '../src/server/media/render.js';

const media = createMediaTools({ ffmpegConcurrency: 2 });
const run = promisify(execFile);
const time = async (fn: () => Promise<unknown>) => {
  const started = performance.now();
  await fn();
  return (performance.now() - started) / 1000;
};
const round = (n: number) => Math.round(n * 100) / 100;

/** Wall and CPU seconds (user + system) of an ffmpeg run, measured by /usr/bin/time; CPU NaN without it. */
async function measured(args: string[]): Promise<{ wall: number; cpu: number }> {
  const started = performance.now();
  try {
    const { stderr } = await run('/usr/bin/time', ['-f', 'cpu %U %S', 'ffmpeg', '-v', 'error', '-nostdin', '-y', ...args], { maxBuffer: 16 * 1024 * 1024 });
    const [, user, system] = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(stderr) ?? [];
    return { wall: (performance.now() - started) / 1000, cpu: Number(user) + Number(system) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await run('ffmpeg', ['-v', 'error', '-nostdin', '-y', ...args]);
    return { wall: (performance.now() - started) / 1000, cpu: NaN };
  }
}
const SECONDS = 10;

export async function formatsBench() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vr-bench-formats-'));
  try {
    const answer = path.join(dir, 'answer.mp4');
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=1280x720:rate=30:duration=${SECONDS}`, '-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${SECONDS}`, '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', answer]);
    const logo = path.join(dir, 'logo.png');
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x2563eb:s=420x120', '-frames:v', '1', logo]);
    const question = 'What made you choose us, and what would you tell a friend?';
    const style: CardStyle = { background: '#111827', color: '#ffffff', size: 36, face: { font: 'Arial', bold: true }, fontFile: fontFile('Arial', true) };
    const source = { width: 1280, height: 720 };
    const cues = Array.from({ length: 4 }, (_, i) => ({ start: 0.2 + i * 2.5, end: 2.4 + i * 2.5, text: `Part ${i + 1}: the team was quick, kind and always on time.` }));
    const subtitleStyle = { face: { font: 'Trebuchet MS' as const, bold: true }, ...subtitleFont('Trebuchet MS'), size: 34, color: '#ffffff', bold: true, border: true };

    /** The answer laid out for a format: the largest crop of its ratio, centred. */
    const segmentFor = async (platform: TExportPlatform): Promise<Segment> => {
      const frame = exportFrame(platform);
      const ratio = EXPORT_PLATFORM_SPECS[platform].ratio / (source.width / source.height);
      const area = ratio < 1 ? { x: (1 - ratio) / 2, y: 0, width: ratio, height: 1 } : { x: 0, y: (1 - 1 / ratio) / 2, width: 1, height: 1 / ratio };
      return {
        answer,
        source,
        crop: cropPixels(area, source.width, source.height),
        card: await writeCard(dir, platform, layoutCard({ text: question, frame, style, logo: true })),
        subtitles: await writeSubtitles(dir, platform, cues, subtitleStyle, frame),
      };
    };

    const single: Record<string, unknown> = {};
    let separateS = 0;
    const formats: FormatOutput[] = [];
    for (const platform of EXPORT_PLATFORMS) {
      const segment = await segmentFor(platform);
      const frame = exportFrame(platform);
      formats.push({ output: path.join(dir, `multi-${platform}.mp4`), frame, segments: [segment] });
      const args = composeArgs({ output: path.join(dir, `${platform}.mp4`), frame, style, segments: [segment], logo });
      // Ours, then the bare command, then both again in the other order; the fastest of each.
      const ours = () => media.runFfmpeg(args, { failOnErrors: 'filters' });
      const bare = () => run('ffmpeg', ['-v', 'error', '-nostdin', '-y', ...args.slice(0, -1), path.join(dir, `bare-${platform}.mp4`)]);
      const a1 = await time(ours);
      const b1 = await time(bare);
      const b2 = await time(bare);
      const a2 = await time(ours);
      const oursS = Math.min(a1, a2);
      const bareS = Math.min(b1, b2);
      separateS += oursS;
      single[platform] = { wall_s: round(oursS), x_answer_duration: round(oursS / (SECONDS + 3)), x_bare_ffmpeg: round(oursS / bareS) };
    }
    // The four formats in one run against the same four outputs made by four runs, twice each,
    // alternating; the fastest of each.
    const multi = multiFormatArgs({ formats, style, logo });
    const separateArgs = formats.map((f) => composeArgs({ output: path.join(dir, `separate-${path.basename(f.output)}`), frame: f.frame, style, segments: f.segments, logo }));
    const best = { one: { wall: Infinity, cpu: Infinity }, separate: { wall: Infinity, cpu: Infinity } };
    for (let i = 0; i < 2; i++) {
      const one = await measured(multi);
      const parts = [];
      for (const args of separateArgs) parts.push(await measured(args));
      const separate = { wall: parts.reduce((n, p) => n + p.wall, 0), cpu: parts.reduce((n, p) => n + p.cpu, 0) };
      for (const [key, m] of [['one', one], ['separate', separate]] as const) best[key] = { wall: Math.min(best[key].wall, m.wall), cpu: Math.min(best[key].cpu, m.cpu) };
    }
    const sizes = await Promise.all(formats.map(async (f) => (await media.probe(f.output)).video));
    return {
      render_formats_composed_10s: { ...single, separate_runs_wall_s: round(separateS) },
      render_formats_four_in_one_run_10s: {
        wall_s: round(best.one.wall),
        separate_runs_wall_s: round(best.separate.wall),
        x_separate_runs: round(best.one.wall / best.separate.wall),
        cpu_s: round(best.one.cpu),
        separate_runs_cpu_s: round(best.separate.cpu),
        x_separate_runs_cpu: round(best.one.cpu / best.separate.cpu),
        sizes: sizes.map((v) => `${v?.width}x${v?.height}`).join(' '),
      },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
