import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.js';
import { verifyAccessToken, type AccessClaims, type VerifiedAccess } from '../modules/auth/tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified access token's claims, set by `requireAuth`. */
    auth: AccessClaims | null;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/** Most verified access tokens remembered at once (a few hundred bytes each). */
const VERIFIED_TOKENS_MAX = 20_000;

/**
 * Access tokens already verified, until they expire: a dashboard sends the same token with every call
 * for its 15 minutes, and checking the signature again each time (WebCrypto HMAC) cost more than the
 * rest of a cached call. Only a byte-identical token that passed the full check is found here, and an
 * expired one is dropped, so the answer is the same as verifying again.
 */
export class VerifiedTokens {
  private readonly tokens = new Map<string, VerifiedAccess>();

  constructor(private readonly max = VERIFIED_TOKENS_MAX) {}

  get(token: string, now = Date.now()): AccessClaims | undefined {
    const found = this.tokens.get(token);
    if (!found) return undefined;
    if (found.expiresAtMs <= now) {
      this.tokens.delete(token);
      return undefined;
    }
    return found;
  }

  remember(token: string, claims: VerifiedAccess): void {
    if (this.tokens.size >= this.max) {
      // Oldest first: insertion order is the order tokens were first seen.
      const oldest = this.tokens.keys().next();
      if (!oldest.done) this.tokens.delete(oldest.value);
    }
    this.tokens.set(token, claims);
  }
}

/** One cache per signing key, shared by every route plugin that requires a session. */
const verifiedBySecret = new Map<string, VerifiedTokens>();

/**
 * A preHandler that requires a valid access token. A missing, invalid or expired token answers 401
 * with the 'session expired' key, which makes the client refresh once and replay.
 */
export function requireAuth(secret: string) {
  let verified = verifiedBySecret.get(secret);
  if (!verified) verifiedBySecret.set(secret, (verified = new VerifiedTokens()));
  const cache = verified;
  return async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) {
      throw new AppError('unauthorized', { message: 'Please sign in to continue.', errorKey: 'unauthorized' });
    }
    const known = cache.get(token);
    if (known) {
      request.auth = { userId: known.userId, companyId: known.companyId };
      return;
    }
    const result = await verifyAccessToken(secret, token);
    if (!result.ok) {
      throw new AppError('unauthorized', {
        message: result.reason === 'expired' ? 'Your session has expired. Please sign in again.' : 'Please sign in to continue.',
        errorKey: result.reason === 'expired' ? 'sessionExpired' : 'unauthorized',
      });
    }
    cache.remember(token, result.claims);
    request.auth = { userId: result.claims.userId, companyId: result.claims.companyId };
  };
}
