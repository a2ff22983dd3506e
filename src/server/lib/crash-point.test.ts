import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { armedCrashPoint, crashPoint } from './crash-point.js';
import { ROOT_DIR } from './paths.js';

const production = { NODE_ENV: 'production', APP_URL: 'https://a.example', JWT_SECRET: randomBytes(32).toString('hex') };

/** Runs a small script that calls crashPoint, as a service does after its commit. */
function child(env: Record<string, string>) {
  const script = `
    import { crashPoint } from './src/server/lib/crash-point.ts';
    process.stdout.write('committed\\n');
    crashPoint('submission-committed');
    process.stdout.write('next statement\\n');
  `;
  const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT_DIR,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>((resolve) =>
    proc.on('close', (code, signal) => resolve({ code, signal, out, err })),
  );
}

describe('crash points (tests only)', () => {
  it('are refused in production, with what to do, and only known names are accepted', () => {
    expect(() => loadConfig({ ...production, TEST_CRASH_AFTER: 'submission-committed' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...production, TEST_CRASH_AFTER: 'submission-committed' })).toThrow(/TEST_CRASH_AFTER: refused when NODE_ENV=production/);
    expect(() => loadConfig(production)).not.toThrow();
    expect(() => loadConfig({ TEST_CRASH_AFTER: 'somewhere' })).toThrow(/TEST_CRASH_AFTER/);
    expect(() => loadConfig({ NODE_ENV: 'test', TEST_CRASH_AFTER: 'render-committed' })).not.toThrow();
  });

  it('are armed by the environment alone, never in production, and only by a known name', () => {
    expect(armedCrashPoint({ NODE_ENV: 'test', TEST_CRASH_AFTER: 'render-committed' })).toBe('render-committed');
    expect(armedCrashPoint({ NODE_ENV: 'development', TEST_CRASH_AFTER: 'submission-committed' })).toBe('submission-committed');
    expect(armedCrashPoint({ NODE_ENV: 'production', TEST_CRASH_AFTER: 'submission-committed' })).toBeUndefined();
    expect(armedCrashPoint({ NODE_ENV: 'test', TEST_CRASH_AFTER: 'somewhere' })).toBeUndefined();
    expect(armedCrashPoint({ NODE_ENV: 'test' })).toBeUndefined();
  });

  it('does nothing at a point the environment does not name', () => {
    crashPoint('submission-committed');
    crashPoint('render-committed');
    expect(process.exitCode ?? 0).toBe(0);
  });

  it('kills the process with SIGKILL at the named point, before its next statement', async () => {
    const killed = await child({ TEST_CRASH_AFTER: 'submission-committed' });
    expect(killed.signal).toBe('SIGKILL');
    expect(killed.out).toBe('committed\n');
    expect(killed.err).toContain('crash point reached');
    const spared = await child({ TEST_CRASH_AFTER: 'render-committed' });
    expect(spared).toMatchObject({ code: 0, signal: null, out: 'committed\nnext statement\n' });
    // Inert in production, even if the environment names the point.
    const production = await child({ NODE_ENV: 'production', TEST_CRASH_AFTER: 'submission-committed' });
    expect(production).toMatchObject({ code: 0, signal: null, out: 'committed\nnext statement\n' });
  }, 60_000);
});
