import { chmod, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { mediaToolProblems, programIdentity, speechEngineProblem, TOOLCHAIN_CACHE_FILE } from './toolchain-cache.js';
import { REQUIRED_ENCODERS, REQUIRED_FILTERS } from './toolchain.js';

/**
 * The media tools are checked once per installed version (decision 170): a second start with the same
 * programs runs none of them, a changed program is checked again, and a missing one at every start.
 * The programs here are small scripts that log each run, standing in for ffmpeg and ffprobe.
 */
describe('the start-up checks of the media tools, once per installed version', () => {
  let dir: string;
  let bin: string;
  let runs: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'vr-toolchain-cache-'));
    bin = path.join(dir, 'bin');
    runs = path.join(dir, 'runs.log');
    await rm(bin, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(bin));
    const filters = REQUIRED_FILTERS.map((f) => ` ... ${f}            V->V       ${f}.`).join('\\n');
    const encoders = REQUIRED_ENCODERS.map((e) => ` V....D ${e}                ${e}`).join('\\n');
    await writeFile(
      path.join(bin, 'ffmpeg'),
      ['#!/bin/sh', `echo "ffmpeg $*" >> '${runs}'`, 'case "$*" in', `  *-filters*) printf '${filters}\\n' ;;`, `  *-encoders*) printf '${encoders}\\n' ;;`, 'esac'].join('\n'),
    );
    await writeFile(path.join(bin, 'ffprobe'), ['#!/bin/sh', `echo "ffprobe $*" >> '${runs}'`, 'echo "ffprobe version test"'].join('\n'));
    await chmod(path.join(bin, 'ffmpeg'), 0o755);
    await chmod(path.join(bin, 'ffprobe'), 0o755);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const runLog = async () => (await readFile(runs, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  const configFor = (dataDir: string, env: Record<string, string> = {}) =>
    loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PATH: `${bin}${path.delimiter}/usr/bin`, FFMPEG_PATH: path.join(bin, 'ffmpeg'), FFPROBE_PATH: path.join(bin, 'ffprobe'), ...env });

  it('identifies a program by its real path, size and modification time, found on the PATH when named bare', async () => {
    const identity = await programIdentity('ffprobe', `/nonexistent${path.delimiter}${bin}`);
    expect(identity).toMatch(new RegExp(`^${path.join(bin, 'ffprobe')}:\\d+:\\d+$`));
    expect(await programIdentity('ffprobe', '/nonexistent')).toBe('missing:ffprobe');
    expect(await programIdentity(path.join(bin, 'nothing'), '')).toBe(`missing:${path.join(bin, 'nothing')}`);
  });

  it('runs the programs at the first start only, and again once ffmpeg is another version', async () => {
    const dataDir = path.join(dir, 'data-1');
    await rm(runs, { force: true });
    expect(await mediaToolProblems(configFor(dataDir), true)).toEqual([]);
    expect((await runLog()).sort()).toEqual(['ffmpeg -hide_banner -encoders', 'ffmpeg -hide_banner -filters', 'ffprobe -version']);
    expect(JSON.parse(await readFile(path.join(dataDir, TOOLCHAIN_CACHE_FILE), 'utf8'))).toHaveProperty('media');

    // The next start: nothing runs.
    await rm(runs, { force: true });
    expect(await mediaToolProblems(configFor(dataDir), true)).toEqual([]);
    expect(await runLog()).toEqual([]);

    // An upgraded ffmpeg (another modification time): checked again.
    const later = new Date(Date.now() + 60_000);
    await utimes(path.join(bin, 'ffmpeg'), later, later);
    expect(await mediaToolProblems(configFor(dataDir), true)).toEqual([]);
    expect(await runLog()).toContain('ffmpeg -hide_banner -filters');
  });

  it('keeps no record of a failed check: a missing ffmpeg is named at every start', async () => {
    const dataDir = path.join(dir, 'data-2');
    const missing = configFor(dataDir, { FFMPEG_PATH: path.join(dir, 'no-ffmpeg') });
    for (let start = 0; start < 2; start++) {
      const problems = await mediaToolProblems(missing, true);
      expect(problems.map((p) => p.tool)).toEqual([`ffmpeg (${path.join(dir, 'no-ffmpeg')})`]);
    }
    await expect(readFile(path.join(dataDir, TOOLCHAIN_CACHE_FILE), 'utf8')).rejects.toThrow();
  });

  it('tells a missing speech engine at each check and remembers one that runs', async () => {
    const dataDir = path.join(dir, 'data-3');
    const absent = await speechEngineProblem(configFor(dataDir, { POCKETSPHINX_PATH: path.join(dir, 'no-pocketsphinx') }));
    expect(absent?.install.debian).toBe('sudo apt-get install pocketsphinx pocketsphinx-en-us');
    await expect(readFile(path.join(dataDir, TOOLCHAIN_CACHE_FILE), 'utf8')).rejects.toThrow();

    // The machine's own pocketsphinx runs, and its pass is recorded for the next start.
    expect(await speechEngineProblem(configFor(dataDir, { PATH: process.env.PATH ?? '' }))).toBeNull();
    expect(JSON.parse(await readFile(path.join(dataDir, TOOLCHAIN_CACHE_FILE), 'utf8'))).toHaveProperty('speech');
  });

  it('survives a record file cut short by a crash: the checks run again', async () => {
    const dataDir = path.join(dir, 'data-4');
    await import('node:fs/promises').then((fs) => fs.mkdir(dataDir, { recursive: true }));
    await writeFile(path.join(dataDir, TOOLCHAIN_CACHE_FILE), '{"media": "abc');
    await rm(runs, { force: true });
    expect(await mediaToolProblems(configFor(dataDir), true)).toEqual([]);
    expect(await runLog()).toContain('ffprobe -version');
    expect(JSON.parse(await readFile(path.join(dataDir, TOOLCHAIN_CACHE_FILE), 'utf8'))).toHaveProperty('media');
  });
});
