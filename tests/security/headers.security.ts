/**
 * What the server tells browsers, and what ships to them: a CSP that forbids inline scripts, HSTS in
 * production, a client bundle with no server secret in it even when every secret is set at build
 * time and no source map (the maps would publish the full sources), and production dependencies
 * without a high or critical advisory.
 */
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_DIR } from '../../src/server/lib/paths.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';

const run = promisify(execFile);

function withoutSourcemapFlag(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { BUILD_SOURCEMAPS: _flag, ...rest } = env;
  return rest;
}

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe('headers', () => {
  let prod: TestApp;

  beforeAll(async () => {
    prod = await createTestApp({ env: { NODE_ENV: 'production', APP_URL: 'https://app.vouchreel.test', JWT_SECRET: randomBytes(32).toString('hex') } });
  });
  afterAll(async () => {
    await prod?.close();
  });

  it('sends a CSP without inline or evaluated scripts, and HSTS in production, on pages and API answers', async () => {
    for (const url of ['/', '/dashboard', '/testimonial/submit/abc', '/files/x', '/api/health', '/api/does-not-exist', '/api/auth/me']) {
      const res = await prod.app.inject({ method: 'GET', url });
      const csp = directives(String(res.headers['content-security-policy'] ?? ''));
      const scripts = csp.get('script-src') ?? csp.get('default-src') ?? [];
      if (url.startsWith('/api/')) {
        // API answers are never documents: nothing loads from them.
        expect(csp.get('default-src'), url).toEqual(["'none'"]);
        expect(res.headers['x-frame-options'], url).toBe('DENY');
      } else expect(scripts, url).toContain("'self'");
      expect(scripts.some((s) => /unsafe-inline|unsafe-eval|\*|data:/.test(s)), `${url}: script-src ${scripts.join(' ')}`).toBe(false);
      expect(csp.get('object-src'), url).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors'), url).toEqual(["'none'"]);
      expect(String(res.headers['strict-transport-security']), url).toMatch(/max-age=\d{7,}/);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });
});

describe('client bundle', () => {
  let outDir: string;
  const secrets = {
    JWT_SECRET: 'jwt-secret-MARKER-6c1f0e9a2b7d4c3e8f5a1b2c3d4e5f60',
    STRIPE_SECRET_KEY: 'sk_test_MARKER51HqxS2eZvKYlo2C0123456789',
    STRIPE_WEBHOOK_SECRET: 'whsec_MARKERab12cd34ef56',
    GOOGLE_CLIENT_SECRET: 'GOCSPX-MARKER-google-secret',
    SMTP_URL: 'smtp://user:smtp-password-MARKER@smtp.example.test:587',
    DATABASE_URL: 'postgres://app:db-password-MARKER@db.example.test:5432/vouchreel',
    TRANSCRIBE_API_KEY: 'transcribe-key-MARKER',
    S3_SECRET_ACCESS_KEY: 's3-secret-MARKER',
    METRICS_TOKEN: 'metrics-token-MARKER',
  };

  beforeAll(async () => {
    outDir = await mkdtemp(path.join(os.tmpdir(), 'vouchreel-bundle-'));
    // Every secret in the build's environment, as a careless deployment would have it.
    await run(process.execPath, [path.join(ROOT_DIR, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
      cwd: ROOT_DIR,
      // The default build: source maps only come with BUILD_SOURCEMAPS=true, which nobody set here.
      env: { ...withoutSourcemapFlag(process.env), ...secrets },
      maxBuffer: 16 * 1024 * 1024,
    });
  }, 300_000);
  afterAll(async () => {
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  it('contains no server secret, even when every secret is in the environment at build time', async () => {
    const files = (await readdir(outDir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
    expect(files.some((f) => f.name.endsWith('.js'))).toBe(true);
    for (const entry of files) {
      if (!/\.(js|css|html|json|map|txt|webmanifest|svg)$/.test(entry.name)) continue;
      const text = await readFile(path.join(entry.parentPath, entry.name), 'utf8');
      for (const [name, value] of Object.entries(secrets)) expect(text.includes(value), `${name} in ${entry.name}`).toBe(false);
      expect(text, entry.name).not.toMatch(/sk_(live|test)_[A-Za-z0-9]{10}|whsec_[A-Za-z0-9]{8}|-----BEGIN [A-Z ]*PRIVATE KEY-----/);
    }
  });

  it('ships no source map: no .map file, no sourceMappingURL in the scripts and styles, no sourcesContent', async () => {
    const files = (await readdir(outDir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
    expect(files.filter((f) => f.name.endsWith('.map')).map((f) => f.name)).toEqual([]);
    for (const entry of files.filter((f) => /\.(js|mjs|css|html)$/.test(f.name))) {
      const text = await readFile(path.join(entry.parentPath, entry.name), 'utf8');
      expect(text, entry.name).not.toMatch(/[#@]\s*sourceMappingURL=/);
      expect(text, entry.name).not.toContain('"sourcesContent"');
    }
  });
});

describe('dependencies', () => {
  it('have no high or critical advisory among production dependencies (npm audit)', async (context) => {
    let stdout: string;
    try {
      ({ stdout } = await run('npm', ['audit', '--omit=dev', '--json'], { cwd: ROOT_DIR, maxBuffer: 32 * 1024 * 1024, timeout: 120_000 }));
    } catch (error) {
      // npm audit exits non-zero when it finds anything; the JSON report is still on stdout.
      stdout = (error as { stdout?: string }).stdout ?? '';
      if (!stdout) throw error;
    }
    const report = JSON.parse(stdout) as {
      statusCode?: number;
      message?: string;
      metadata?: { vulnerabilities?: Record<string, number> };
      vulnerabilities?: Record<string, { severity: string }>;
    };
    // A registry mirror without the advisory service refuses the audit call itself (this workplace's
    // mirror answers 405): then there is nothing to judge here, and the run says so.
    if (!report.metadata && report.statusCode && report.statusCode >= 400) {
      context.skip(`the registry has no advisory service: ${report.message ?? report.statusCode}`);
    }
    const counts = report.metadata?.vulnerabilities;
    expect(counts, `npm audit answered: ${stdout.slice(0, 300)}`).toBeDefined();
    const serious = Object.entries(report.vulnerabilities ?? {}).filter(([, v]) => v.severity === 'high' || v.severity === 'critical');
    expect(serious.map(([name, v]) => `${name} (${v.severity})`)).toEqual([]);
  }, 150_000);
});
