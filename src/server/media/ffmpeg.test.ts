import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { makeClip } from '../test/clips.js';
import { createMediaTools } from './ffmpeg.js';

const run = promisify(execFile);

/** A run of real ffmpeg that lasts about `seconds` (a test pattern encoded in real time). */
const slowRun = (seconds: number) => ['-re', '-f', 'lavfi', '-i', `testsrc2=size=64x48:rate=10:duration=${seconds}`, '-f', 'null', '-'];

describe('media tools of one configuration (ctx.media)', () => {
  it('probes with the configured ffprobe, and fails plainly with a path that does not exist', async () => {
    const clip = await makeClip({ format: 'webm', seconds: 1, tone: 440 });
    const info = await createMediaTools({ ffmpegConcurrency: 1 }).probe(clip);
    expect(info.video).toMatchObject({ codec: 'vp8' });
    expect(info.durationSeconds).toBeGreaterThan(0.8);
    const broken = createMediaTools({ ffmpegPath: '/nonexistent/ffmpeg', ffprobePath: '/nonexistent/ffprobe', ffmpegConcurrency: 1 });
    await expect(broken.probe(clip)).rejects.toThrow(/ENOENT/);
    await expect(broken.runFfmpeg(['-version'])).rejects.toThrow(/ENOENT/);
  });

  it('caps the ffmpeg runs of its own toolkit, not of another one', async () => {
    const one = createMediaTools({ ffmpegConcurrency: 1 });
    const other = createMediaTools({ ffmpegConcurrency: 1 });
    const started = Date.now();
    const ends: number[] = [];
    await Promise.all([one.runFfmpeg(slowRun(1)), one.runFfmpeg(slowRun(1))].map((p) => p.then(() => ends.push(Date.now() - started))));
    // One after the other: the second ends about a second after the first.
    expect(Math.max(...ends)).toBeGreaterThan(1800);
    const parallel = Date.now();
    await Promise.all([one.runFfmpeg(slowRun(1)), other.runFfmpeg(slowRun(1))]);
    expect(Date.now() - parallel).toBeLessThan(1800);
  });

  it('killAll stops the children of its toolkit only; a waiting run then starts', async () => {
    const one = createMediaTools({ ffmpegConcurrency: 1 });
    const other = createMediaTools({ ffmpegConcurrency: 2 });
    const killed = one.runFfmpeg(slowRun(20));
    const waiting = one.runFfmpeg(slowRun(1));
    const spared = other.runFfmpeg(slowRun(1.5));
    await new Promise((r) => setTimeout(r, 500));
    one.killAll();
    await expect(killed).rejects.toThrow(/SIGKILL/);
    await expect(waiting).resolves.toBeTypeOf('string');
    await expect(spared).resolves.toBeTypeOf('string');
  });

  it('reads an upload in one ffprobe as a probe and a packetSpan of its first picture and sound read it, stopping as early', async () => {
    const media = createMediaTools({ ffmpegConcurrency: 1 });
    const webm = await makeClip({ format: 'webm', seconds: 3, tone: 440 });
    const long = await makeClip({ format: 'mp4', seconds: 23, tone: 440 });
    // A second sound, 30 s long: the span is the first picture's and sound's, read without it.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vr-probe-'));
    const second = path.join(dir, 'two-sounds.mp4');
    await run('ffmpeg', ['-v', 'error', '-y', '-i', await makeClip({ format: 'mp4', seconds: 2, tone: 440 }), '-f', 'lavfi', '-i', 'sine=frequency=900:duration=30', '-map', '0:v', '-map', '0:a', '-map', '1:a', '-c:v', 'copy', '-c:a', 'aac', second]);
    for (const file of [webm, long, second]) {
      const probed = await media.probe(file);
      const streams = [probed.video!.index, probed.audio!.index];
      const span = await media.packetSpan(file, { streams, stopAbove: 21 });
      const upload = await media.probeUpload(file, 21);
      expect(upload, file).toEqual({
        ...probed,
        durationSeconds: span.seconds,
        tooManyPackets: span.tooManyPackets,
        errors: span.errors,
        videoSpan: span.streams[probed.video!.index],
      });
    }
    // Reading stopped once the span passed 21 s: a longer file is "longer than allowed", not measured.
    const stopped = await media.probeUpload(long, 21);
    expect(stopped.durationSeconds).toBeGreaterThan(21);
    expect(stopped.durationSeconds).toBeLessThan(22);
    expect((await media.probeUpload(second, 21)).durationSeconds).toBeLessThan(2.1);
    await rm(dir, { recursive: true, force: true });
  });
});
