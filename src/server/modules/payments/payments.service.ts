import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import { findCreditPackage } from '../../../contract/api/payment.schema.js';
import { CURRENCY } from '../../../contract/constants.js';
import type { AppContext } from '../../context.js';
import { companies, creditTransactions, payments } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { randomToken } from '../auth/tokens.js';

/**
 * Credit packages sold through Stripe Checkout, fulfilled as Stripe documents it: one idempotent
 * `fulfilCheckout` called from the webhook and from the success return, which reads the session
 * (with its line items) and checks the payment status. A session credits the company at most once:
 * the ledger's unique `payment_id` decides, not a check-then-insert. Without Stripe keys, a test mode
 * of ours stands in for Checkout and goes through the same fulfilment, outside production only: a
 * production process without Stripe sells nothing (`config.payments === 'disabled'`).
 */

let stripeClient: { key: string; client: Stripe } | undefined;
/** Stripe's client, loaded on first use: its library is not read at start-up (decision 181). */
export async function stripeFor(ctx: AppContext): Promise<Stripe | undefined> {
  const cfg = ctx.config.stripe;
  if (!cfg) return undefined;
  const cacheKey = `${cfg.secretKey}|${cfg.apiUrl ?? ''}`;
  if (stripeClient?.key !== cacheKey) {
    const api = cfg.apiUrl ? new URL(cfg.apiUrl) : undefined;
    const { default: StripeClient } = await import('stripe');
    stripeClient = {
      key: cacheKey,
      client: new StripeClient(cfg.secretKey, {
        maxNetworkRetries: 2,
        timeout: 20_000,
        ...(api ? { host: api.hostname, port: Number(api.port || (api.protocol === 'https:' ? 443 : 80)), protocol: api.protocol.replace(':', '') as 'http' | 'https' } : {}),
      }),
    };
  }
  return stripeClient.client;
}

const successUrl = (ctx: AppContext) => `${ctx.config.appUrl}/dashboard/payment?success=true&session_id={CHECKOUT_SESSION_ID}`;
const cancelUrl = (ctx: AppContext) => `${ctx.config.appUrl}/dashboard/payment?cancel=true`;
export const TEST_CHECKOUT_PREFIX = '/api/payment/test-checkout/';

/**
 * The proof that a browser opened a test checkout for its company: set as a cookie by the signed-in
 * call that created the checkout, and required by the test page and its buttons. It names the session
 * and the company, keyed by the signing secret, so it proves nothing for another session or company.
 */
export const TEST_CHECKOUT_COOKIE = 'vr_test_checkout';
export function testCheckoutProof(ctx: AppContext, sessionId: string, companyId: string): string {
  return createHmac('sha256', ctx.secrets.jwt).update(`test-checkout\n${sessionId}\n${companyId}`).digest('base64url');
}
function isProofFor(ctx: AppContext, proof: string | undefined, sessionId: string, companyId: string): boolean {
  if (!proof) return false;
  const expected = Buffer.from(testCheckoutProof(ctx, sessionId, companyId));
  const given = Buffer.from(proof);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export const paymentsDisabled = () =>
  new AppError('payments_disabled', {
    message: 'Purchases are not available on this installation: card payments are not set up. Contact support to get credits.',
  });

export async function createCheckoutSession(
  ctx: AppContext,
  input: { companyId: string; priceId: string; email?: string },
): Promise<{ url: string; testSessionId?: string }> {
  if (ctx.config.payments === 'disabled') throw paymentsDisabled();
  const pkg = findCreditPackage(input.priceId);
  if (!pkg) throw new AppError('invalid_data', { message: 'Unknown credit package.', field: 'priceId' });
  const stripe = await stripeFor(ctx);
  const amountTotal = pkg.totalPrice * 100;

  if (!stripe) {
    const sessionId = `test_cs_${randomToken()}`;
    await ctx.db.insert(payments).values({
      companyId: input.companyId,
      provider: 'test',
      sessionId,
      packageId: pkg.id,
      priceId: `test_price_${pkg.id}`,
      credits: pkg.credits,
      amountTotal,
      currency: CURRENCY,
    });
    return { url: `${ctx.config.appUrl}${TEST_CHECKOUT_PREFIX}${sessionId}`, testSessionId: sessionId };
  }

  const price = ctx.config.stripe!.prices[pkg.id];
  const session = await stripe.checkout.sessions.create({
    mode: 'payment',
    line_items: [{ price, quantity: 1 }],
    client_reference_id: input.companyId,
    metadata: { companyId: input.companyId, packageId: pkg.id },
    ...(input.email ? { customer_email: input.email } : {}),
    success_url: successUrl(ctx),
    cancel_url: cancelUrl(ctx),
  });
  if (!session.url) throw new AppError('server_error', { message: 'The payment page could not be opened. Please try again.' });
  await ctx.db
    .insert(payments)
    .values({
      companyId: input.companyId,
      sessionId: session.id,
      packageId: pkg.id,
      priceId: price,
      credits: pkg.credits,
      amountTotal: session.amount_total ?? amountTotal,
      currency: session.currency ?? CURRENCY,
    })
    .onConflictDoNothing({ target: payments.sessionId });
  return { url: session.url };
}

/**
 * Credits the package of a paid session, once. Safe to call any number of times, in any order, from
 * the webhook, the success return or the test page. Returns whether the session is paid.
 */
export async function fulfilCheckout(ctx: AppContext, sessionId: string): Promise<{ paid: boolean; companyId: string | null }> {
  const stripe = await stripeFor(ctx);
  const [existing] = await ctx.db.select().from(payments).where(eq(payments.sessionId, sessionId)).limit(1);

  if (existing?.provider === 'test') {
    if (ctx.config.payments !== 'test') throw new AppError('invalid_data', { message: 'Test payments are disabled on this installation.' });
    if (existing.status !== 'paid') return { paid: false, companyId: existing.companyId };
  } else {
    if (!stripe) throw ctx.config.payments === 'disabled' ? paymentsDisabled() : new AppError('invalid_data', { message: 'Stripe is not configured.' });
    const session = await stripe.checkout.sessions.retrieve(sessionId, { expand: ['line_items'] });
    if (session.payment_status !== 'paid' && session.payment_status !== 'no_payment_required') {
      return { paid: false, companyId: existing?.companyId ?? session.client_reference_id ?? null };
    }
    const packageId = existing?.packageId ?? session.metadata?.packageId ?? '';
    const pkg = findCreditPackage(packageId);
    const companyId = existing?.companyId ?? session.client_reference_id ?? session.metadata?.companyId ?? null;
    if (!pkg || !companyId) {
      ctx.logger.error({ sessionId }, 'paid Checkout session without a known company or package');
      return { paid: true, companyId };
    }
    const expectedPrice = ctx.config.stripe!.prices[pkg.id];
    const bought = session.line_items?.data.some((item) => item.price?.id === expectedPrice);
    if (session.line_items && !bought) {
      ctx.logger.error({ sessionId, packageId }, 'Checkout session line items do not match the package');
      return { paid: true, companyId };
    }
    await ctx.db
      .insert(payments)
      .values({
        companyId,
        sessionId,
        packageId: pkg.id,
        priceId: expectedPrice,
        credits: pkg.credits,
        amountTotal: session.amount_total ?? pkg.totalPrice * 100,
        currency: session.currency ?? CURRENCY,
      })
      .onConflictDoNothing({ target: payments.sessionId });
    await ctx.db.update(payments).set({ status: 'paid', updatedAt: new Date() }).where(eq(payments.sessionId, sessionId));
  }

  const [payment] = await ctx.db.select().from(payments).where(eq(payments.sessionId, sessionId)).limit(1);
  if (!payment) return { paid: false, companyId: null };
  await ctx.db.transaction(async (tx) => {
    const [entry] = await tx
      .insert(creditTransactions)
      .values({
        companyId: payment.companyId,
        transactionType: 'credit_purchase',
        credits: payment.credits,
        amount: payment.amountTotal,
        currency: payment.currency,
        paymentId: payment.id,
      })
      .onConflictDoNothing({ target: creditTransactions.paymentId })
      .returning({ id: creditTransactions.id });
    if (!entry) return; // already credited
    await tx
      .update(companies)
      .set({ credits: sql`${companies.credits} + ${payment.credits}`, updatedAt: new Date() })
      .where(eq(companies.id, payment.companyId));
    await tx.update(payments).set({ status: 'paid', fulfilledAt: new Date(), updatedAt: new Date() }).where(eq(payments.id, payment.id));
  });
  return { paid: true, companyId: payment.companyId };
}

/** The success return: fulfils the caller's own session and answers the new balance. */
export async function confirmSession(ctx: AppContext, input: { companyId: string; sessionId: string }) {
  const [payment] = await ctx.db.select().from(payments).where(eq(payments.sessionId, input.sessionId)).limit(1);
  if (payment && payment.companyId !== input.companyId) throw new AppError('not_found', { message: 'No such payment.' });
  if (!payment && !(await stripeFor(ctx))) throw new AppError('not_found', { message: 'No such payment.' });
  const result = await fulfilCheckout(ctx, input.sessionId);
  if (result.companyId !== input.companyId) throw new AppError('not_found', { message: 'No such payment.' });
  const [company] = await ctx.db.select({ credits: companies.credits }).from(companies).where(eq(companies.id, input.companyId));
  return { paid: result.paid, credits: company?.credits ?? 0 };
}

/** Verifies a webhook on its raw body and fulfils the events that mean money arrived. */
export async function handleWebhook(ctx: AppContext, input: { rawBody: Buffer; signature: string | undefined }): Promise<void> {
  const stripe = await stripeFor(ctx);
  const secret = ctx.config.stripe?.webhookSecret;
  if (!stripe || !secret) throw new AppError('not_found', { message: 'Stripe webhooks are not configured.' });
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(input.rawBody, input.signature ?? '', secret);
  } catch {
    throw new AppError('invalid_data', { message: 'Invalid Stripe signature.' });
  }
  if (event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded') {
    await fulfilCheckout(ctx, event.data.object.id);
  } else if (event.type === 'checkout.session.expired' || event.type === 'checkout.session.async_payment_failed') {
    await ctx.db
      .update(payments)
      .set({ status: event.type === 'checkout.session.expired' ? 'expired' : 'failed', updatedAt: new Date() })
      .where(and(eq(payments.sessionId, event.data.object.id), sql`${payments.status} <> 'paid'`));
  }
}

export const notYourTestCheckout = () =>
  new AppError('no_permission', {
    message: 'This test payment was opened by another account or in another browser. Start the purchase again from your dashboard.',
  });
export const closedTestCheckout = () =>
  new AppError('conflict', { reason: 'checkout_closed' });

/**
 * The test-mode page's buttons, for the browser that opened the checkout (its proof cookie): Pay moves
 * an open session to paid and fulfils it; Cancel closes an open one. Only an open session can be paid,
 * in one conditional update, so a cancelled (or expired) checkout stays unpaid whatever is replayed.
 */
export async function finishTestCheckout(
  ctx: AppContext,
  input: { sessionId: string; action: 'pay' | 'cancel'; proof: string | undefined },
): Promise<string> {
  if (ctx.config.payments !== 'test') throw new AppError('not_found', { message: 'No such test payment.' });
  const [payment] = await ctx.db.select().from(payments).where(eq(payments.sessionId, input.sessionId)).limit(1);
  if (!payment || payment.provider !== 'test') throw new AppError('not_found', { message: 'No such test payment.' });
  if (!isProofFor(ctx, input.proof, payment.sessionId, payment.companyId)) throw notYourTestCheckout();
  if (input.action === 'cancel') {
    await ctx.db.update(payments).set({ status: 'canceled', updatedAt: new Date() }).where(and(eq(payments.id, payment.id), eq(payments.status, 'open')));
    return cancelUrl(ctx);
  }
  const [opened] = await ctx.db
    .update(payments)
    .set({ status: 'paid', updatedAt: new Date() })
    .where(and(eq(payments.id, payment.id), eq(payments.status, 'open')))
    .returning({ id: payments.id });
  if (!opened) {
    // Pressed twice: the first press paid it, and the second only returns to the success page.
    const [now] = await ctx.db.select({ status: payments.status }).from(payments).where(eq(payments.id, payment.id));
    if (now?.status !== 'paid') throw closedTestCheckout();
  }
  await fulfilCheckout(ctx, input.sessionId);
  return successUrl(ctx).replace('{CHECKOUT_SESSION_ID}', encodeURIComponent(input.sessionId));
}

/** The test page's session, shown only to the browser that opened it (its proof cookie). */
export async function getTestCheckout(ctx: AppContext, sessionId: string, proof: string | undefined) {
  if (ctx.config.payments !== 'test') return { found: 'none' as const };
  const [payment] = await ctx.db.select().from(payments).where(eq(payments.sessionId, sessionId)).limit(1);
  if (!payment || payment.provider !== 'test') return { found: 'none' as const };
  if (!isProofFor(ctx, proof, payment.sessionId, payment.companyId)) return { found: 'not_yours' as const };
  const [company] = await ctx.db.select({ name: companies.name }).from(companies).where(eq(companies.id, payment.companyId));
  return { found: 'yes' as const, payment, companyName: company?.name ?? '' };
}
