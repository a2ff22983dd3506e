import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { bearerToken } from '../../http/auth-guard.js';
import { AppError } from '../../lib/errors.js';
import { authenticateKey, type KeyCaller } from '../api-keys/api-keys.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key's caller on /api/v1, set by `requireApiKey`. */
    apiKey: KeyCaller | null;
  }
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * An onRequest hook for /api/v1: the call must carry `Authorization: Bearer vr_live_…` of a key that is
 * neither unknown nor revoked (401 otherwise, the standard error shape); a read key may only read (403).
 * A dashboard session token is not a key, and a key is not a session token (requireAuth refuses it).
 */
export function requireApiKey(ctx: AppContext) {
  return async (request: FastifyRequest) => {
    const presented = bearerToken(request);
    if (!presented) {
      throw new AppError('unauthorized', { message: 'An API key is required: send it as Authorization: Bearer vr_live_….', errorKey: 'unauthorized' });
    }
    const caller = await authenticateKey(ctx, presented);
    if (!caller) throw new AppError('unauthorized', { message: 'This API key is not valid, or it has been revoked.', errorKey: 'unauthorized' });
    if (caller.scope === 'read' && !READ_METHODS.has(request.method)) {
      throw new AppError('no_permission', { message: 'This API key can only read. Create a key with the read and write scope to make changes.' });
    }
    request.apiKey = caller;
  };
}

/** The company of the call's key (set by requireApiKey). */
export function keyCompany(request: FastifyRequest): string {
  if (!request.apiKey) throw new AppError('unauthorized', { message: 'An API key is required.', errorKey: 'unauthorized' });
  return request.apiKey.companyId;
}
