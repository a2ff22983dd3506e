import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { crashPoint } from './crash-point.js';
import { ROOT_DIR } from './paths.js';

const production = { NODE_ENV: 'production', APP_URL: 'https://a.example', JWT_SECRET: randomBytes(32).toString('hex') };

/** Runs a small script that loads the real config and calls crashPoint, as a service does after its commit. */
function child(env: Record<string, string>) {
  const script = `
    import { loadConfig } from './src/server/config.ts';
    import { crashPoint } from './src/server/lib/crash-point.ts';
    const config = loadConfig(process.env);
    process.stdout.write('committed\\n');
    crashPoint({ config }, 'submission-committed');
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
    expect(loadConfig(production).testCrashAfter).toBeUndefined();
    expect(() => loadConfig({ TEST_CRASH_AFTER: 'somewhere' })).toThrow(/TEST_CRASH_AFTER/);
    expect(loadConfig({ NODE_ENV: 'test', TEST_CRASH_AFTER: 'render-committed' }).testCrashAfter).toBe('render-committed');
    expect(loadConfig({ NODE_ENV: 'development', TEST_CRASH_AFTER: 'submission-committed' }).testCrashAfter).toBe('submission-committed');
  });

  it('does nothing at a point the configuration does not name', () => {
    crashPoint({ config: loadConfig({ NODE_ENV: 'test' }) }, 'submission-committed');
    crashPoint({ config: loadConfig({ NODE_ENV: 'test', TEST_CRASH_AFTER: 'render-committed' }) }, 'submission-committed');
    expect(process.exitCode ?? 0).toBe(0);
  });

  it('kills the process with SIGKILL at the named point, before its next statement', async () => {
    const killed = await child({ TEST_CRASH_AFTER: 'submission-committed' });
    expect(killed.signal).toBe('SIGKILL');
    expect(killed.out).toBe('committed\n');
    expect(killed.err).toContain('crash point reached');
    const spared = await child({ TEST_CRASH_AFTER: 'render-committed' });
    expect(spared).toMatchObject({ code: 0, signal: null, out: 'committed\nnext statement\n' });
  }, 60_000);
});
