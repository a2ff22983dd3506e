import { and, eq, sql } from 'drizzle-orm';
import Stripe from 'stripe';
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
 * of ours stands in for Checkout and goes through the same fulfilment.
 */

let stripeClient: { key: string; client: Stripe } | undefined;
export function stripeFor(ctx: AppContext): Stripe | undefined {
  const cfg = ctx.config.stripe;
  if (!cfg) return undefined;
  const cacheKey = `${cfg.secretKey}|${cfg.apiUrl ?? ''}`;
  if (stripeClient?.key !== cacheKey) {
    const api = cfg.apiUrl ? new URL(cfg.apiUrl) : undefined;
    stripeClient = {
      key: cacheKey,
      client: new Stripe(cfg.secretKey, {
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

export async function createCheckoutSession(ctx: AppContext, input: { companyId: string; priceId: string; email?: string }): Promise<{ url: string }> {
  const pkg = findCreditPackage(input.priceId);
  if (!pkg) throw new AppError('invalid_data', { message: 'Unknown credit package.', field: 'priceId' });
  const stripe = stripeFor(ctx);
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
    return { url: `${ctx.config.appUrl}${TEST_CHECKOUT_PREFIX}${sessionId}` };
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
  const stripe = stripeFor(ctx);
  const [existing] = await ctx.db.select().from(payments).where(eq(payments.sessionId, sessionId)).limit(1);

  if (existing?.provider === 'test') {
    if (stripe) throw new AppError('invalid_data', { message: 'Test payments are disabled while Stripe is configured.' });
    if (existing.status !== 'paid') return { paid: false, companyId: existing.companyId };
  } else {
    if (!stripe) throw new AppError('invalid_data', { message: 'Stripe is not configured.' });
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
  if (!payment && !stripeFor(ctx)) throw new AppError('not_found', { message: 'No such payment.' });
  const result = await fulfilCheckout(ctx, input.sessionId);
  if (result.companyId !== input.companyId) throw new AppError('not_found', { message: 'No such payment.' });
  const [company] = await ctx.db.select({ credits: companies.credits }).from(companies).where(eq(companies.id, input.companyId));
  return { paid: result.paid, credits: company?.credits ?? 0 };
}

/** Verifies a webhook on its raw body and fulfils the events that mean money arrived. */
export async function handleWebhook(ctx: AppContext, input: { rawBody: Buffer; signature: string | undefined }): Promise<void> {
  const stripe = stripeFor(ctx);
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

/** The test-mode page's buttons: Pay marks the session paid and fulfils it; Cancel closes it. */
export async function finishTestCheckout(ctx: AppContext, input: { sessionId: string; action: 'pay' | 'cancel' }): Promise<string> {
  const [payment] = await ctx.db.select().from(payments).where(eq(payments.sessionId, input.sessionId)).limit(1);
  if (!payment || payment.provider !== 'test') throw new AppError('not_found', { message: 'No such test payment.' });
  if (input.action === 'cancel') {
    await ctx.db.update(payments).set({ status: 'canceled', updatedAt: new Date() }).where(and(eq(payments.id, payment.id), sql`${payments.status} <> 'paid'`));
    return cancelUrl(ctx);
  }
  await ctx.db.update(payments).set({ status: 'paid', updatedAt: new Date() }).where(eq(payments.id, payment.id));
  await fulfilCheckout(ctx, input.sessionId);
  return successUrl(ctx).replace('{CHECKOUT_SESSION_ID}', encodeURIComponent(input.sessionId));
}

export async function getTestCheckout(ctx: AppContext, sessionId: string) {
  const [payment] = await ctx.db.select().from(payments).where(eq(payments.sessionId, sessionId)).limit(1);
  if (!payment || payment.provider !== 'test') return undefined;
  const [company] = await ctx.db.select({ name: companies.name }).from(companies).where(eq(companies.id, payment.companyId));
  return { payment, companyName: company?.name ?? '' };
}
