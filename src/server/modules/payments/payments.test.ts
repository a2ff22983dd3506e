import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, creditTransactions } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { startStripeStandIn } from '../../test/stripe-stand-in.js';

/** The cookie the checkout call set for the test page: what the browser that opened it sends back. */
const checkoutCookie = (res: { headers: Record<string, unknown> }) => String(res.headers['set-cookie']).split(';')[0]!;

const credits = async (t: TestApp, companyId: string) =>
  (await t.ctx.db.select({ credits: companies.credits }).from(companies).where(eq(companies.id, companyId)))[0]?.credits;

describe('test-mode checkout (no Stripe keys)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('opens a labelled test page whose Pay button credits the package once and returns to the success page', async () => {
    const me = await signedInCompany(t);
    const res = await me.post('/api/payment/checkout-session', { priceId: 'medium' });
    expect(res.statusCode, res.body).toBe(200);
    const url = new URL(res.json().url);
    expect(url.pathname).toMatch(/^\/api\/payment\/test-checkout\/test_cs_/);
    // Bound to this browser and this page only, out of reach of scripts and of other sites.
    expect(String(res.headers['set-cookie'])).toMatch(new RegExp(`^vr_test_checkout=[\\w-]+; Path=${url.pathname}; Max-Age=3600; HttpOnly; SameSite=Strict$`));
    const cookie = checkoutCookie(res);
    const form = { 'content-type': 'application/x-www-form-urlencoded', cookie };

    const page = await t.app.inject({ method: 'GET', url: url.pathname, headers: { cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('TEST MODE');
    expect(page.body).toContain('€250');
    // A page, though under /api/: the document policy (its own styles), not the API's closed one.
    expect(page.headers['content-security-policy']).toContain("style-src 'self' 'unsafe-inline'");
    expect(res.headers['content-security-policy']).toBe("default-src 'none';object-src 'none';frame-ancestors 'none'");

    const pay = await t.app.inject({ method: 'POST', url: `${url.pathname}/pay`, headers: form, payload: '' });
    expect(pay.statusCode).toBe(303);
    expect(pay.headers.location).toMatch(/^http:\/\/app\.test\/dashboard\/payment\?success=true&session_id=test_cs_/);
    expect(await credits(t, me.companyId)).toBe(26);

    // Pressing Pay again, or confirming from the success page, credits nothing more.
    expect((await t.app.inject({ method: 'POST', url: `${url.pathname}/pay`, headers: form, payload: '' })).statusCode).toBe(303);
    const sessionId = url.pathname.split('/').at(-1)!;
    expect((await me.post('/api/payment/confirm-session', { sessionId })).json()).toEqual({ paid: true, credits: 26 });
    expect(await credits(t, me.companyId)).toBe(26);
    const ledger = (await me.get('/api/payment/list-transaction')).json();
    expect(ledger.find((x: { transaction_type: string }) => x.transaction_type === 'credit_purchase')).toMatchObject({ amount: 25000, currency: 'eur' });

    const other = await signedInCompany(t);
    expect((await other.post('/api/payment/confirm-session', { sessionId })).statusCode).toBe(404);
  });

  it('cancels without crediting, and refuses an unknown package', async () => {
    const me = await signedInCompany(t);
    const created = await me.post('/api/payment/checkout-session', { priceId: 'starter' });
    const path = new URL(created.json().url).pathname;
    const headers = { 'content-type': 'application/x-www-form-urlencoded', cookie: checkoutCookie(created) };
    const cancel = await t.app.inject({ method: 'POST', url: `${path}/cancel`, headers, payload: '' });
    expect(cancel.headers.location).toBe('http://app.test/dashboard/payment?cancel=true');
    expect(await credits(t, me.companyId)).toBe(1);
    // The page's Pay button after Cancel (the back button): a page saying so, and still no credits.
    const late = await t.app.inject({ method: 'POST', url: `${path}/pay`, headers: { ...headers, accept: 'text/html' }, payload: '' });
    expect(late.statusCode).toBe(409);
    expect(late.body).toContain('was cancelled');
    // The same refusal for a client that asks for JSON: the conflict code and its reason.
    const lateJson = await t.app.inject({ method: 'POST', url: `${path}/pay`, headers, payload: '' });
    expect(lateJson.statusCode).toBe(409);
    expect(lateJson.json()).toMatchObject({ code: 'conflict', reason: 'checkout_closed', error: expect.stringMatching(/cancelled or has expired/) });
    expect(await credits(t, me.companyId)).toBe(1);
    const unknown = await me.post('/api/payment/checkout-session', { priceId: 'price_gold' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe('invalid_data');
  });
});

describe('Stripe Checkout against a local stand-in answering in Stripe shapes', () => {
  let t: TestApp;
  let stripe: Awaited<ReturnType<typeof startStripeStandIn>>;
  const webhookSecret = 'whsec_test_secret_for_vouchreel';
  const prices = { starter: 'price_starter', small: 'price_small', medium: 'price_medium', large: 'price_large', extra_large: 'price_xl' };
  const signer = new Stripe('sk_test_signer');

  beforeAll(async () => {
    stripe = await startStripeStandIn({ price_starter: 7500, price_small: 12000, price_medium: 25000, price_large: 40000, price_xl: 90000 });
    t = await createTestApp({
      env: {
        STRIPE_SECRET_KEY: 'sk_test_vouchreel',
        STRIPE_WEBHOOK_SECRET: webhookSecret,
        STRIPE_API_URL: stripe.url,
        STRIPE_PRICE_STARTER: prices.starter,
        STRIPE_PRICE_SMALL: prices.small,
        STRIPE_PRICE_MEDIUM: prices.medium,
        STRIPE_PRICE_LARGE: prices.large,
        STRIPE_PRICE_EXTRA_LARGE: prices.extra_large,
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  const webhook = (event: object, secret = webhookSecret) => {
    const payload = JSON.stringify(event);
    const header = signer.webhooks.generateTestHeaderString({ payload, secret });
    return t.app.inject({ method: 'POST', url: '/api/payment/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': header }, payload });
  };
  const completedEvent = (sessionId: string, type = 'checkout.session.completed') => ({
    id: `evt_${Math.random().toString(36).slice(2)}`,
    object: 'event',
    type,
    api_version: '2025-01-01',
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: sessionId, object: 'checkout.session' } },
  });

  async function startCheckout(priceId = 'medium') {
    const me = await signedInCompany(t);
    const res = await me.post('/api/payment/checkout-session', { priceId });
    expect(res.statusCode, res.body).toBe(200);
    const created = stripe.requests.at(-1)!;
    expect(created.path).toBe('/v1/checkout/sessions');
    expect(created.auth).toBe('Bearer sk_test_vouchreel');
    expect(created.body.get('mode')).toBe('payment');
    expect(created.body.get('client_reference_id')).toBe(me.companyId);
    expect(created.body.get('metadata[companyId]')).toBe(me.companyId);
    expect(created.body.get('success_url')).toBe('http://app.test/dashboard/payment?success=true&session_id={CHECKOUT_SESSION_ID}');
    expect(created.body.get('cancel_url')).toBe('http://app.test/dashboard/payment?cancel=true');
    const sessionId = [...stripe.sessions.keys()].at(-1)!;
    expect(res.json().url).toBe(`https://checkout.stripe.test/c/pay/${sessionId}`);
    return { me, sessionId };
  }

  it('creates a Checkout session for the configured price of the package', async () => {
    await startCheckout('large');
    expect(stripe.requests.at(-1)!.body.get('line_items[0][price]')).toBe('price_large');
  });

  it('credits a paid session once from a signed webhook, even when the event is replayed', async () => {
    const { me, sessionId } = await startCheckout('medium');
    stripe.pay(sessionId);
    const event = completedEvent(sessionId);
    for (let i = 0; i < 3; i++) {
      const res = await webhook(event);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ received: true });
    }
    expect(await credits(t, me.companyId)).toBe(26);
    const purchases = await t.ctx.db.select().from(creditTransactions).where(eq(creditTransactions.companyId, me.companyId));
    expect(purchases.filter((p) => p.transactionType === 'credit_purchase')).toMatchObject([{ credits: 25, amount: 25000, currency: 'eur' }]);
  });

  it('refuses a bad signature and credits nothing', async () => {
    const { me, sessionId } = await startCheckout('small');
    stripe.pay(sessionId);
    const res = await webhook(completedEvent(sessionId), 'whsec_wrong_secret');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_data', error: 'Invalid Stripe signature.' });
    const unsigned = await t.app.inject({ method: 'POST', url: '/api/payment/webhook', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(completedEvent(sessionId)) });
    expect(unsigned.statusCode).toBe(400);
    expect(await credits(t, me.companyId)).toBe(1);
  });

  it('ignores a completed event for an unpaid session and other event types, then credits on async_payment_succeeded', async () => {
    const { me, sessionId } = await startCheckout('starter');
    expect((await webhook(completedEvent(sessionId))).statusCode).toBe(200);
    expect((await webhook({ ...completedEvent(sessionId), type: 'customer.created', data: { object: { id: 'cus_1', object: 'customer' } } })).statusCode).toBe(200);
    expect(await credits(t, me.companyId)).toBe(1);
    stripe.pay(sessionId);
    expect((await webhook(completedEvent(sessionId, 'checkout.session.async_payment_succeeded'))).statusCode).toBe(200);
    expect(await credits(t, me.companyId)).toBe(6);
  });

  it('credits once when the webhook and the success return race for the same session', async () => {
    const { me, sessionId } = await startCheckout('extra_large');
    stripe.pay(sessionId);
    const results = await Promise.all([
      webhook(completedEvent(sessionId)),
      me.post('/api/payment/confirm-session', { sessionId }),
      webhook(completedEvent(sessionId)),
      me.post('/api/payment/confirm-session', { sessionId }),
    ]);
    for (const r of results) expect(r.statusCode, r.body).toBe(200);
    expect(await credits(t, me.companyId)).toBe(151);
  });

  it('answers unpaid from the success return before the payment completes', async () => {
    const { me, sessionId } = await startCheckout('small');
    expect((await me.post('/api/payment/confirm-session', { sessionId })).json()).toEqual({ paid: false, credits: 1 });
  });
});
