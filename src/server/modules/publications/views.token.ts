import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * View tokens (issue 26, decision 155). The server writes one into each player of a page it renders
 * (share page, embed, wall, wall embed), and a beacon counts only with a valid one: so only a viewer who
 * fetched one of our documents can count a view, each token for the one publication it was written for,
 * for a short while.
 *
 * A token is 32 bytes, base64url (43 characters): the time it was issued (4 bytes, seconds), a random
 * nonce drawn by the server (12 bytes), and an HMAC-SHA256 of the slug, the time and the nonce, cut to 16
 * bytes. The key is derived from the server secret for this use alone (`viewTokenKey`), never the
 * secret itself. The nonce is the viewer's key for the dedup: chosen by us, not by any client header.
 */

/** How long a token counts after its page was served: a long video watched to its end, with a pause or two. */
export const VIEW_TOKEN_TTL_MS = 2 * 3_600_000;
/** A token issued up to this far "in the future" (another API process's clock a little ahead) still counts. */
const CLOCK_SKEW_MS = 60_000;
const NONCE_BYTES = 12;
const MAC_BYTES = 16;
const TOKEN_BYTES = 4 + NONCE_BYTES + MAC_BYTES;

/** The key that signs view tokens: derived from the server secret, so that neither can stand for the other. */
export function viewTokenKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('view-token').digest();
}

const macOf = (key: Buffer, slug: string, head: Buffer) =>
  createHmac('sha256', key).update(`v1\n${slug}\n`).update(head).digest().subarray(0, MAC_BYTES);

/** A fresh token for one player of the publication `slug`, as its page is served. */
export function mintViewToken(key: Buffer, slug: string, now = Date.now()): string {
  const head = Buffer.alloc(4 + NONCE_BYTES);
  head.writeUInt32BE(Math.floor(now / 1000) >>> 0, 0);
  randomBytes(NONCE_BYTES).copy(head, 4);
  return Buffer.concat([head, macOf(key, slug, head)]).toString('base64url');
}

export interface ViewToken {
  /** The server's random nonce, base64url: which viewer (one player of one served page) this is. */
  nonce: string;
  issuedAt: Date;
  /** When the token stops counting; a mark of it needs to live no longer. */
  expiresAt: Date;
}

/** The token's content when it was signed by us for this slug and has not expired; otherwise null. */
export function readViewToken(key: Buffer, slug: string, token: string | undefined, now = Date.now()): ViewToken | null {
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const bytes = Buffer.from(token, 'base64url');
  if (bytes.length !== TOKEN_BYTES) return null;
  const head = bytes.subarray(0, 4 + NONCE_BYTES);
  if (!timingSafeEqual(bytes.subarray(4 + NONCE_BYTES), macOf(key, slug, head))) return null;
  const issuedAt = head.readUInt32BE(0) * 1000;
  if (issuedAt > now + CLOCK_SKEW_MS || now - issuedAt >= VIEW_TOKEN_TTL_MS) return null;
  return {
    nonce: head.subarray(4).toString('base64url'),
    issuedAt: new Date(issuedAt),
    expiresAt: new Date(issuedAt + VIEW_TOKEN_TTL_MS),
  };
}
