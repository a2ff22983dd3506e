import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context.js';

/**
 * The unsubscribe link of every e-mail to a customer (issue 30, RFC 8058). The token names the request
 * the e-mail is about (its id's 16 bytes) and carries an HMAC of it under the server's secret: nothing to
 * store, no address in the URL, and only an e-mail we sent can hold a valid one. Unsubscribing removes the
 * request's address from all of its company's e-mails.
 */
const PURPOSE = 'unsubscribe:v1:';
const TOKEN_PATTERN = /^([0-9A-Za-z_-]{22})\.([0-9A-Za-z_-]{22})$/;

function proof(secret: string, requestId: string): string {
  // 128 bits of the HMAC are plenty for a link that can only unsubscribe.
  return createHmac('sha256', secret).update(PURPOSE + requestId).digest().subarray(0, 16).toString('base64url');
}

export function unsubscribeToken(secret: string, requestId: string): string {
  const id = Buffer.from(requestId.replace(/-/g, ''), 'hex').toString('base64url');
  return `${id}.${proof(secret, requestId)}`;
}

/** The request id a token names, or null when the token is malformed or its proof is wrong. */
export function requestOfUnsubscribeToken(secret: string, token: string): string | null {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return null;
  const bytes = Buffer.from(match[1]!, 'base64url');
  // One spelling per id: 22 characters carry 132 bits for 128, and a last character differing only in
  // the 4 unused bits would decode to the same id (a second, equally valid token).
  if (bytes.length !== 16 || bytes.toString('base64url') !== match[1]) return null;
  const hex = bytes.toString('hex');
  const requestId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  const expected = Buffer.from(proof(secret, requestId));
  const given = Buffer.from(match[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? requestId : null;
}

export const unsubscribeUrl = (ctx: Pick<AppContext, 'config' | 'secrets'>, requestId: string) =>
  `${ctx.config.appUrl}/unsubscribe/${unsubscribeToken(ctx.secrets.jwt, requestId)}`;

/**
 * What an e-mail to a customer about `requestId` carries: the visible link's address, and the RFC 8058
 * headers (a mail client's one-click button POSTs `List-Unsubscribe=One-Click` to the same address).
 */
export function customerMailUnsubscribe(ctx: Pick<AppContext, 'config' | 'secrets'>, requestId: string): CustomerMailUnsubscribe {
  const url = unsubscribeUrl(ctx, requestId);
  return { requestId, url, headers: { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } };
}

/** What an e-mail builder to a customer takes: the request it is about, the visible link and the headers. */
export interface CustomerMailUnsubscribe {
  requestId: string;
  url: string;
  headers: Record<string, string>;
}
