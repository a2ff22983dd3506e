import { and, eq, isNull } from 'drizzle-orm';
import type { TMyCompanies, TRole } from '../../../contract/api/members.schema.js';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { companies, memberships, refreshTokenFamilies } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import type { CallerAuth } from '../../http/auth-guard.js';
import { signAccessToken } from '../auth/tokens.js';

/** The companies a person belongs to, with their role in each, by name. */
export async function myCompanies(db: DbOrTx, userId: string): Promise<TMyCompanies['companies']> {
  const rows = await db
    .select({ id: companies.id, name: companies.name, role: memberships.role })
    .from(memberships)
    .innerJoin(companies, eq(companies.id, memberships.companyId))
    .where(eq(memberships.userId, userId))
    .orderBy(companies.name, companies.id);
  return rows;
}

export async function listMyCompanies(ctx: AppContext, auth: CallerAuth): Promise<TMyCompanies> {
  return { active: auth.companyId, companies: await myCompanies(ctx.db, auth.userId) };
}

/**
 * Works in another of the caller's companies (agencies, issue 32): the session remembers the company,
 * so that a refresh keeps it, and a new access token names it. The previous access token stops working
 * at once (its company no longer matches the session's). Only where the caller is a member: anything
 * else is the same 404, which does not tell whether the company exists.
 */
export async function switchCompany(
  ctx: AppContext,
  auth: CallerAuth,
  companyId: string,
): Promise<{ token: string; companyId: string; role: TRole }> {
  return ctx.db.transaction(async (tx) => {
    const [member] = await tx
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.companyId, companyId), eq(memberships.userId, auth.userId)))
      .limit(1);
    if (!member) throw new AppError('not_found', { reason: 'not_a_member' });
    const [session] = await tx
      .update(refreshTokenFamilies)
      .set({ companyId })
      .where(and(eq(refreshTokenFamilies.id, auth.sessionId), eq(refreshTokenFamilies.userId, auth.userId), isNull(refreshTokenFamilies.revokedAt)))
      .returning({ id: refreshTokenFamilies.id });
    if (!session) throw new AppError('unauthorized', { message: 'Your session has ended. Please sign in again.', errorKey: 'sessionExpired' });
    const token = await signAccessToken(ctx.secrets.jwt, { userId: auth.userId, companyId, sessionId: auth.sessionId });
    return { token, companyId, role: member.role };
  });
}
