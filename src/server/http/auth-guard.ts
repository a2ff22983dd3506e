import type { FastifyRequest } from 'fastify';
import { ROLES, type TRole } from '../../contract/api/members.schema.js';
import type { AppContext } from '../context.js';
import { AppError } from '../lib/errors.js';
import { cachedSessionOpen, sessionOpen } from '../modules/auth/sessions.js';
import { verifyAccessToken, type AccessClaims, type VerifiedAccess } from '../modules/auth/tokens.js';

/** The verified access token's claims and the caller's role in the token's company. */
export interface CallerAuth extends AccessClaims {
  role: TRole;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified access token's claims, set by `requireAuth`. */
    auth: CallerAuth | null;
  }
  interface FastifyContextConfig {
    /**
     * The lowest role allowed to call a route that requires a session (issue 32, decision 215): every
     * such route declares one, and `requireAuth` refuses a route that does not (a test walks them all).
     */
    role?: TRole;
  }
}

/** Whether `role` is allowed where `lowest` is the lowest role allowed (owner > editor > viewer). */
export const roleAllows = (role: TRole, lowest: TRole) => ROLES.indexOf(role) <= ROLES.indexOf(lowest);

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/** Most verified access tokens remembered at once (a few hundred bytes each). */
const VERIFIED_TOKENS_MAX = 20_000;

/**
 * Access tokens whose signature was already verified, until they expire: a dashboard sends the same
 * token with every call for its 15 minutes, and checking the signature again each time (WebCrypto HMAC)
 * cost more than the rest of a cached call. Only a byte-identical token that passed the full check is
 * found here, and an expired one is dropped, so the answer is the same as verifying again. This says
 * nothing about the session: whether it is still open is checked on every call (`requireAuth`).
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

const sessionEnded = () =>
  new AppError('unauthorized', { message: 'Your session has ended. Please sign in again.', errorKey: 'sessionExpired' });

const roleRequired = (lowest: TRole) =>
  new AppError('no_permission', lowest === 'editor' ? { reason: 'role_required_editor' } : { reason: 'role_required' });

/**
 * A preHandler that requires a valid access token of an open session. A missing, invalid or expired
 * token answers 401 with the 'session expired' key, which makes the client refresh once and replay; so
 * does a token whose session was signed out or ended by a password reset (the refresh then fails too,
 * and the client goes to the sign-in page).
 */
export function requireAuth(ctx: Pick<AppContext, 'secrets' | 'db' | 'reads'>) {
  const secret = ctx.secrets.jwt;
  let verified = verifiedBySecret.get(secret);
  if (!verified) verifiedBySecret.set(secret, (verified = new VerifiedTokens()));
  const cache = verified;
  return async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) {
      throw new AppError('unauthorized', { message: 'Please sign in to continue.', errorKey: 'unauthorized' });
    }
    let claims: AccessClaims | undefined = cache.get(token);
    if (!claims) {
      const result = await verifyAccessToken(secret, token);
      if (!result.ok) {
        throw new AppError('unauthorized', {
          message: result.reason === 'expired' ? 'Your session has expired. Please sign in again.' : 'Please sign in to continue.',
          errorKey: result.reason === 'expired' ? 'sessionExpired' : 'unauthorized',
        });
      }
      cache.remember(token, result.claims);
      claims = result.claims;
    }
    const cached = cachedSessionOpen(ctx, claims);
    const role = cached === undefined ? await sessionOpen(ctx, claims) : cached;
    // Signed out, ended, or no longer a member of the token's company (removed): 401, and the refresh
    // fails too (auth.service refresh checks the membership), so the client goes to sign in.
    if (!role) throw sessionEnded();
    const lowest = request.routeOptions.config.role;
    if (!lowest) {
      // Fail closed: a route that requires a session but declares no role is a programming error.
      request.log.error({ url: request.routeOptions.url }, 'route requires a session but declares no role');
      throw new AppError('server_error', { message: 'This call is not available.' });
    }
    if (!roleAllows(role, lowest)) throw roleRequired(lowest);
    request.auth = { userId: claims.userId, companyId: claims.companyId, sessionId: claims.sessionId, role };
  };
}
