import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.js';
import { verifyAccessToken, type AccessClaims } from '../modules/auth/tokens.js';

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

/**
 * A preHandler that requires a valid access token. A missing, invalid or expired token answers 401
 * with the 'session expired' key, which makes the client refresh once and replay.
 */
export function requireAuth(secret: string) {
  return async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) {
      throw new AppError('unauthorized', { message: 'Please sign in to continue.', errorKey: 'unauthorized' });
    }
    const result = await verifyAccessToken(secret, token);
    if (!result.ok) {
      throw new AppError('unauthorized', {
        message: result.reason === 'expired' ? 'Your session has expired. Please sign in again.' : 'Please sign in to continue.',
        errorKey: result.reason === 'expired' ? 'sessionExpired' : 'unauthorized',
      });
    }
    request.auth = result.claims;
  };
}
