/**
 * Published secrets (issue 15, item 4). The compose file's JWT_SECRET was accepted in production: a
 * token forged with it read a company's profile. Its MinIO root keys were the app's S3 keys, with the
 * storage ports published, and its METRICS_TOKEN was a sample too.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.js';
import { ROOT_DIR } from '../../src/server/lib/paths.js';
import { signedInCompany } from '../../src/server/test/accounts.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';

/** What docker-compose.yml shipped until issue 15. */
const OLD_COMPOSE = {
  JWT_SECRET: 'change-me-change-me-change-me-change-me-0123456789',
  METRICS_TOKEN: 'change-me-metrics-token-0123456789',
  S3_SECRET_ACCESS_KEY: 'vouchreel-secret',
};
const productionEnv = (env: Record<string, string>) => ({
  NODE_ENV: 'production',
  APP_URL: 'https://app.vouchreel.test',
  JWT_SECRET: randomBytes(32).toString('hex'),
  S3_BUCKET: 'vouchreel-media',
  S3_ACCESS_KEY_ID: 'vouchreel-app',
  S3_SECRET_ACCESS_KEY: randomBytes(32).toString('hex'),
  ...env,
});
const configProblem = (env: Record<string, string>) => {
  try {
    loadConfig(env);
    return undefined;
  } catch (error) {
    return error instanceof ConfigError ? error.message : String(error);
  }
};

describe('the old compose file’s secrets', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { NODE_ENV: 'production', APP_URL: 'https://app.vouchreel.test', JWT_SECRET: randomBytes(32).toString('hex') } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stop a production process at start, naming the variable and how to make one', () => {
    for (const [name, value] of Object.entries(OLD_COMPOSE)) {
      const problem = configProblem(productionEnv({ [name]: value }));
      expect(problem, name).toMatch(new RegExp(`${name}: is a published sample value; generate one with \`openssl rand -hex 32\``));
    }
    // A developer machine may keep them.
    for (const [name, value] of Object.entries(OLD_COMPOSE)) expect(configProblem({ ...productionEnv({ [name]: value }), NODE_ENV: 'development' }), name).toBeUndefined();
  });

  it('cannot forge a session: no production process signs with the sample, and one that does not refuses the token', async () => {
    const victim = await signedInCompany(t);
    // The attacker's token: the victim's real claims, signed with the published secret.
    const real = victim.headers.authorization.slice('Bearer '.length);
    const forged = await new SignJWT(decodeJwt(real)).setProtectedHeader(decodeProtectedHeader(real) as { alg: string }).sign(new TextEncoder().encode(OLD_COMPOSE.JWT_SECRET));
    expect(configProblem(productionEnv({ JWT_SECRET: OLD_COMPOSE.JWT_SECRET }))).toMatch(/JWT_SECRET: is a published sample value/);
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${forged}` } });
    expect(res.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: victim.headers })).statusCode).toBe(200);
  });
});

describe('docker-compose.yml', () => {
  let compose: string;
  beforeAll(async () => {
    compose = await readFile(path.join(ROOT_DIR, 'docker-compose.yml'), 'utf8');
  });

  it('writes no secret: each one must come from the operator', () => {
    const secretNames = ['JWT_SECRET', 'METRICS_TOKEN', 'S3_SECRET_ACCESS_KEY', 'MINIO_ROOT_PASSWORD', 'POSTGRES_PASSWORD', 'APP_SECRET_KEY'];
    for (const name of secretNames) {
      const lines = compose.split('\n').filter((line) => new RegExp(`^\\s+${name}:`).test(line));
      expect(lines.length, name).toBeGreaterThan(0);
      for (const line of lines) expect(line, name).toMatch(/:\s+"\$\{[A-Z0-9_]+:\?set [A-Z0-9_]+ in \.env: openssl rand -hex 32\}"$/);
    }
    // The database URL carries the database password the same way.
    expect(compose).toMatch(/DATABASE_URL: "postgres:\/\/vouchreel:\$\{POSTGRES_PASSWORD:\?[^}]+\}@postgres/);
    for (const value of [...Object.values(OLD_COMPOSE), 'vouchreel-secret']) expect(compose).not.toContain(value);
  });

  it('gives the app its own bucket-scoped MinIO user, never the root credentials', () => {
    const appKey = /^\s+S3_ACCESS_KEY_ID: (\S+)$/m.exec(compose)?.[1];
    const rootUser = /MINIO_ROOT_USER: \$\{MINIO_ROOT_USER:-(\S+)\}/.exec(compose)?.[1];
    expect(appKey).toBeTruthy();
    expect(appKey).not.toBe(rootUser);
    expect(compose).toContain(`mc admin user add local ${appKey} "$$APP_SECRET_KEY"`);
    expect(compose).toContain(`mc admin policy attach local ${appKey} --user ${appKey}`);
    expect(compose).toMatch(/"Resource":\["arn:aws:s3:::vouchreel-media\/\*"\]/);
    // Only MinIO and the bucket service see the root password.
    const services = compose.split(/^ {2}(?=[a-z]+:$)/m);
    const withRoot = services.filter((s) => s.includes('MINIO_ROOT_PASSWORD')).map((s) => s.split(':')[0]);
    expect(withRoot.sort()).toEqual(['bucket', 'minio']);
  });

  it('publishes nothing to the network: every port on loopback, and no storage port at all (MinIO API or console)', () => {
    const published: string[] = [];
    let inPorts = false;
    for (const line of compose.split('\n')) {
      if (/^\s+ports:\s*$/.test(line)) inPorts = true;
      else if (inPorts && /^\s+-\s/.test(line)) published.push(line.replace(/^\s+-\s+/, '').replace(/"/g, ''));
      else if (inPorts && !/^\s+#/.test(line)) inPorts = false;
    }
    expect(published.length).toBeGreaterThan(0);
    for (const mapping of published) expect(mapping, mapping).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
    expect(published.some((m) => m.endsWith(':9000') || m.endsWith(':9001'))).toBe(false);
    // The media reach browsers through the app, not from the bucket.
    expect(compose).toMatch(/S3_MEDIA_DELIVERY: stream/);
    expect(compose).not.toMatch(/S3_PUBLIC_ENDPOINT/);
  });

  it('ships an .env.example without working values', async () => {
    const example = await readFile(path.join(ROOT_DIR, '.env.example'), 'utf8');
    const assignments = example.split('\n').filter((line) => /^[A-Z0-9_]+=/.test(line));
    expect(assignments.length).toBeGreaterThanOrEqual(5);
    for (const line of assignments) expect(line).toMatch(/^[A-Z0-9_]+=$/);
  });
});

describe('a published sample inside a longer value (issue 26, item 9)', () => {
  // The review's value: the sample written twice and a suffix. Its length and characters gave ~150
  // estimated bits, so a production process used to start with it.
  const ATTACK = 'vouchreel-secret-vouchreel-secret-1234';
  const VARIANTS = [
    ATTACK,
    'xx-vouchreel-secret-yy-long-random-tail',
    ATTACK.toUpperCase(),
    'VouchReel_Secret_VouchReel_Secret_2026!',
    `${randomBytes(20).toString('hex')}-vouchreel-secret`,
    `MinioAdmin-${randomBytes(16).toString('base64url')}`,
    `change-me-metrics-token-0123456789-${randomBytes(8).toString('hex')}`,
  ];

  it('stops a production process at start, whichever secret holds it', () => {
    for (const name of ['JWT_SECRET', 'METRICS_TOKEN', 'S3_SECRET_ACCESS_KEY']) {
      for (const value of VARIANTS) {
        const problem = configProblem(productionEnv({ [name]: value }));
        expect(problem, `${name}=${value}`).toMatch(new RegExp(`${name}: (contains|is) a published sample value; generate one with`));
        expect(problem).not.toContain(value);
      }
    }
  });

  it('refuses a phrase repeated, and few characters over a great length, that the length alone made look strong', () => {
    const repeated = ['acme-secret-acme-secret-acme-secret-2024-x', `${'our-jwt-key-'.repeat(8)}9`, 'Password1Password1Password1Password1!'];
    for (const value of repeated) expect(configProblem(productionEnv({ JWT_SECRET: value })), value).toMatch(/JWT_SECRET: (repeats a part of itself|is a repeated|looks like)/);
    // 300 random letters of four and a few other characters: ~600 bits by length (accepted until now),
    // 2 per character. Refused by the floor per character, or by a part it repeats by chance.
    const long = Array.from({ length: 300 }, () => 'adgj'[randomBytes(1)[0]! % 4]).join('');
    const value = `${long}QWXZ5678`;
    expect(configProblem(productionEnv({ JWT_SECRET: value }))).toMatch(/JWT_SECRET: (has too little entropy per character|repeats a part of itself)/);
    // What operators are told to make still starts.
    expect(configProblem(productionEnv({ JWT_SECRET: randomBytes(32).toString('hex'), METRICS_TOKEN: randomBytes(32).toString('base64') }))).toBeUndefined();
  });
});
