import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, startServer } from './support/server.js';

const root = path.resolve(import.meta.dirname, '../..');

/** Runs the built server until it exits (or 20 s pass); its exit code and everything it printed. */
async function runUntilExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'vouchreel-startup-'));
  try {
    const child = spawn(process.execPath, [path.join(root, 'dist/node/server/main.js')], {
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', PORT: String(await freePort()), HOST: '127.0.0.1', DATA_DIR: dataDir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    return { code, output };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** `npm start` on a machine that lacks a tool (issue 18): it says what, why and how to install it. */
describe('start-up on a machine without the media tools', () => {
  it('refuses to start without ffmpeg, naming it with the Debian and macOS commands, and never says ready', async () => {
    const { code, output } = await runUntilExit({ FFMPEG_PATH: '/nonexistent/ffmpeg' });
    expect(code).toBe(1);
    expect(output).toContain('Missing: ffmpeg (/nonexistent/ffmpeg)');
    expect(output).toContain('Debian/Ubuntu: sudo apt-get install ffmpeg');
    expect(output).toContain('macOS: brew install ffmpeg');
    expect(output).not.toMatch(/is ready at/);
  });

  it('starts without the offline speech engine, says what to install, and reports it in /api/health', async () => {
    const server = await startServer({ POCKETSPHINX_PATH: '/nonexistent/pocketsphinx_continuous', LOG_LEVEL: 'info' }, { answering: true });
    try {
      const health = await fetch(`${server.url}/api/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toEqual({ status: 'degraded' });
      expect(server.logs()).toContain('Debian/Ubuntu: sudo apt-get install pocketsphinx pocketsphinx-en-us');
    } finally {
      await server.stop();
    }
  });
});
