import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('runs with no environment at all on the embedded defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.appUrl).toBe('http://localhost:3000');
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.mediaDir).toBe(path.join(path.resolve('./data'), 'media'));
    expect(config.outboxDir).toBe(path.join(path.resolve('./data'), 'outbox'));
    expect(config.databaseUrl).toBeUndefined();
    expect(config.smtpUrl).toBeUndefined();
    expect(config.role).toBe('all');
  });

  it('derives APP_URL from PORT and strips a trailing slash from an explicit one', () => {
    expect(loadConfig({ PORT: '4100' }).appUrl).toBe('http://localhost:4100');
    expect(loadConfig({ APP_URL: 'https://app.example.com/' }).appUrl).toBe('https://app.example.com');
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: ' ' }).databaseUrl).toBeUndefined();
  });

  it('names the variable and what it expects when a value is bad', () => {
    const attempt = () => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SMTP_URL: 'http://mail' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const message = (error as ConfigError).message;
      expect(message).toMatch(/PORT: expected a port number/);
      expect(message).toMatch(/DATABASE_URL: expected a PostgreSQL connection URL/);
      expect(message).toMatch(/SMTP_URL: expected an SMTP URL/);
      // Connection strings may hold passwords: never echoed.
      expect(message).not.toContain('mysql://x');
    }
  });

  it('requires a JWT secret and a public address in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET: required when NODE_ENV=production/);
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40) })).toThrow(/APP_URL: required/);
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), APP_URL: 'https://a.example' }).isProduction).toBe(true);
  });

  it('rejects a short JWT secret', () => {
    expect(() => loadConfig({ JWT_SECRET: 'short' })).toThrow(/JWT_SECRET: expected at least 32 characters/);
  });
});

describe('running as a fleet', () => {
  const shared = { DATABASE_URL: 'postgres://db/vouchreel', JWT_SECRET: 'j'.repeat(32) };

  it('needs a shared database and signing key for ROLE=api and ROLE=worker, not for the embedded default', () => {
    expect(() => loadConfig({ ROLE: 'api' })).toThrow(/DATABASE_URL: required with ROLE=api[\s\S]*JWT_SECRET: required with ROLE=api/);
    expect(() => loadConfig({ ROLE: 'worker', DATABASE_URL: shared.DATABASE_URL })).toThrow(/JWT_SECRET: required with ROLE=worker/);
    expect(loadConfig({ ROLE: 'worker', ...shared }).role).toBe('worker');
    expect(() => loadConfig({ ROLE: 'both' })).toThrow(/ROLE/);
  });

  it('runs as many jobs as there are cores unless told, waits 25 s on SIGTERM and presumes a silent process dead after 30 s unless told', async () => {
    const os = await import('node:os');
    expect(loadConfig({}).workerConcurrency).toBe(os.availableParallelism());
    expect(loadConfig({ WORKER_CONCURRENCY: '6' }).workerConcurrency).toBe(6);
    expect(() => loadConfig({ WORKER_CONCURRENCY: '0' })).toThrow(/WORKER_CONCURRENCY/);
    expect(loadConfig({}).shutdownTimeoutMs).toBe(25_000);
    expect(loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: '50' }).shutdownTimeoutMs).toBe(50_000);
    expect(loadConfig({}).workerLeaseSeconds).toBe(30);
    expect(loadConfig({ WORKER_LEASE_SECONDS: '8' }).workerLeaseSeconds).toBe(8);
    expect(() => loadConfig({ WORKER_LEASE_SECONDS: '1' })).toThrow(/WORKER_LEASE_SECONDS/);
  });

  it('keeps /metrics closed without a token, and never echoes a token', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'm'.repeat(20) }).metricsToken).toBe('m'.repeat(20));
    expect(() => loadConfig({ METRICS_TOKEN: 'short-secret' })).toThrow(/METRICS_TOKEN: expected at least 16 characters \(got "…"\)/);
  });
});

describe('resolveSecrets', () => {
  it('uses JWT_SECRET when set, else generates one secret per DATA_DIR and keeps it', async () => {
    const { mkdtemp, rm, stat } = await import('node:fs/promises');
    const os = await import('node:os');
    const { resolveSecrets } = await import('./lib/secrets.js');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vr-secrets-'));
    try {
      expect(await resolveSecrets({ jwtSecret: 's'.repeat(32), dataDir: dir })).toEqual({ jwt: 's'.repeat(32) });
      const first = await resolveSecrets({ jwtSecret: undefined, dataDir: dir });
      expect(first.jwt.length).toBeGreaterThanOrEqual(32);
      expect(await resolveSecrets({ jwtSecret: undefined, dataDir: dir })).toEqual(first);
      expect((await stat(path.join(dir, 'secrets.json'))).mode & 0o777).toBe(0o600);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
