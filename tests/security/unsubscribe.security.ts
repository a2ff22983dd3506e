/**
 * Unsubscribing and the reminder setting (issue 30), attacked: the unsubscribe token names one request
 * and only our secret makes it; forged, tampered or other-secret tokens open nothing, change nothing and
 * count as misses of their address (429 past the limit); the RFC 8058 one-click POST works without any
 * cookie and is idempotent; a company reads and writes its own reminder setting only; the development
 * sweep route is loopback-only and absent in production.
 */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailUnsubscribes, requestEvents } from '../../src/server/db/schema.js';
import { PUBLIC_MISS_POLICY } from '../../src/server/modules/publications/public-misses.js';
import { unsubscribeToken } from '../../src/server/modules/reminders/unsubscribe-link.js';
import { signedInCompany } from '../../src/server/test/accounts.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';

describe('unsubscribe links', () => {
  let t: TestApp;
  let requestId: string;
  let companyId: string;

  const oneClick = (token: string, remoteAddress = '10.70.0.1', headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/unsubscribe/${token}`,
      remoteAddress,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: 'List-Unsubscribe=One-Click',
    });

  beforeAll(async () => {
    t = await createTestApp({ env: { NODE_ENV: 'development' } });
    const me = await signedInCompany(t);
    companyId = me.companyId;
    const q = (await me.post('/api/questions/add', { company_id: me.companyId, text: 'Why?', order_position: 1 })).json().id;
    const sent = await me.post('/api/testimonials/request', { customer_email: 'Target@Client.test', customer_name: 'T', question_ids: [q], language: 'english' });
    requestId = sent.json().testimonial.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses forged, tampered and other-secret tokens without changing anything', async () => {
    const good = unsubscribeToken(t.ctx.secrets.jwt, requestId);
    const [id, proof] = good.split('.') as [string, string];
    const forged = [
      unsubscribeToken('a-different-secret-that-is-long-enough-32', requestId),
      `${id}.${proof.slice(0, -1)}${proof.endsWith('A') ? 'B' : 'A'}`,
      `${id.slice(0, -1)}${id.endsWith('A') ? 'B' : 'A'}.${proof}`,
      `${id}.`,
      `.${proof}`,
      'x'.repeat(45),
      `${good}.${proof}`,
      encodeURIComponent(`${id}.${proof}'--`),
    ];
    for (const token of forged) {
      const page = await t.app.inject({ method: 'GET', url: `/unsubscribe/${token}`, remoteAddress: '10.70.0.2' });
      expect(page.statusCode, token).toBe(404);
      expect(page.body).not.toContain('client.test');
      expect((await oneClick(token, '10.70.0.2')).statusCode, token).toBe(404);
    }
    expect(await t.ctx.db.select().from(emailUnsubscribes).where(eq(emailUnsubscribes.companyId, companyId))).toEqual([]);
  });

  it('slows down an address that keeps trying tokens, not the holder of a real one', async () => {
    const address = '10.70.0.3';
    let last = 0;
    for (let i = 0; i <= PUBLIC_MISS_POLICY.freePerMinute; i += 1) {
      last = (await t.app.inject({ method: 'GET', url: `/unsubscribe/${'A'.repeat(22)}.${String(i).padStart(22, 'B')}`, remoteAddress: address })).statusCode;
    }
    expect(last).toBe(429);
    const page = await t.app.inject({ method: 'GET', url: `/unsubscribe/${unsubscribeToken(t.ctx.secrets.jwt, requestId)}`, remoteAddress: '10.70.0.4' });
    expect(page.statusCode).toBe(200);
  });

  it('one-click POST works without cookies, sets none, and is idempotent', async () => {
    const token = unsubscribeToken(t.ctx.secrets.jwt, requestId);
    const first = await oneClick(token, '10.70.0.5', { origin: 'https://mail.example.com', 'sec-fetch-site': 'cross-site' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['set-cookie']).toBeUndefined();
    expect(first.headers['cache-control']).toBe('no-store');
    const second = await oneClick(token, '10.70.0.6');
    expect(second.statusCode).toBe(200);
    // Multipart/form-data, the other encoding RFC 8058 allows, is accepted too.
    const boundary = 'x-boundary';
    const multipart = await t.app.inject({
      method: 'POST',
      url: `/unsubscribe/${token}`,
      remoteAddress: '10.70.0.7',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
    });
    expect(multipart.statusCode).toBe(200);
    expect(await t.ctx.db.select().from(emailUnsubscribes).where(eq(emailUnsubscribes.companyId, companyId))).toEqual([expect.objectContaining({ email: 'target@client.test' })]);
    const events = await t.ctx.db.select().from(requestEvents).where(and(eq(requestEvents.requestId, requestId), eq(requestEvents.kind, 'unsubscribed')));
    expect(events).toHaveLength(1);
  });

  it('keeps the development sweep to this machine', async () => {
    for (const remoteAddress of ['192.168.1.23', '10.0.0.7', '::ffff:192.168.1.23']) {
      const res = await t.app.inject({ method: 'POST', url: '/dev/reminders/run', remoteAddress, payload: { now: new Date().toISOString() } });
      expect(res.statusCode, remoteAddress).toBe(404);
    }
    const local = await t.app.inject({ method: 'POST', url: '/dev/reminders/run', remoteAddress: '127.0.0.1', payload: { now: new Date().toISOString() } });
    expect(local.statusCode, local.body).toBe(200);
  });
});

describe('the reminder setting', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is read and written for the caller company only; anonymous callers get 401', async () => {
    const victim = await signedInCompany(t);
    const attacker = await signedInCompany(t);
    expect((await victim.put('/api/user/reminder-settings', { reminder_days: [5], time_zone: 'Europe/London' })).statusCode).toBe(200);
    // The attacker's calls (even naming the victim's company) change and show only the attacker's own.
    const put = await attacker.put(`/api/user/reminder-settings?company_id=${victim.companyId}`, { reminder_days: [], time_zone: 'UTC', company_id: victim.companyId } as object);
    expect(put.statusCode).toBe(200);
    expect((await victim.get('/api/user/reminder-settings')).json()).toEqual({ reminder_days: [5], time_zone: 'Europe/London' });
    expect((await attacker.get(`/api/user/reminder-settings?company_id=${victim.companyId}`)).json()).toEqual({ reminder_days: [], time_zone: 'UTC' });
    for (const method of ['GET', 'PUT'] as const) {
      const anonymous = await t.app.inject({ method, url: '/api/user/reminder-settings', ...(method === 'PUT' ? { payload: { reminder_days: [], time_zone: 'UTC' } } : {}) });
      expect(anonymous.statusCode).toBe(401);
    }
  });

  it('is not in a production server: no development sweep route', async () => {
    const prod = await createTestApp({ env: { NODE_ENV: 'production', APP_URL: 'https://app.vouchreel.test', JWT_SECRET: randomBytes(32).toString('hex') } });
    try {
      const res = await prod.app.inject({ method: 'POST', url: '/dev/reminders/run', remoteAddress: '127.0.0.1', payload: { now: new Date().toISOString() } });
      expect(res.statusCode).toBe(404);
    } finally {
      await prod.close();
    }
  });
});
