import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { TInvitation, TInvitationPreview, TInviteBody, TMemberList, TRole } from '../../../contract/api/members.schema.js';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { companies, invitations, memberships, refreshTokenFamilies, users } from '../../db/schema.js';
import type { CallerAuth } from '../../http/auth-guard.js';
import { AppError } from '../../lib/errors.js';
import { queueMail } from '../../mail/send.js';
import { hashToken, randomToken, signAccessToken } from '../auth/tokens.js';
import { recordActivity } from '../events/events.service.js';
import { memberInvitationEmail } from './members.emails.js';

/** An invitation's link works for 7 days (issue 32). */
export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;

type InvitationRow = typeof invitations.$inferSelect;

const toInvitation = (row: InvitationRow): TInvitation => ({
  id: row.id,
  email: row.email,
  role: row.role,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
});

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Every change of a company's members starts by locking the company's row, so that two owners demoting
 * or removing each other at the same moment are done one after the other, and the second sees that it
 * would leave no owner: a company always keeps at least one.
 */
async function lockCompany(tx: DbOrTx, companyId: string) {
  const [company] = await tx.select().from(companies).where(eq(companies.id, companyId)).for('update').limit(1);
  if (!company) throw new AppError('not_found', { message: 'This company no longer exists.' });
  return company;
}

async function ownerCount(tx: DbOrTx, companyId: string): Promise<number> {
  return tx.$count(memberships, and(eq(memberships.companyId, companyId), eq(memberships.role, 'owner')));
}

async function emailOf(tx: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.email ?? null;
}

async function findMember(tx: DbOrTx, companyId: string, userId: string) {
  const [member] = await tx
    .select()
    .from(memberships)
    .where(and(eq(memberships.companyId, companyId), eq(memberships.userId, userId)))
    .limit(1);
  if (!member) throw new AppError('not_found', { reason: 'member_not_found' });
  return member;
}

/** The members with their roles (owners first, then by name) and the invitations still waiting. */
export async function listMembers(ctx: AppContext, auth: CallerAuth, now = new Date()): Promise<TMemberList> {
  const rank = sql<number>`case ${memberships.role} when 'owner' then 0 when 'editor' then 1 else 2 end`;
  const [members, pending] = await Promise.all([
    ctx.db
      .select({ member: memberships, user: users })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(memberships.companyId, auth.companyId))
      .orderBy(rank, users.firstname, users.lastname, users.id),
    ctx.db
      .select()
      .from(invitations)
      .where(
        and(
          eq(invitations.companyId, auth.companyId),
          isNull(invitations.acceptedAt),
          isNull(invitations.cancelledAt),
          gt(invitations.expiresAt, now),
        ),
      )
      .orderBy(invitations.createdAt, invitations.id),
  ]);
  return {
    members: members.map(({ member, user }) => ({
      userId: user.id,
      email: user.email,
      firstname: user.firstname,
      lastname: user.lastname,
      role: member.role,
      joinedAt: member.createdAt.toISOString(),
      you: user.id === auth.userId,
    })),
    invitations: pending.map(toInvitation),
  };
}

/** Writes a new link for an invitation and queues its e-mail, in the transaction `tx` belongs to. */
async function sendInvitation(
  ctx: AppContext,
  executeSql: Parameters<Parameters<AppContext['database']['transaction']>[0]>[0],
  tx: DbOrTx,
  auth: CallerAuth,
  invitation: { email: string; role: TRole },
  company: typeof companies.$inferSelect,
) {
  const [inviter] = await tx.select().from(users).where(eq(users.id, auth.userId)).limit(1);
  const token = randomToken();
  await queueMail(
    ctx,
    memberInvitationEmail({
      lang: company.mailLanguage === 'fr' ? 'fr' : 'en',
      brand: ctx.config.brandName,
      to: invitation.email,
      inviter: inviter ? `${inviter.firstname} ${inviter.lastname}`.trim() : company.name,
      company: company.name,
      role: invitation.role,
      url: `${ctx.config.appUrl}/invitation#token=${token}`,
    }),
    { executeSql },
  );
  return { tokenHash: hashToken(token), expiresAt: new Date(Date.now() + INVITATION_TTL_MS) };
}

/**
 * Invites a person by e-mail with a role. Refused when they are already a member, or when an invitation
 * to that address is still waiting (send that one again instead). The row and its e-mail commit together.
 */
export async function inviteMember(ctx: AppContext, auth: CallerAuth, body: TInviteBody): Promise<TInvitation> {
  return ctx.database.transaction(async (executeSql, tx) => {
    const company = await lockCompany(tx, auth.companyId);
    const [member] = await tx
      .select({ id: memberships.id })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.companyId, auth.companyId), sql`lower(${users.email}) = ${body.email}`))
      .limit(1);
    if (member) throw new AppError('conflict', { reason: 'already_member' });
    const [waiting] = await tx
      .select({ id: invitations.id })
      .from(invitations)
      .where(
        and(
          eq(invitations.companyId, auth.companyId),
          sql`lower(${invitations.email}) = ${body.email}`,
          isNull(invitations.acceptedAt),
          isNull(invitations.cancelledAt),
          gt(invitations.expiresAt, new Date()),
        ),
      )
      .limit(1);
    if (waiting) throw new AppError('conflict', { reason: 'invitation_pending' });
    const link = await sendInvitation(ctx, executeSql, tx, auth, body, company);
    const [row] = await tx
      .insert(invitations)
      .values({ companyId: auth.companyId, email: body.email, role: body.role, invitedBy: auth.userId, ...link })
      .returning();
    if (!row) throw new Error('invitation not created');
    return toInvitation(row);
  });
}

/** Sends an invitation again, with a new link valid 7 more days (the old link stops working). */
export async function resendInvitation(ctx: AppContext, auth: CallerAuth, id: string): Promise<TInvitation> {
  return ctx.database.transaction(async (executeSql, tx) => {
    const company = await lockCompany(tx, auth.companyId);
    const [invitation] = await tx
      .select()
      .from(invitations)
      .where(and(eq(invitations.id, id), eq(invitations.companyId, auth.companyId), isNull(invitations.acceptedAt), isNull(invitations.cancelledAt)))
      .limit(1);
    if (!invitation) throw new AppError('not_found', { reason: 'invitation_not_found' });
    const link = await sendInvitation(ctx, executeSql, tx, auth, invitation, company);
    const [row] = await tx.update(invitations).set(link).where(eq(invitations.id, invitation.id)).returning();
    return toInvitation(row!);
  });
}

/** Cancels a waiting invitation: its link stops working. Another company's, or one used, is 404. */
export async function cancelInvitation(ctx: AppContext, auth: CallerAuth, id: string): Promise<void> {
  const cancelled = await ctx.db
    .update(invitations)
    .set({ cancelledAt: new Date() })
    .where(and(eq(invitations.id, id), eq(invitations.companyId, auth.companyId), isNull(invitations.acceptedAt), isNull(invitations.cancelledAt)))
    .returning({ id: invitations.id });
  if (cancelled.length === 0) throw new AppError('not_found', { reason: 'invitation_not_found' });
}

/**
 * Changes a member's role. The last owner cannot be demoted. Takes effect at once: the change is
 * announced under the company (migration 0030), and the member's next call is checked with the new role.
 */
export async function changeRole(ctx: AppContext, auth: CallerAuth, userId: string, role: TRole): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await lockCompany(tx, auth.companyId);
    const member = await findMember(tx, auth.companyId, userId);
    if (member.role === role) return;
    if (member.role === 'owner' && (await ownerCount(tx, auth.companyId)) <= 1) throw new AppError('conflict', { reason: 'last_owner' });
    await tx.update(memberships).set({ role }).where(eq(memberships.id, member.id));
    await recordActivity(tx, auth.companyId, 'member.role_changed', { user_id: userId, email: await emailOf(tx, userId), role, previous_role: member.role }, { actorUserId: auth.userId });
  });
}

/**
 * Removes a member (or lets a member leave: an owner may remove themself while another owner remains).
 * Takes effect at once: their sessions in this company are ended, so the next call is refused and their
 * refresh gives no token for it.
 */
export async function removeMember(ctx: AppContext, auth: CallerAuth, userId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await lockCompany(tx, auth.companyId);
    const member = await findMember(tx, auth.companyId, userId);
    if (member.role === 'owner' && (await ownerCount(tx, auth.companyId)) <= 1) throw new AppError('conflict', { reason: 'last_owner' });
    await tx.delete(memberships).where(eq(memberships.id, member.id));
    await recordActivity(tx, auth.companyId, 'member.removed', { user_id: userId, email: await emailOf(tx, userId), role: member.role }, { actorUserId: auth.userId });
    await tx
      .update(refreshTokenFamilies)
      .set({ revokedAt: new Date(), revokedReason: 'removed' })
      .where(
        and(eq(refreshTokenFamilies.userId, userId), eq(refreshTokenFamilies.companyId, auth.companyId), isNull(refreshTokenFamilies.revokedAt)),
      );
  });
}

/* ------------------------------------------------------------------ invitations from their link */

/** The invitation a link names, when it can still be accepted; otherwise the reason it cannot. */
async function usableInvitation(db: DbOrTx, token: string, lock = false) {
  const query = db
    .select({ invitation: invitations, company: companies })
    .from(invitations)
    .innerJoin(companies, eq(companies.id, invitations.companyId))
    .where(eq(invitations.tokenHash, hashToken(token)))
    .limit(1);
  const [row] = lock ? await query.for('update', { of: invitations }) : await query;
  if (!row) throw new AppError('not_found', { reason: 'invitation_invalid' });
  if (row.invitation.acceptedAt) throw new AppError('conflict', { reason: 'invitation_used' });
  if (row.invitation.cancelledAt) throw new AppError('conflict', { reason: 'invitation_cancelled' });
  if (row.invitation.expiresAt.getTime() <= Date.now()) throw new AppError('conflict', { reason: 'invitation_expired' });
  return row;
}

/** The invitation a link names, when it can still be accepted (locked until the transaction ends). */
export async function invitedTo(tx: DbOrTx, token: string): Promise<InvitationRow> {
  return (await usableInvitation(tx, token, true)).invitation;
}

/** What a link invites to, for the invitation page (no session needed: the token is the proof). */
export async function previewInvitation(ctx: AppContext, token: string): Promise<TInvitationPreview> {
  const { invitation, company } = await usableInvitation(ctx.db, token);
  const accountExists = (await ctx.db.$count(users, sql`lower(${users.email}) = lower(${invitation.email})`)) > 0;
  return {
    companyName: company.name,
    email: invitation.email,
    role: invitation.role,
    expiresAt: invitation.expiresAt.toISOString(),
    accountExists,
  };
}

/**
 * Adds the membership an invitation offers to a user whose e-mail is the invited one, in `tx`, and
 * marks the invitation used (locked, so it is used once). A person already a member keeps their role.
 */
export async function joinByInvitation(tx: DbOrTx, token: string, user: { id: string; email: string }): Promise<{ companyId: string; role: TRole }> {
  const { invitation } = await usableInvitation(tx, token, true);
  if (!sameEmail(invitation.email, user.email)) {
    throw new AppError('no_permission', { reason: 'invitation_email_mismatch', params: { email: invitation.email } });
  }
  const [added] = await tx
    .insert(memberships)
    .values({ companyId: invitation.companyId, userId: user.id, role: invitation.role })
    .onConflictDoNothing({ target: [memberships.companyId, memberships.userId] })
    .returning({ id: memberships.id });
  // The activity log (decision 220): every way of accepting (sign-in, sign-up, Google) comes through here.
  if (added) {
    await recordActivity(
      tx,
      invitation.companyId,
      'member.added',
      { user_id: user.id, email: user.email, role: invitation.role, invited_by: invitation.invitedBy },
      { actorUserId: user.id },
    );
  }
  await tx.update(invitations).set({ acceptedAt: new Date() }).where(eq(invitations.id, invitation.id));
  const member = await findMember(tx, invitation.companyId, user.id);
  return { companyId: invitation.companyId, role: member.role };
}

/**
 * Accepts an invitation with the session of the invited e-mail: the membership is added, the session
 * moves to the invited company, and a new access token names it.
 */
export async function acceptInvitation(ctx: AppContext, auth: CallerAuth, token: string): Promise<{ token: string; companyId: string; role: TRole }> {
  return ctx.db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, auth.userId)).limit(1);
    if (!user) throw new AppError('unauthorized', { message: 'This account no longer exists.', errorKey: 'userNotFound' });
    const joined = await joinByInvitation(tx, token, user);
    await tx
      .update(refreshTokenFamilies)
      .set({ companyId: joined.companyId })
      .where(and(eq(refreshTokenFamilies.id, auth.sessionId), eq(refreshTokenFamilies.userId, auth.userId)));
    const access = await signAccessToken(ctx.secrets.jwt, { userId: auth.userId, companyId: joined.companyId, sessionId: auth.sessionId });
    return { token: access, ...joined };
  });
}

