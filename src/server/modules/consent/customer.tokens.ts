import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { CUSTOMER_TOKEN_PATTERN } from '../../../contract/api/consent.schema.js';

/**
 * The customer's tokens (issue 29, decision 183): their page's (`/my-testimonial/{token}`) and each
 * approval's (`/approve/{token}`). 32 random bytes in base64url (256 bits), stored only as their SHA-256,
 * each in its own column: a page token is never looked up among approvals, nor the reverse, and neither
 * among recording links.
 */
export const newCustomerToken = (): string => randomBytes(32).toString('base64url');

export const hashCustomerToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A token of the right shape (43 base64url characters): anything else is a miss before any query. */
export const isCustomerToken = (token: string | undefined): token is string => typeof token === 'string' && CUSTOMER_TOKEN_PATTERN.test(token);

/**
 * The anti-forgery field of a customer page's form: an HMAC of the token's hash and the action, under the
 * server's secret. Only a page we served for that token carries it; it names one action (a removal names
 * its answer), so a proof of one form is no proof for another.
 */
export function actionProof(secret: string, tokenHash: string, action: string): string {
  return createHmac('sha256', secret).update(`customer-action:${tokenHash}:${action}`).digest('base64url');
}

export function isActionProof(secret: string, tokenHash: string, action: string, given: unknown): boolean {
  if (typeof given !== 'string' || given.length > 100) return false;
  const expected = Buffer.from(actionProof(secret, tokenHash, action));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
