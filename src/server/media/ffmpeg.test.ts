import { describe, expect, it } from 'vitest';
import { makeClip } from '../test/clips.js';
import { createMediaTools } from './ffmpeg.js';

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
});
