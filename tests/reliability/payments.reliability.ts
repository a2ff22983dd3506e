import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip } from '../../src/server/test/clips.js';
import { startStripeStandIn } from '../../src/server/test/stripe-stand-in.js';
import {
  addQuestions,
  cleanUp,
  scratchDatabase,
  sendRequest,
  signUpCompany,
  startServer,
  submitAnswers,
  tempDir,
  type ScratchDatabase,
  type SentRequest,
  type ServerProcess,
} from './support.js';

const WEBHOOK_SECRET = 'whsec_reliability_suite_secret';
const PRICES = { starter: 'price_starter', small: 'price_small', medium: 'price_medium', large: 'price_large', extra_large: 'price_xl' };

/**
 * Money under duplicates and races, on two API processes sharing one PostgreSQL database: Stripe
 * delivers the same 'checkout.session.completed' five times (three at once, to both processes, racing
 * the customer's success return; then twice more), and twenty pay-to-view calls arrive at once for
 * eight testimonials with six credits. Balances and the ledger come out exact.
 */
describe('a Stripe event delivered five times and twenty concurrent pay-to-view calls', () => {
  let scratch: ScratchDatabase;
  let stripe: Awaited<ReturnType<typeof startStripeStandIn>>;
  const procs: ServerProcess[] = [];
  const signer = new Stripe('sk_test_reliability_signer');

  beforeAll(async () => {
    scratch = await scratchDatabase();
    stripe = await startStripeStandIn({ price_starter: 7500, price_small: 12000, price_medium: 25000, price_large: 40000, price_xl: 90000 });
  });

  afterAll(async () => {
    await cleanUp(procs);
    await scratch?.drop();
    await stripe?.close();
  });

  const deliver = (api: ServerProcess, event: object) => {
    const payload = JSON.stringify(event);
    return fetch(`${api.url}/api/payment/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) },
      body: payload,
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as unknown }));
  };
  const one = async <T extends object>(sql: string, values: unknown[] = []) => (await scratch.db.query<T>(sql, values)).rows;

  it('credits the package once and charges exactly one credit per unlocked testimonial', async () => {
    const dataDir = await tempDir('payments-data');
    const env = {
      TRUST_PROXY: '1',
      STRIPE_SECRET_KEY: 'sk_test_reliability',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
      STRIPE_PRICE_STARTER: PRICES.starter,
      STRIPE_PRICE_SMALL: PRICES.small,
      STRIPE_PRICE_MEDIUM: PRICES.medium,
      STRIPE_PRICE_LARGE: PRICES.large,
      STRIPE_PRICE_EXTRA_LARGE: PRICES.extra_large,
    };
    // Two API processes behind one address (shared DATA_DIR: the media of one machine).
    const apis = [await startServer({ role: 'api', databaseUrl: scratch.url, dataDir, env }), await startServer({ role: 'api', databaseUrl: scratch.url, dataDir, env })];
    procs.push(...apis);
    const [a, b] = apis as [ServerProcess, ServerProcess];

    // Eight recorded testimonials; the welcome credit.
    const me = await signUpCompany(a, scratch.db);
    const [q] = await addQuestions(a, me, ['What changed for you?']);
    const clip = await makeClip({ format: 'webm', seconds: 1, tone: 440 });
    const requests: SentRequest[] = [];
    for (let i = 0; i < 8; i++) {
      const request = await sendRequest(a, me, scratch.db, [q!], `Customer ${i}`);
      await submitAnswers(apis[i % 2]!, request, [clip], `10.2.${i}.1`);
      requests.push(request);
    }
    expect(await one('select credits from companies where id = $1', [me.companyId])).toEqual([{ credits: 1 }]);

    // The Starter package (5 credits) bought in Checkout and paid.
    const checkout = await me.call(a, 'POST', '/api/payment/checkout-session', { priceId: 'starter' });
    expect(checkout.status).toBe(200);
    const sessionId = String(checkout.body.url).split('/').at(-1)!;
    stripe.pay(sessionId);
    const event = {
      id: 'evt_reliability_checkout_completed',
      object: 'event',
      type: 'checkout.session.completed',
      api_version: '2025-01-01',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object: { id: sessionId, object: 'checkout.session' } },
    };

    // Delivered three times at once to both processes while the customer's page confirms the session,
    // then twice more later (Stripe retries until it sees a 2xx).
    const [first, second, third, confirmed] = await Promise.all([
      deliver(a, event),
      deliver(b, event),
      deliver(a, event),
      me.call(b, 'POST', '/api/payment/confirm-session', { sessionId }),
    ]);
    for (const delivery of [first, second, third]) expect(delivery).toEqual({ status: 200, body: { received: true } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.paid).toBe(true);
    expect(await deliver(b, event)).toEqual({ status: 200, body: { received: true } });
    expect(await deliver(a, event)).toEqual({ status: 200, body: { received: true } });

    expect(await one('select credits from companies where id = $1', [me.companyId])).toEqual([{ credits: 6 }]);
    expect(await one(`select credits, amount from credit_transactions where company_id = $1 and transaction_type = 'credit_purchase'`, [me.companyId])).toEqual([
      { credits: 5, amount: 7500 },
    ]);
    expect(await one('select status, credits from payments where session_id = $1', [sessionId])).toEqual([{ status: 'paid', credits: 5 }]);

    // Twenty pay-to-view calls at once for eight testimonials (two or three each), on both processes.
    const calls = Array.from({ length: 20 }, (_, i) => ({ request: requests[i % 8]!, api: apis[i % 2]! }));
    const answers = await Promise.all(calls.map(({ request, api }) => me.call(api, 'POST', `/api/testimonials/pay/${request.id}`)));
    expect(answers.every((r) => r.status === 200 || r.status === 402)).toBe(true);

    // Six credits: exactly six testimonials unlocked, each charged once; the other two refused every time.
    const paid = (await one<{ id: string }>('select id from testimonial_requests where company_id = $1 and paid', [me.companyId])).map((r) => r.id);
    expect(paid).toHaveLength(6);
    const ledger = await one<{ request_id: string; credits: number }>(
      `select request_id, credits from credit_transactions where company_id = $1 and transaction_type = 'testimonial_payment'`,
      [me.companyId],
    );
    expect(ledger.map((l) => l.request_id).sort()).toEqual([...paid].sort());
    expect(ledger.every((l) => l.credits === -1)).toBe(true);
    expect(await one('select credits from companies where id = $1', [me.companyId])).toEqual([{ credits: 0 }]);
    for (const [i, { request }] of calls.entries()) {
      expect(answers[i]!.status, `${request.id}: ${JSON.stringify(answers[i]!.body)}`).toBe(paid.includes(request.id) ? 200 : 402);
    }
    for (const refused of answers.filter((r) => r.status === 402)) expect(refused.body).toMatchObject({ code: 'invalid_data' });
    // The balance is the ledger's sum: the welcome credit, the package, the six unlocks.
    expect(await one(`select sum(credits)::int total from credit_transactions where company_id = $1`, [me.companyId])).toEqual([{ total: 0 }]);

    for (const api of apis) expect(await api.stop()).toBe(0);
  });
});
