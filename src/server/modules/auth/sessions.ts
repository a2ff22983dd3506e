import { and, eq, sql } from 'drizzle-orm';
import type { TRole } from '../../../contract/api/members.schema.js';
import type { AppContext } from '../../context.js';
import { memberships, refreshTokenFamilies, users } from '../../db/schema.js';
import type { AccessClaims } from './tokens.js';

/**
 * What the guard needs of a session (a refresh-token family): whose it is, whether it is still open,
 * the company it works in and the user's role there (null: no longer a member).
 */
interface SessionRow {
  userId: string;
  companyId: string;
  endsAtMs: number;
  revoked: boolean;
  role: TRole | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a token's session id can name a row (anything else would be a query error, not a refusal). */
export const isSessionId = (value: string) => UUID.test(value);

async function loadSession(db: AppContext['db'], sessionId: string): Promise<SessionRow | undefined> {
  const sessionCompany = sql<string>`coalesce(${refreshTokenFamilies.companyId}, ${users.companyId})`;
  const [row] = await db
    .select({
      userId: refreshTokenFamilies.userId,
      companyId: sessionCompany,
      expiresAt: refreshTokenFamilies.expiresAt,
      revokedAt: refreshTokenFamilies.revokedAt,
      role: memberships.role,
    })
    .from(refreshTokenFamilies)
    .innerJoin(users, eq(users.id, refreshTokenFamilies.userId))
    .leftJoin(memberships, and(eq(memberships.userId, refreshTokenFamilies.userId), eq(memberships.companyId, sessionCompany)))
    .where(eq(refreshTokenFamilies.id, sessionId))
    .limit(1);
  return (
    row && {
      userId: row.userId,
      companyId: row.companyId,
      endsAtMs: row.expiresAt.getTime(),
      revoked: row.revokedAt !== null,
      role: row.role ?? null,
    }
  );
}

/** The caller's role when the session is open and still a member of the token's company; else null. */
const openRole = (row: SessionRow | undefined, claims: AccessClaims, now: number): TRole | null =>
  row && !row.revoked && row.endsAtMs > now && row.userId === claims.userId && row.companyId === claims.companyId ? row.role : null;

const keyOf = (sessionId: string) => `session:${sessionId}`;

/**
 * Whether the session an access token names is still open: not signed out, not ended by a password
 * reset or a replayed refresh token, not past its end, still this user's in this company, and the user
 * still a member of it (issue 32): the answer is the role there, or null when refused.
 * Migration 0030 announces every change of a membership under its company, and a session row under the
 * company it works in, so a removal, a change of role or a switch drops the cached row at once.
 *
 * Read through the company read cache (lib/read-cache.ts), so that a dashboard's calls cost no query:
 * migration 0007's trigger announces every committed change of a session row under its user's company,
 * which drops the cached row in every API process (this one before its own sign-out call returns). A
 * session that is not found is never cached. The end time is compared on each call.
 *
 * The answer from the cache alone, synchronously (the guard runs on every call); undefined when the
 * row must be read: then `sessionOpen`.
 */
export function cachedSessionOpen(ctx: Pick<AppContext, 'reads'>, claims: AccessClaims, now = Date.now()): TRole | null | undefined {
  const row = ctx.reads.get<SessionRow>(keyOf(claims.sessionId), now);
  return row === undefined ? undefined : openRole(row, claims, now);
}

/** The row read from the database (and kept, unless a change of its company was heard meanwhile). */
export async function sessionOpen(ctx: Pick<AppContext, 'db' | 'reads'>, claims: AccessClaims, now = Date.now()): Promise<TRole | null> {
  if (!isSessionId(claims.sessionId)) return null;
  const ticket = ctx.reads.ticket();
  const row = await loadSession(ctx.db, claims.sessionId);
  if (row) ctx.reads.set(keyOf(claims.sessionId), row.companyId, row, ticket);
  return openRole(row, claims, now);
}
