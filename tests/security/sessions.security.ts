/**
 * Ending a session ends its access (issue 15, item 17): a saved access token must stop working as soon
 * as its session is signed out, and every session's tokens as soon as the password is reset, although
 * the token itself is valid for 15 minutes and the API remembers tokens it verified. Also when the
 * session is ended by another process (a direct write to the database here): the change feed tells
 * this process. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL, whose feeds differ.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInCompany } from '../../src/server/test/accounts.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';
import { startSmtpCatcher } from '../../src/server/test/smtp-catcher.js';

describe('ending sessions ends access', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
  let n = 0;
  const ip = () => `10.78.${Math.floor(n / 250)}.${(n++ % 250) + 1}`;

  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    t = await createTestApp({ work: true, env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload, headers, remoteAddress: ip() });

  /** A sign-in as a device does it: its access and refresh tokens. */
  async function device(email: string, password = 'secret12') {
    const res = await post('/api/auth/signin', { email, password });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ token: string; refreshToken: string }>();
  }

  /** The requests API with a saved access token. */
  const requests = (companyId: string, token: string) =>
    t.app.inject({ method: 'GET', url: `/api/testimonials/requests?company_id=${companyId}`, headers: { authorization: `Bearer ${token}` } });

  it('refuses a saved access token right after its session signs out', async () => {
    const me = await signedInCompany(t);
    const laptop = await device(me.email);
    const phone = await device(me.email);
    // Used twice: the token is verified and its session known in this process's caches.
    expect((await requests(me.companyId, laptop.token)).statusCode).toBe(200);
    expect((await requests(me.companyId, laptop.token)).statusCode).toBe(200);

    // Sign-out as the web client sends it.
    const out = await post('/api/auth/signout', {}, { authorization: `Bearer ${laptop.token}`, 'x-refresh-token': laptop.refreshToken });
    expect(out.json()).toEqual({ success: true });

    const after = await requests(me.companyId, laptop.token);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ code: 'unauthorized', errorKey: 'sessionExpired', error: expect.any(String) });
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${laptop.token}` } })).statusCode).toBe(401);
    expect((await post('/api/auth/refresh', { refresh_token: laptop.refreshToken })).statusCode).toBe(401);
    // Another device of the same person keeps its session.
    expect((await requests(me.companyId, phone.token)).statusCode).toBe(200);
  });

  it('ends the access and the refresh of every device when the password is reset', async () => {
    const me = await signedInCompany(t);
    const laptop = await device(me.email);
    const phone = await device(me.email);
    for (const d of [laptop, phone]) expect((await requests(me.companyId, d.token)).statusCode).toBe(200);

    await post('/api/auth/forgot-password', { email: me.email, lang: 'en' });
    const mail = await smtp.waitFor(me.email, /Reset your/);
    const token = new URL(mail.links.find((l) => l.includes('/reset-password#access_token='))!).hash.replace('#access_token=', '');
    expect((await post('/api/auth/reset-password', { access_token: token, new_password: 'brand-new-pass' })).statusCode).toBe(200);

    for (const d of [laptop, phone]) {
      const res = await requests(me.companyId, d.token);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ errorKey: 'sessionExpired' });
      expect((await post('/api/auth/refresh', { refresh_token: d.refreshToken })).statusCode).toBe(401);
    }
    // The session the test helper opened before the reset is over too.
    expect((await me.get('/api/auth/me')).statusCode).toBe(401);
    const fresh = await device(me.email, 'brand-new-pass');
    expect((await requests(me.companyId, fresh.token)).statusCode).toBe(200);
  });

  it('refuses the access token of a session whose rotated refresh token was replayed', async () => {
    const me = await signedInCompany(t);
    const victim = await device(me.email);
    const rotated = await post('/api/auth/refresh', { refresh_token: victim.refreshToken });
    const { token } = rotated.json<{ token: string }>();
    expect((await requests(me.companyId, token)).statusCode).toBe(200);
    // A thief replays the stolen, already rotated token: the whole session ends, its access too.
    expect((await post('/api/auth/refresh', { refresh_token: victim.refreshToken })).statusCode).toBe(401);
    expect((await requests(me.companyId, token)).statusCode).toBe(401);
  });

  it('hears a session ended by another process through the change feed', async () => {
    const me = await signedInCompany(t);
    const laptop = await device(me.email);
    expect((await requests(me.companyId, laptop.token)).statusCode).toBe(200);
    expect((await requests(me.companyId, laptop.token)).statusCode).toBe(200);
    // Not through this app: on PostgreSQL on a connection of its own, as another API process or a manual
    // fix would (PGlite has a single connection).
    const revoke = `update refresh_token_families set revoked_at = now(), revoked_reason = 'manual' where user_id = $1 and revoked_at is null`;
    if (t.ctx.database.url) {
      const other = new pg.Client({ connectionString: t.ctx.database.url });
      await other.connect();
      await other.query(revoke, [me.userId]).finally(() => other.end());
    } else {
      await t.ctx.database.executeSql(revoke, [me.userId]);
    }
    await expect.poll(async () => (await requests(me.companyId, laptop.token)).statusCode, { timeout: 5000, interval: 50 }).toBe(401);
  });

  it('still refuses an ended session while the change feed is not listening', async () => {
    const me = await signedInCompany(t);
    const laptop = await device(me.email);
    expect((await requests(me.companyId, laptop.token)).statusCode).toBe(200);
    t.ctx.reads.disconnect();
    try {
      expect((await requests(me.companyId, laptop.token)).statusCode).toBe(200);
      await t.ctx.db.execute(sql`update refresh_token_families set revoked_at = now() where user_id = ${me.userId}`);
      expect((await requests(me.companyId, laptop.token)).statusCode).toBe(401);
    } finally {
      t.ctx.reads.connect();
    }
  });
});
