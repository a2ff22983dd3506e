import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Media are private: the API hands out short-lived signed addresses of the form
 * `/files/<key>?exp=<unix seconds>&sig=<HMAC-SHA256(key|exp)>`, and `/files/*` serves only those.
 * The key names the company and the request, so a signature cannot be moved to another object.
 */
export const MEDIA_URL_TTL_SECONDS = 2 * 60 * 60;
export const MEDIA_PREFIX = '/files/';

const sign = (secret: string, key: string, exp: number) =>
  createHmac('sha256', `media:${secret}`).update(`${key}|${exp}`).digest('base64url');

export function signMediaPath(secret: string, key: string, ttlSeconds = MEDIA_URL_TTL_SECONDS, now = Date.now()): string {
  const exp = Math.floor(now / 1000) + ttlSeconds;
  const encoded = key.split('/').map(encodeURIComponent).join('/');
  return `${MEDIA_PREFIX}${encoded}?exp=${exp}&sig=${sign(secret, key, exp)}`;
}

export type MediaCheck = { ok: true } | { ok: false; reason: 'expired' | 'invalid' };

export function verifyMediaSignature(secret: string, key: string, exp: string | undefined, sig: string | undefined, now = Date.now()): MediaCheck {
  const expiry = Number(exp);
  if (!sig || !Number.isInteger(expiry)) return { ok: false, reason: 'invalid' };
  const expected = Buffer.from(sign(secret, key, expiry));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'invalid' };
  if (expiry * 1000 < now) return { ok: false, reason: 'expired' };
  return { ok: true };
}
