import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { estimatedEntropyBits, KNOWN_SAMPLE_SECRETS } from './lib/secrets.js';

const strong = () => randomBytes(32).toString('hex');
const production = (env: Record<string, string> = {}) => ({ NODE_ENV: 'production', APP_URL: 'https://a.example', JWT_SECRET: strong(), ...env });

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

  it('refuses private webhook addresses unless WEBHOOKS_ALLOW_PRIVATE is on, and never in production', () => {
    expect(loadConfig({}).webhooksAllowPrivate).toBe(false);
    expect(loadConfig({ WEBHOOKS_ALLOW_PRIVATE: 'on' }).webhooksAllowPrivate).toBe(true);
    expect(() => loadConfig({ WEBHOOKS_ALLOW_PRIVATE: 'yes' })).toThrow(ConfigError);
    expect(() => loadConfig(production({ WEBHOOKS_ALLOW_PRIVATE: 'on' }))).toThrow(/WEBHOOKS_ALLOW_PRIVATE/);
  });

  it('makes drafts unless DRAFTS is off, and refuses another value', () => {
    expect(loadConfig({}).drafts).toBe(true);
    expect(loadConfig({ DRAFTS: 'off' }).drafts).toBe(false);
    expect(() => loadConfig({ DRAFTS: 'no' })).toThrow(ConfigError);
  });

  it('derives APP_URL from PORT and strips a trailing slash from an explicit one', () => {
    expect(loadConfig({ PORT: '4100' }).appUrl).toBe('http://localhost:4100');
    expect(loadConfig({ APP_URL: 'https://app.example.com/' }).appUrl).toBe('https://app.example.com');
  });

  it('shows no powered-by line on the customer\'s pages unless CUSTOMER_PAGES_POWERED_BY is true', () => {
    expect(loadConfig({}).customerPagesPoweredBy).toBe(false);
    expect(loadConfig({ CUSTOMER_PAGES_POWERED_BY: 'true' }).customerPagesPoweredBy).toBe(true);
    expect(() => loadConfig({ CUSTOMER_PAGES_POWERED_BY: 'yes' })).toThrow(ConfigError);
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
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: strong() })).toThrow(/APP_URL: required/);
    expect(loadConfig(production()).isProduction).toBe(true);
  });

  it('listens on loopback outside production unless told, and on every interface in production', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'test' }).host).toBe('127.0.0.1');
    expect(loadConfig(production()).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig(production({ HOST: '10.0.0.5' })).host).toBe('10.0.0.5');
  });

  it('rejects a short JWT secret', () => {
    expect(() => loadConfig({ JWT_SECRET: 'short' })).toThrow(/JWT_SECRET: expected at least 32 characters/);
  });
});

describe('secrets in production', () => {
  // Each value an operator could have copied: the compose file, README and docs of earlier releases, tests.
  const samples = {
    JWT_SECRET: ['change-me-change-me-change-me-change-me-0123456789', 'jwt-secret-MARKER-6c1f0e9a2b7d4c3e8f5a1b2c3d4e5f60', 'x'.repeat(48), 'p'.repeat(40), 'j'.repeat(32), 's'.repeat(32), 'another-service-secret-that-is-long-enough-32', 'abcdefghijklmnopqrstuvwxyz0123456789', '0123456789abcdef0123456789abcdef0123456789abcdef', 'thisismysupersecretjwtsigningkey'],
    METRICS_TOKEN: ['change-me-metrics-token-0123456789', 'fleet-metrics-token-123456', 'metrics-token-MARKER', 'm'.repeat(20), 'prometheus-metrics-token'],
    S3_SECRET_ACCESS_KEY: ['vouchreel-secret', 'S3RVER', 'minioadmin', 's3-secret-MARKER', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'],
  } as const;

  it('refuses every sample or guessable value in production, naming the variable and how to make one', () => {
    for (const [name, values] of Object.entries(samples)) {
      for (const value of values) {
        const env = production({ [name]: value, ...(name === 'S3_SECRET_ACCESS_KEY' ? { S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'app' } : {}) });
        let message = '';
        try {
          loadConfig(env);
        } catch (error) {
          message = (error as ConfigError).message;
        }
        expect(message, `${name}=${value}`).toMatch(new RegExp(`${name}: .*openssl rand -hex 32`));
        // The refused value is never echoed.
        expect(message).not.toContain(value);
      }
    }
  });

  it('accepts the same values in development and test, where nothing real is guarded', () => {
    for (const [name, values] of Object.entries(samples)) {
      for (const value of values.filter((v) => name !== 'METRICS_TOKEN' || v.length >= 16)) {
        const extra = name === 'S3_SECRET_ACCESS_KEY' ? { S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'app' } : {};
        if (name === 'JWT_SECRET' && value.length < 32) continue;
        for (const NODE_ENV of ['development', 'test']) expect(() => loadConfig({ NODE_ENV, [name]: value, ...extra }), `${NODE_ENV} ${name}=${value}`).not.toThrow();
      }
    }
  });

  it('accepts what `openssl rand -hex 32` and `-base64 32` make, and a provider-made S3 secret', () => {
    for (let i = 0; i < 200; i++) {
      const hex = strong();
      const b64 = randomBytes(32).toString('base64');
      expect(() => loadConfig(production({ JWT_SECRET: hex, METRICS_TOKEN: b64, S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'AKIAEXAMPLE', S3_SECRET_ACCESS_KEY: randomBytes(30).toString('base64') }))).not.toThrow();
      // A 32-hex-character key (128 bits, as some S3 providers issue) passes the bar of S3 secrets.
      expect(() => loadConfig(production({ S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'app', S3_SECRET_ACCESS_KEY: randomBytes(16).toString('hex') }))).not.toThrow();
    }
    expect(estimatedEntropyBits(strong())).toBeGreaterThan(200);
    expect(KNOWN_SAMPLE_SECRETS.every((v) => v === v.toLowerCase())).toBe(true);
  });

  it('refuses a metrics token equal to the signing key', () => {
    const secret = strong();
    expect(() => loadConfig(production({ JWT_SECRET: secret, METRICS_TOKEN: secret }))).toThrow(/METRICS_TOKEN: must differ from JWT_SECRET/);
  });
});

describe('TRUST_PROXY', () => {
  it('trusts nothing unless told', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
  });

  it('takes a hop count or a list of proxy addresses and CIDRs', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toEqual({ hops: 1 });
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toEqual({ hops: 2 });
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,fd00::/8,loopback' }).trustProxy).toEqual({ proxies: ['10.0.0.0/8', '127.0.0.1', 'fd00::/8', 'loopback'] });
  });

  it('refuses `true`, which trusts every hop, saying what to write instead', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: `true` is refused.*`1` behind one load balancer.*10\.0\.0\.0\/8/);
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY: expected/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY: expected/);
    expect(() => loadConfig({ TRUST_PROXY: '99' })).toThrow(/TRUST_PROXY: expected a hop count/);
  });
});

describe('payments', () => {
  const prices = { STRIPE_PRICE_STARTER: 'p1', STRIPE_PRICE_SMALL: 'p2', STRIPE_PRICE_MEDIUM: 'p3', STRIPE_PRICE_LARGE: 'p4', STRIPE_PRICE_EXTRA_LARGE: 'p5' };

  it('runs the labelled test mode outside production, and sells nothing in production without Stripe', () => {
    expect(loadConfig({}).payments).toBe('test');
    expect(loadConfig({ NODE_ENV: 'test' }).payments).toBe('test');
    expect(loadConfig(production()).payments).toBe('disabled');
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1', ...prices }).payments).toBe('stripe');
  });

  it('requires the webhook secret with Stripe in production, where a late payment is only known by webhook', () => {
    expect(() => loadConfig(production({ STRIPE_SECRET_KEY: 'sk_live_1', ...prices }))).toThrow(/STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY/);
    expect(loadConfig(production({ STRIPE_SECRET_KEY: 'sk_live_1', STRIPE_WEBHOOK_SECRET: 'whsec_1', ...prices })).payments).toBe('stripe');
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1', ...prices }).stripe?.webhookSecret).toBeUndefined();
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
