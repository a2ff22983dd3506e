/**
 * Credits: checkout, fulfilment and transactions (spec: company dashboard §3 transaction and credit
 * package, §4 payment, §7, §9; issue 6).
 */
import { z } from 'zod';
import { CREDIT_PACKAGES, type CreditPackage } from '../constants.js';
import { ZHttpUrl, ZId, ZIsoDateTime } from './common.js';

/* ------------------------------------------------------------------ POST /api/payment/checkout-session */

/** The ids of CREDIT_PACKAGES, as a tuple for z.enum. */
export const CREDIT_PACKAGE_IDS = ['starter', 'small', 'medium', 'large', 'extra_large'] as const satisfies readonly CreditPackage['id'][];

/**
 * priceId: the client sends the package id (CREDIT_PACKAGES[i].id); each package's Stripe price id is
 * server configuration, so it never reaches the browser. Anything else is an unknown price.
 */
export const ZPriceId = z.enum(CREDIT_PACKAGE_IDS, { error: 'Unknown credit package' });
export type TPriceId = z.infer<typeof ZPriceId>;

export const ZCheckoutSessionBody = z.object({ priceId: ZPriceId });
export type TCheckoutSessionBody = z.infer<typeof ZCheckoutSessionBody>;

/** `{ url }`: Stripe Checkout, or our own test-mode checkout page when Stripe is not configured. */
export const ZCheckoutSessionResponse = z.object({ url: ZHttpUrl });
export type TCheckoutSessionResponse = z.infer<typeof ZCheckoutSessionResponse>;

/** Finds a package by the priceId sent. */
export function findCreditPackage(priceId: string): CreditPackage | undefined {
  return CREDIT_PACKAGES.find((pkg) => pkg.id === priceId);
}

/* ------------------------------------------------------------------ POST /api/payment/confirm-session */

/**
 * The success return (/dashboard/payment?success=1&session_id=…) asks the server to fulfil the
 * session, as Stripe recommends alongside the webhook. Idempotent: credited once per session.
 */
export const ZConfirmSessionBody = z.object({
  sessionId: z
    .string({ error: 'Session id is required' })
    .trim()
    .min(1, 'Session id is required')
    .max(255, 'Session id is too long'),
});
export type TConfirmSessionBody = z.infer<typeof ZConfirmSessionBody>;

/** paid: the session is paid and credited (now or before); credits: the company's balance. */
export const ZConfirmSessionResponse = z.object({
  paid: z.boolean(),
  credits: z.number().int().min(0),
});
export type TConfirmSessionResponse = z.infer<typeof ZConfirmSessionResponse>;

/* ------------------------------------------------------------------ POST /api/payment/webhook */

/** Header of Stripe's signature over the raw body. The body is Stripe's event, not a zod schema here. */
export const STRIPE_SIGNATURE_HEADER = 'stripe-signature';

export const ZWebhookResponse = z.object({ received: z.literal(true) });
export type TWebhookResponse = z.infer<typeof ZWebhookResponse>;

/* ------------------------------------------------------------------ transactions */

/**
 * Known transaction types. The client shows credit_purchase as a purchase and any other value as a
 * testimonial payment (§3), so the field stays an open string.
 */
export const TRANSACTION_TYPES = {
  creditPurchase: 'credit_purchase',
  testimonialPayment: 'testimonial_payment',
  signupCredits: 'signup_bonus',
} as const;

export const ZTransaction = z.object({
  id: ZId,
  transaction_type: z.string().min(1),
  /** credit_purchase: minor units of `currency` (shown / 100); others: credits, shown as is. */
  amount: z.number(),
  currency: z.string(),
  date: ZIsoDateTime,
  testimonial: z
    .object({
      id: ZId,
      customer_name: z.string(),
    })
    .nullable(),
});
export type TTransaction = z.infer<typeof ZTransaction>;

/* ------------------------------------------------------------------ GET /api/payment/list-transaction */

/** The company's transactions, newest first. */
export const ZListTransactionResponse = z.array(ZTransaction);
export type TListTransactionResponse = z.infer<typeof ZListTransactionResponse>;
