import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test/harness.js';
import { checkMediaTools, checkSpeechEngine, describeProblems } from './toolchain.js';

/**
 * What a newcomer is told when a tool is missing (issue 18). The real ffmpeg, ffprobe and pocketsphinx
 * of this machine pass; a path where nothing is installed, and an ffmpeg build without the filters and
 * encoders the product uses, are named with why and how to install.
 */
describe('the media tools the product needs', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'vr-toolchain-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('finds nothing missing on this machine', async () => {
    expect(await checkMediaTools({ ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe', runsMediaJobs: true })).toEqual([]);
    expect(await checkSpeechEngine({ transcribeUrl: undefined, pocketsphinxPath: 'pocketsphinx_continuous' })).toBeNull();
  });

  it('names a missing ffmpeg and ffprobe with why and the install commands; an API process needs only ffprobe', async () => {
    const missing = await checkMediaTools({ ffmpegPath: path.join(dir, 'no-ffmpeg'), ffprobePath: path.join(dir, 'no-ffprobe'), runsMediaJobs: true });
    expect(missing.map((p) => p.tool)).toEqual([`ffprobe (${path.join(dir, 'no-ffprobe')})`, `ffmpeg (${path.join(dir, 'no-ffmpeg')})`]);
    const text = describeProblems(missing, 'Vouchreel cannot start:');
    expect(text).toContain('Debian/Ubuntu: sudo apt-get install ffmpeg');
    expect(text).toContain('macOS: brew install ffmpeg');
    expect(text).toMatch(/Why: it prepares every answer for playback/);

    expect(await checkMediaTools({ ffmpegPath: path.join(dir, 'no-ffmpeg'), ffprobePath: 'ffprobe', runsMediaJobs: false })).toEqual([]);
  });

  it('names the filters and encoders a minimal ffmpeg build lacks', async () => {
    // An ffmpeg that runs but was built without libass, libx264 and loudnorm: it lists only a few.
    const minimal = path.join(dir, 'ffmpeg-minimal');
    await writeFile(
      minimal,
      [
        '#!/bin/sh',
        'case "$*" in',
        '  *-filters*) printf " ... scale            V->V       Scale.\\n ... crop             V->V       Crop.\\n" ;;',
        '  *-encoders*) printf " V....D mjpeg                MJPEG\\n V....D png                  PNG\\n A....D aac                  AAC\\n" ;;',
        '  *) echo "ffmpeg version 6-minimal" ;;',
        'esac',
      ].join('\n'),
    );
    await chmod(minimal, 0o755);
    const [problem] = await checkMediaTools({ ffmpegPath: minimal, ffprobePath: 'ffprobe', runsMediaJobs: true });
    expect(problem?.tool).toContain('filter ass');
    expect(problem?.tool).toContain('filter drawtext');
    expect(problem?.tool).toContain('filter loudnorm');
    expect(problem?.tool).toContain('encoder libx264');
    expect(problem?.tool).not.toContain('encoder aac');
  });

  it('names a speech engine that cannot run, unless a remote engine is configured', async () => {
    const problem = await checkSpeechEngine({ transcribeUrl: undefined, pocketsphinxPath: path.join(dir, 'no-pocketsphinx') });
    expect(problem?.install.debian).toBe('sudo apt-get install pocketsphinx pocketsphinx-en-us');
    expect(await checkSpeechEngine({ transcribeUrl: 'https://speech.example/v1', pocketsphinxPath: path.join(dir, 'no-pocketsphinx') })).toBeNull();
  });

  it('reports a speech engine that cannot run as not ok in /api/health, and why in the operator report', async () => {
    const t = await createTestApp({ env: { POCKETSPHINX_PATH: path.join(dir, 'no-pocketsphinx'), METRICS_TOKEN: 'metrics-token-for-the-toolchain-test-0123456789' } });
    try {
      const health = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(503);
      expect(health.json()).toEqual({ status: 'degraded' });
      const ready = await t.app.inject({ method: 'GET', url: '/api/ready', headers: { authorization: 'Bearer metrics-token-for-the-toolchain-test-0123456789' } });
      expect(ready.json().health.checks.transcription).toMatchObject({ ok: false, error: expect.stringContaining('apt-get install pocketsphinx') });
    } finally {
      await t.close();
    }
  });
});
