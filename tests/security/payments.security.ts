/**
 * Free credits through the test-mode checkout (issue 15, item 2), replayed as an outsider would: the
 * pay step posted without anything, with another company's credentials, after a cancel, and against a
 * production process without Stripe keys (the shipped compose file's set-up), where 1 credit became 151.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, payments } from '../../src/server/db/schema.js';
import { signedInCompany } from '../../src/server/test/accounts.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';

const credits = async (t: TestApp, companyId: string) =>
  (await t.ctx.db.select({ credits: companies.credits }).from(companies).where(eq(companies.id, companyId)))[0]!.credits;
const form = { 'content-type': 'application/x-www-form-urlencoded' };

async function openCheckout(t: TestApp, company: Awaited<ReturnType<typeof signedInCompany>>, priceId = 'extra_large') {
  const res = await company.post('/api/payment/checkout-session', { priceId });
  expect(res.statusCode, res.body).toBe(200);
  return { path: new URL(res.json<{ url: string }>().url).pathname, cookie: String(res.headers['set-cookie']).split(';')[0]! };
}

describe('test-mode checkout (development and test installations)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses the pay step posted without the credentials of the company that opened it, crediting nothing', async () => {
    const attacker = await signedInCompany(t);
    const { path } = await openCheckout(t, attacker);
    const before = await credits(t, attacker.companyId);
    for (const headers of [form, {}, { ...form, ...attacker.headers }, { ...form, cookie: 'vr_test_checkout=forged' }]) {
      const res = await t.app.inject({ method: 'POST', url: `${path}/pay`, headers, payload: '' });
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json()).toMatchObject({ code: 'no_permission', error: expect.stringMatching(/another account or in another browser/) });
    }
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode, 'the page itself').toBe(403);
    expect(await credits(t, attacker.companyId)).toBe(before);
  });

  it("refuses another company's credentials on a company's checkout", async () => {
    const victim = await signedInCompany(t);
    const other = await signedInCompany(t);
    const { path } = await openCheckout(t, victim);
    const own = await openCheckout(t, other, 'starter');
    const res = await t.app.inject({ method: 'POST', url: `${path}/pay`, headers: { ...form, ...other.headers, cookie: own.cookie }, payload: '' });
    expect(res.statusCode).toBe(403);
    const cancel = await t.app.inject({ method: 'POST', url: `${path}/cancel`, headers: { ...form, cookie: own.cookie }, payload: '' });
    expect(cancel.statusCode).toBe(403);
    expect(await credits(t, victim.companyId)).toBe(1);
    expect(await credits(t, other.companyId)).toBe(1);
    expect((await t.ctx.db.select().from(payments).where(eq(payments.sessionId, path.split('/').at(-1)!)))[0]!.status).toBe('open');
  });

  it('never pays a cancelled checkout', async () => {
    const me = await signedInCompany(t);
    const { path, cookie } = await openCheckout(t, me);
    expect((await t.app.inject({ method: 'POST', url: `${path}/cancel`, headers: { ...form, cookie }, payload: '' })).statusCode).toBe(303);
    const pay = await Promise.all([0, 1, 2].map(() => t.app.inject({ method: 'POST', url: `${path}/pay`, headers: { ...form, cookie }, payload: '' })));
    expect(pay.map((r) => r.statusCode)).toEqual([409, 409, 409]);
    expect(await credits(t, me.companyId)).toBe(1);
  });

  it('pays once for the browser that opened it', async () => {
    const me = await signedInCompany(t);
    const { path, cookie } = await openCheckout(t, me, 'starter');
    const pay = await t.app.inject({ method: 'POST', url: `${path}/pay`, headers: { ...form, cookie }, payload: '' });
    expect(pay.statusCode).toBe(303);
    expect(await credits(t, me.companyId)).toBe(1 + 5);
  });
});

describe('production without Stripe keys', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { NODE_ENV: 'production', APP_URL: 'https://app.vouchreel.test', JWT_SECRET: randomBytes(32).toString('hex') } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('has no test-mode checkout: the pay step is 404 and credits are unchanged', async () => {
    const me = await signedInCompany(t);
    // A test session as the attack opened it (or as an earlier development run left it in the database).
    const sessionId = `test_cs_${randomBytes(16).toString('hex')}`;
    await t.ctx.db.insert(payments).values({
      companyId: me.companyId,
      provider: 'test',
      sessionId,
      packageId: 'extra_large',
      priceId: 'test_price_extra_large',
      credits: 150,
      amountTotal: 90000,
      currency: 'eur',
    });
    for (const action of ['pay', 'cancel']) {
      const res = await t.app.inject({ method: 'POST', url: `/api/payment/test-checkout/${sessionId}/${action}`, headers: { ...form, ...me.headers }, payload: '' });
      expect(res.statusCode, action).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
    expect((await t.app.inject({ method: 'GET', url: `/api/payment/test-checkout/${sessionId}` })).statusCode).toBe(404);
    expect(t.app.routeTable.some((r) => r.url.includes('test-checkout'))).toBe(false);
    // Nor can the success return turn that row into credits.
    expect((await me.post('/api/payment/confirm-session', { sessionId })).statusCode).toBe(400);
    expect(await credits(t, me.companyId)).toBe(1);
  });

  it('answers a checkout with payments_disabled, and tells the web app purchases are off', async () => {
    const me = await signedInCompany(t);
    const res = await me.post('/api/payment/checkout-session', { priceId: 'extra_large' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'payments_disabled', error: expect.stringMatching(/not available on this installation/) });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect((await t.app.inject({ method: 'GET', url: '/api/public/app-config' })).json()).toMatchObject({ payments: 'disabled' });
    expect(await t.ctx.db.select().from(payments).where(eq(payments.companyId, me.companyId))).toEqual([]);
  });
});
