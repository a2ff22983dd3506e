import { createHash, randomBytes } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

/** Opaque random tokens (refresh tokens, e-mail links, one-time codes): 256 bits, URL-safe. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored only as SHA-256 hashes: a database leak gives no usable token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const AUDIENCE = 'vouchreel-api';

export interface AccessClaims {
  userId: string;
  companyId: string;
  /**
   * The session (refresh-token family) the token was issued for. The auth guard checks on every call
   * that this session is still open, so signing out or resetting the password ends access at once.
   */
  sessionId: string;
}

export interface VerifiedAccess extends AccessClaims {
  /** When the token stops being valid, in milliseconds since the epoch. */
  expiresAtMs: number;
}

const key = (secret: string) => new TextEncoder().encode(secret);

export async function signAccessToken(secret: string, claims: AccessClaims, now = Date.now()): Promise<string> {
  return new SignJWT({ cid: claims.companyId, sid: claims.sessionId, typ: 'access' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.userId)
    .setAudience(AUDIENCE)
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(now / 1000) + ACCESS_TOKEN_TTL_SECONDS)
    .sign(key(secret));
}

export type VerifyResult<T> = { ok: true; claims: T } | { ok: false; reason: 'expired' | 'invalid' };

export async function verifyAccessToken(secret: string, token: string): Promise<VerifyResult<VerifiedAccess>> {
  try {
    const { payload } = await jwtVerify(token, key(secret), { audience: AUDIENCE, algorithms: ['HS256'] });
    if (payload.typ !== 'access' || typeof payload.sub !== 'string' || typeof payload.cid !== 'string' || typeof payload.exp !== 'number') {
      return { ok: false, reason: 'invalid' };
    }
    // Signed by us before tokens named their session: 'expired' makes the client refresh once, and the
    // new token names its session.
    if (typeof payload.sid !== 'string') return { ok: false, reason: 'expired' };
    return { ok: true, claims: { userId: payload.sub, companyId: payload.cid, sessionId: payload.sid, expiresAtMs: payload.exp * 1000 } };
  } catch (error) {
    return { ok: false, reason: error instanceof joseErrors.JWTExpired ? 'expired' : 'invalid' };
  }
}

/** A signed, short-lived statement of another kind (Google sign-up profile, OAuth state). */
export async function signStatement(secret: string, typ: string, claims: Record<string, unknown>, ttlSeconds: number): Promise<string> {
  return new SignJWT({ ...claims, typ })
    .setProtectedHeader({ alg: 'HS256' })
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(key(secret));
}

export async function verifyStatement(secret: string, typ: string, token: string): Promise<VerifyResult<Record<string, unknown>>> {
  try {
    const { payload } = await jwtVerify(token, key(secret), { audience: AUDIENCE, algorithms: ['HS256'] });
    if (payload.typ !== typ) return { ok: false, reason: 'invalid' };
    return { ok: true, claims: payload as Record<string, unknown> };
  } catch (error) {
    return { ok: false, reason: error instanceof joseErrors.JWTExpired ? 'expired' : 'invalid' };
  }
}
