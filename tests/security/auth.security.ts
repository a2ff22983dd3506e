/**
 * Attacks on accounts that the route table cannot express: telling known e-mails from unknown ones by
 * the time sign-in and forgot-password take, guessing passwords, and replaying one-time tokens.
 * (The integration suite's auth tests also run in this suite: see vitest.security.config.ts.)
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailTokens, refreshTokenFamilies, refreshTokens } from '../../src/server/db/schema.js';
import { hashToken } from '../../src/server/modules/auth/tokens.js';
import { signedInCompany } from '../../src/server/test/accounts.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

describe('account attacks', () => {
  let t: TestApp;
  let n = 0;
  const ip = () => `10.99.${Math.floor(n / 250)}.${(n++ % 250) + 1}`;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (url: string, payload: object, from = ip()) => t.app.inject({ method: 'POST', url, payload, remoteAddress: from });

  async function timed(fn: () => Promise<unknown>): Promise<number> {
    const started = process.hrtime.bigint();
    await fn();
    return Number(process.hrtime.bigint() - started) / 1e6;
  }

  it('takes the same time to refuse a known e-mail with a wrong password as an unknown e-mail', async () => {
    const known = await signedInCompany(t);
    const unknownEmail = `nobody.${Date.now()}@nowhere.test`;
    // Warm up both paths (the dummy hash is computed once).
    await post('/api/auth/signin', { email: unknownEmail, password: 'wrong-pass' });
    await post('/api/auth/signin', { email: known.email, password: 'wrong-pass' });
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    for (let i = 0; i < 8; i++) {
      // Alternate, each from a fresh address and e-mail variant under the per-e-mail limit.
      knownTimes.push(await timed(() => post('/api/auth/signin', { email: known.email, password: `wrong-${i}` })));
      unknownTimes.push(await timed(() => post('/api/auth/signin', { email: `x${i}.${unknownEmail}`, password: `wrong-${i}` })));
    }
    // The fastest of each: an attempt is never faster than the work it does (one argon2id verification),
    // while other suites running beside this one only ever add time, to either side at random.
    const k = Math.min(...knownTimes);
    const u = Math.min(...unknownTimes);
    // Both verify one argon2id hash; the difference must be small next to that cost.
    expect(Math.abs(k - u), `known ${k.toFixed(1)} ms, unknown ${u.toFixed(1)} ms`).toBeLessThan(Math.max(15, 0.35 * Math.max(k, u)));
    expect(Math.min(k, u)).toBeGreaterThan(5);
  });

  it('answers forgot-password identically, in body and about in time, for known and unknown e-mails', async () => {
    const known = await signedInCompany(t);
    const a = await post('/api/auth/forgot-password', { email: known.email, lang: 'en' });
    const b = await post('/api/auth/forgot-password', { email: `ghost.${Date.now()}@nowhere.test`, lang: 'en' });
    expect(a.statusCode).toBe(b.statusCode);
    expect(a.body).toBe(b.body);
    const knownTime = median(await Promise.all([0, 1].map(() => timed(() => post('/api/auth/forgot-password', { email: known.email, lang: 'en' })))));
    const unknownTime = median(await Promise.all([0, 1].map((i) => timed(() => post('/api/auth/forgot-password', { email: `g${i}.${Date.now()}@nowhere.test`, lang: 'en' })))));
    // The e-mail is sent by a job, so the answer does not wait for mail either way.
    expect(Math.abs(knownTime - unknownTime)).toBeLessThan(100);
  });

  // Password guessing from one or many addresses, and the owner's access meanwhile: lockout.security.ts.

  it('revokes the whole session when a rotated refresh token is replayed', async () => {
    const me = await signedInCompany(t);
    const first = await post('/api/auth/signin', { email: me.email, password: 'secret12' });
    const stolen = first.json<{ refreshToken: string }>().refreshToken;
    const rotated = await post('/api/auth/refresh', { refresh_token: stolen });
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json<{ refreshToken: string }>().refreshToken;
    const replay = await post('/api/auth/refresh', { refresh_token: stolen });
    expect(replay.statusCode).toBe(401);
    // The legitimate holder's newer token dies with the family: the thief cannot keep a session alive.
    expect((await post('/api/auth/refresh', { refresh_token: fresh })).statusCode).toBe(401);
    const [row] = await t.ctx.db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hashToken(stolen)));
    const [family] = await t.ctx.db.select().from(refreshTokenFamilies).where(eq(refreshTokenFamilies.id, row!.familyId));
    expect(family?.revokedAt).not.toBeNull();
    // Other sessions of the same person (another device) are not this family and keep working.
    expect((await me.get('/api/auth/me')).statusCode).toBe(200);
  });

  it('refuses guessed, replayed and expired e-mail tokens', async () => {
    for (const token of ['', 'a', 'x'.repeat(43), '../../etc/passwd', '%00']) {
      const confirm = await t.app.inject({ method: 'GET', url: `/api/auth/confirm-email?token=${encodeURIComponent(token)}`, remoteAddress: ip() });
      expect(confirm.statusCode, token).toBeGreaterThanOrEqual(300);
      expect(confirm.headers.location ?? '', token).not.toMatch(/confirmed=1|success/);
      const reset = await post('/api/auth/reset-password', { access_token: token, new_password: 'another-secret' });
      expect(reset.statusCode, token).toBe(400);
    }
    const tokens = await t.ctx.db.select().from(emailTokens);
    expect(tokens.every((row) => row.tokenHash.length === 64), 'tokens are stored only as SHA-256 hashes').toBe(true);
  });
});
