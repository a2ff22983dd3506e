import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { refreshTokenFamilies, users } from '../../db/schema.js';
import type { AccessClaims } from './tokens.js';

/** What the guard needs of a session (a refresh-token family): whose it is and whether it is still open. */
interface SessionRow {
  userId: string;
  companyId: string;
  endsAtMs: number;
  revoked: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a token's session id can name a row (anything else would be a query error, not a refusal). */
export const isSessionId = (value: string) => UUID.test(value);

async function loadSession(db: AppContext['db'], sessionId: string): Promise<SessionRow | undefined> {
  const [row] = await db
    .select({
      userId: refreshTokenFamilies.userId,
      companyId: users.companyId,
      expiresAt: refreshTokenFamilies.expiresAt,
      revokedAt: refreshTokenFamilies.revokedAt,
    })
    .from(refreshTokenFamilies)
    .innerJoin(users, eq(users.id, refreshTokenFamilies.userId))
    .where(eq(refreshTokenFamilies.id, sessionId))
    .limit(1);
  return row && { userId: row.userId, companyId: row.companyId, endsAtMs: row.expiresAt.getTime(), revoked: row.revokedAt !== null };
}

const isOpen = (row: SessionRow | undefined, claims: AccessClaims, now: number) =>
  Boolean(row && !row.revoked && row.endsAtMs > now && row.userId === claims.userId && row.companyId === claims.companyId);

const keyOf = (sessionId: string) => `session:${sessionId}`;

/**
 * Whether the session an access token names is still open: not signed out, not ended by a password
 * reset or a replayed refresh token, not past its end, and still this user's in this company.
 *
 * Read through the company read cache (lib/read-cache.ts), so that a dashboard's calls cost no query:
 * migration 0007's trigger announces every committed change of a session row under its user's company,
 * which drops the cached row in every API process (this one before its own sign-out call returns). A
 * session that is not found is never cached. The end time is compared on each call.
 *
 * The answer from the cache alone, synchronously (the guard runs on every call); undefined when the
 * row must be read: then `sessionOpen`.
 */
export function cachedSessionOpen(ctx: Pick<AppContext, 'reads'>, claims: AccessClaims, now = Date.now()): boolean | undefined {
  const row = ctx.reads.get<SessionRow>(keyOf(claims.sessionId), now);
  return row === undefined ? undefined : isOpen(row, claims, now);
}

/** The row read from the database (and kept, unless a change of its company was heard meanwhile). */
export async function sessionOpen(ctx: Pick<AppContext, 'db' | 'reads'>, claims: AccessClaims, now = Date.now()): Promise<boolean> {
  if (!isSessionId(claims.sessionId)) return false;
  const ticket = ctx.reads.ticket();
  const row = await loadSession(ctx.db, claims.sessionId);
  if (row) ctx.reads.set(keyOf(claims.sessionId), row.companyId, row, ticket);
  return isOpen(row, claims, now);
}
