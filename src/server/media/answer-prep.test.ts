import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { avDrift, loudness } from '../test/av.js';
import { answerArgs, answerTiming, canCopyVideo, loudnessMeasureArgs, normaliseFilter, parseLoudness, posterAndLoudnessArgs, posterArgs } from './answer-prep.js';
import { fontFile } from './fonts.js';
import { createMediaTools, type ProbeResult } from './ffmpeg.js';
import { composeArgs, layoutCard, writeCard, type CardStyle, type Frame } from './render.js';

const run = promisify(execFile);
const media = createMediaTools({ ffmpegConcurrency: 2 });
/** One frame at 30 fps: how far apart picture and sound may start or end. */
const FRAME = 1 / 30;

/**
 * The answer as stored (issue 18) on real clips: the picture copied when it can be, one loudness for
 * every answer, and picture and sound on one clock. Then a merge of three such answers stays in sync.
 */
describe('answer preparation', () => {
  let dir: string;
  let speech: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'vr-prep-'));
    speech = path.join(dir, 'speech.wav');
    await run('flite', ['-voice', 'slt', '-t', 'Hello, my name is Sarah Miller. I have been a customer of this bakery for three years, and I recommend it to anyone.', '-o', speech]);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** A clip with the speech at `gainDb`, in the given codecs and container. */
  async function clip(name: string, o: { gainDb: number; video: string[]; audio: string[]; extra?: string[]; size?: string; videoDelay?: number }): Promise<string> {
    const file = path.join(dir, name);
    const made = o.videoDelay ? path.join(dir, `made-${name}`) : file;
    await run('ffmpeg', [
      '-v', 'error', '-y',
      '-i', speech,
      '-f', 'lavfi', '-i', `testsrc2=size=${o.size ?? '640x480'}:rate=30:duration=6`,
      '-map', '1:v', '-map', '0:a',
      '-t', '6',
      '-af', `volume=${o.gainDb}dB,alimiter=limit=1`,
      ...o.video, ...o.audio,
      made,
    ]);
    // A picture that starts late: the same streams, the picture's clock shifted (as Safari writes it).
    if (o.videoDelay) {
      await run('ffmpeg', ['-v', 'error', '-y', '-i', made, '-itsoffset', String(o.videoDelay), '-i', made, '-map', '1:v', '-map', '0:a', '-c', 'copy', ...(o.extra ?? []), file]);
    }
    return file;
  }
  const h264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p'];

  /** The worker's two passes, as transcode.service runs them for an answer without a poster (the first one takes it). */
  async function prepare(input: string): Promise<{ output: string; copied: boolean; info: ProbeResult }> {
    const info = await media.probe(input);
    const span = await media.packetSpan(input, { streams: [info.video!.index], stopAbove: Infinity });
    const timing = answerTiming({ fileStart: info.startSeconds, span, maxSeconds: 20 });
    const copied = canCopyVideo(info.video);
    const poster = `${input}.poster.jpg`;
    const measured = parseLoudness(await media.runFfmpeg(posterAndLoudnessArgs({ input, poster, duration: info.durationSeconds, timing })));
    const output = `${input}.answer.mp4`;
    await media.runFfmpeg(answerArgs({ input, output, timing, copyVideo: copied, measured }));
    return { output, copied, info };
  }

  it('brings a quiet WebM and a clipped MP4 to −14 LUFS (±1) with a true peak at most −1 dBTP', async () => {
    const quiet = await clip('quiet.webm', { gainDb: -34, video: ['-c:v', 'libvpx', '-b:v', '300k', '-deadline', 'realtime', '-cpu-used', '8'], audio: ['-c:a', 'libopus'] });
    const clipped = await clip('clipped.mp4', { gainDb: 24, video: h264, audio: ['-c:a', 'aac'] });
    expect((await loudness(quiet)).integrated).toBeLessThan(-40);
    expect((await loudness(clipped)).integrated).toBeGreaterThan(-9);

    for (const input of [quiet, clipped]) {
      const { output } = await prepare(input);
      const level = await loudness(output);
      expect(Math.abs(level.integrated - -14), `${input}: ${level.integrated} LUFS`).toBeLessThanOrEqual(1);
      expect(level.truePeak).toBeLessThanOrEqual(-1);
      const drift = await avDrift(output);
      expect(drift.start, JSON.stringify(drift)).toBeLessThanOrEqual(FRAME);
      expect(drift.end, JSON.stringify(drift)).toBeLessThanOrEqual(FRAME);
    }
  }, 60_000);

  it('copies the picture of an H.264 upload (no re-encode) and encodes what must be', async () => {
    const mp4 = await clip('h264.mp4', { gainDb: 0, video: h264, audio: ['-c:a', 'libopus'] });
    const { output, copied } = await prepare(mp4);
    expect(copied).toBe(true);
    // The same compressed frames: a stream copy keeps every packet's size.
    const sizes = async (file: string) => (await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=size', '-of', 'csv=p=0', file])).stdout;
    expect(await sizes(output)).toBe(await sizes(mp4));
    expect((await media.probe(output)).audio?.codec).toBe('aac');

    const big = await clip('big.mp4', { gainDb: 0, video: h264, audio: ['-c:a', 'aac'], size: '1936x1088' });
    const webm = await clip('vp8.webm', { gainDb: 0, video: ['-c:v', 'libvpx', '-b:v', '300k', '-deadline', 'realtime', '-cpu-used', '8'], audio: ['-c:a', 'libopus'] });
    for (const input of [big, webm]) {
      const result = await prepare(input);
      expect(result.copied).toBe(false);
      const info = await media.probe(result.output);
      expect(info.video).toMatchObject({ codec: 'h264', pixFmt: 'yuv420p' });
      expect(info.video!.width).toBeLessThanOrEqual(1920);
    }
  }, 60_000);

  it('lines up the picture and sound of a Safari-style fragmented MP4 whose picture starts 67 ms late', async () => {
    const safari = await clip('safari.mp4', { gainDb: -6, video: h264, audio: ['-c:a', 'aac'], videoDelay: 0.067, extra: ['-movflags', 'frag_keyframe+empty_moov+default_base_moof'] });
    const before = await avDrift(safari);
    expect(before.start, JSON.stringify(before)).toBeGreaterThan(0.05);
    const { output, copied } = await prepare(safari);
    expect(copied).toBe(true);
    const after = await avDrift(output);
    expect(after.start, JSON.stringify(after)).toBeLessThanOrEqual(FRAME);
    expect(after.end, JSON.stringify(after)).toBeLessThanOrEqual(FRAME);
    expect(after.video.start).toBeCloseTo(0, 2);
  }, 60_000);

  it('takes an upright poster from the upload itself', async () => {
    const input = await clip('poster.mp4', { gainDb: 0, video: h264, audio: ['-c:a', 'aac'], size: '1920x1080' });
    const poster = path.join(dir, 'poster.jpg');
    await media.runFfmpeg(posterArgs({ input, output: poster, duration: 6 }));
    const info = await media.probe(poster);
    expect(info.video).toMatchObject({ width: 1280, height: 720 });
  });

  it("takes the poster in the loudness measurement's run: the same poster and the same loudness as two runs", async () => {
    for (const [name, o] of [
      ['both.mp4', { gainDb: -6, video: h264, audio: ['-c:a', 'aac'], size: '1920x1080', videoDelay: 0.067 }],
      ['both.webm', { gainDb: -20, video: ['-c:v', 'libvpx', '-b:v', '300k', '-deadline', 'realtime', '-cpu-used', '8'], audio: ['-c:a', 'libopus'], size: '1280x720' }],
    ] as [string, Parameters<typeof clip>[1]][]) {
      const input = await clip(name, o);
      const info = await media.probe(input);
      const span = await media.packetSpan(input, { streams: [info.video!.index], stopAbove: Infinity });
      const timing = answerTiming({ fileStart: info.startSeconds, span, maxSeconds: 20 });
      const alone = path.join(dir, `alone-${name}.jpg`);
      const both = path.join(dir, `both-${name}.jpg`);
      await media.runFfmpeg(posterArgs({ input, output: alone, duration: info.durationSeconds }));
      const measuredAlone = parseLoudness(await media.runFfmpeg(loudnessMeasureArgs(input, timing)));
      const measuredBoth = parseLoudness(await media.runFfmpeg(posterAndLoudnessArgs({ input, poster: both, duration: info.durationSeconds, timing })));

      expect((await media.probe(both)).video).toMatchObject({ codec: 'mjpeg', width: 1280, height: 720 });
      expect(Buffer.compare(await readFile(both), await readFile(alone)), `${name}: the same poster`).toBe(0);
      expect(measuredBoth).not.toBeNull();
      expect(measuredBoth).toEqual(measuredAlone);
    }
  }, 60_000);

  it('merges three prepared answers with their cards, picture and sound within one frame at start and end', async () => {
    const answers: string[] = [];
    for (const [i, delay] of [0, 0.067, 0].entries()) {
      const input = await clip(`merge${i}.mp4`, { gainDb: -10 + i * 8, video: h264, audio: ['-c:a', 'aac'], size: '640x360', videoDelay: delay, extra: ['-movflags', 'frag_keyframe+empty_moov+default_base_moof'] });
      answers.push((await prepare(input)).output);
    }
    const frame: Frame = { width: 640, height: 360, kind: 'answer' };
    const style: CardStyle = { background: '#111827', color: '#ffffff', size: 36, face: { font: 'Arial', bold: true }, fontFile: fontFile('Arial', true) };
    const segments = await Promise.all(
      answers.map(async (answer, i) => ({ answer, source: { width: 640, height: 360 }, card: await writeCard(dir, `card${i}`, layoutCard({ text: `Question ${i + 1}?`, frame, style, logo: false })) })),
    );
    const output = path.join(dir, 'merged.mp4');
    await media.runFfmpeg(composeArgs({ output, frame, style, segments }), { failOnErrors: 'filters' });
    const drift = await avDrift(output);
    expect(drift.start, JSON.stringify(drift)).toBeLessThanOrEqual(FRAME);
    expect(drift.end, JSON.stringify(drift)).toBeLessThanOrEqual(FRAME);
    const level = await loudness(output);
    expect(Math.abs(level.integrated - -14)).toBeLessThanOrEqual(1);
  }, 120_000);
});

describe('the loudness measurement and the gain it gives', () => {
  const summary = (i: string, peak: string) =>
    `[Parsed_ebur128_4 @ 0x1] Summary:\n\n  Integrated loudness:\n    I:         ${i} LUFS\n    Threshold: -31.8 LUFS\n\n  Loudness range:\n    LRA:         2.5 LU\n    Threshold: -41.8 LUFS\n    LRA low:   -23.1 LUFS\n    LRA high:  -20.6 LUFS\n\n  True peak:\n    Peak:      ${peak} dBFS\n`;

  it("reads ebur128's closing summary (the last one of the log)", () => {
    expect(parseLoudness(`${summary('-30.0', '-9.0')}\nmore\n${summary('-21.8', '-3.5')}`)).toEqual({ integrated: -21.8, threshold: -31.8, range: 2.5, truePeak: -3.5, offset: 0 });
    // Silence: a peak of -inf cannot be measured; nor can a log without a summary.
    expect(parseLoudness(summary('-70.0', '-inf'))).toBeNull();
    expect(parseLoudness('Conversion failed!')).toBeNull();
  });

  it('raises or lowers by one gain, limits the peaks only when the gain would take them above the ceiling, and leaves silence alone', () => {
    const m = (integrated: number, truePeak: number) => ({ integrated, truePeak, range: 3, threshold: integrated - 10, offset: 0 });
    expect(normaliseFilter(m(-24, -12))).toBe(',volume=10.00dB');
    expect(normaliseFilter(m(-8, -0.1))).toBe(',volume=-6.00dB');
    // +6 dB would put a −4 dBTP peak at +2: the limiter holds it at −2 dBFS (0.7943).
    expect(normaliseFilter(m(-20, -4))).toBe(',volume=6.00dB,alimiter=limit=0.7943:level=false:attack=5:release=50');
    expect(normaliseFilter(m(-65, -40))).toBe('');
    expect(normaliseFilter(null)).toBe('');
  });
});
