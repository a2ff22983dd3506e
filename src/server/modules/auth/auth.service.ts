import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { TUser } from '../../../contract/api/auth.schema.js';
import type { TRole } from '../../../contract/api/members.schema.js';
import type { TLanguage } from '../../../contract/constants.js';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import {
  companies,
  creditTransactions,
  emailTokens,
  memberships,
  refreshTokenFamilies,
  refreshTokens,
  users,
  videoStyleSettings,
} from '../../db/schema.js';
import { uniqueViolation } from '../../lib/db-errors.js';
import { AppError } from '../../lib/errors.js';
import { queueMail } from '../../mail/send.js';
import { defaultStyleRow } from '../settings/default-style.js';
import { confirmationEmail, resetPasswordEmail } from './auth.emails.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { discardUnconfirmedAccount } from './unconfirmed-account.js';
import { myCompanies } from '../members/companies.service.js';
import { invitedTo, joinByInvitation } from '../members/members.service.js';
import { isSessionId } from './sessions.js';
import { hashToken, randomToken, signAccessToken, signStatement, verifyAccessToken, verifyStatement } from './tokens.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const CONFIRM_TTL_MS = DAY;
export const RESET_TTL_MS = HOUR;
/** The shortest time between two reset e-mails to one account (see `forgotPassword`). */
export const RESET_MAIL_COOLDOWN_MS = 5 * 60_000;
/**
 * The shortest time between two confirmation e-mails while the last one is valid: short, since a
 * person who just signed up and sees no mail asks again within a minute or two.
 */
export const CONFIRM_MAIL_COOLDOWN_MS = 60_000;
export const REMEMBER_ME_TTL_MS = 30 * DAY;
export const SESSION_TTL_MS = DAY;
const GOOGLE_SIGNUP_TTL_SECONDS = 30 * 60;

type UserRow = typeof users.$inferSelect;
type CompanyRow = typeof companies.$inferSelect;

export function toUser(user: UserRow, company: CompanyRow): TUser {
  return {
    id: user.id,
    company_id: company.id,
    email: user.email,
    firstname: user.firstname,
    lastname: user.lastname,
    avatar_url: user.avatarUrl,
    onboarding_completed: user.onboardingCompleted,
    email_confirmed: user.emailConfirmedAt !== null,
    mail_language: company.mailLanguage === 'fr' ? 'fr' : 'en',
    company: { id: company.id, name: company.name, approval_required: company.approvalRequired },
  };
}

const authError = (
  status: number,
  errorKey: ConstructorParameters<typeof AppError>[1]['errorKey'],
  message: string,
  code: ConstructorParameters<typeof AppError>[0] = status === 401 ? 'unauthorized' : 'invalid_data',
) => new AppError(code, { status, message, ...(errorKey ? { errorKey } : {}) });

async function findUserByEmail(db: DbOrTx, email: string) {
  const [row] = await db
    .select({ user: users, company: companies })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return row;
}

export async function findUserById(db: DbOrTx, userId: string) {
  const [row] = await db
    .select({ user: users, company: companies })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

/**
 * A single-use e-mail link token. A new link never cancels the earlier ones (anyone can ask for one, and
 * that must not cancel the link the owner is about to follow): each works until it is used or expires.
 * Using a reset link ends the others (`resetPassword`); once the e-mail is confirmed, the other
 * confirmation links only say so.
 */
async function createEmailToken(tx: DbOrTx, userId: string, purpose: 'confirm_email' | 'reset_password', ttlMs: number) {
  const token = randomToken();
  await tx.insert(emailTokens).values({ userId, purpose, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + ttlMs) });
  return token;
}

/**
 * The company a new sign-in works in (issue 32, decision 215): the one asked for (an accepted
 * invitation), else the user's own company (`users.company_id`: the one they signed up with) while they
 * are a member of it, else the company they joined first. None: the user belongs to no company any more.
 */
export async function landingCompany(db: DbOrTx, user: Pick<UserRow, 'id' | 'companyId'>, preferred?: string): Promise<string> {
  const rows = await db
    .select({ companyId: memberships.companyId })
    .from(memberships)
    .where(eq(memberships.userId, user.id))
    .orderBy(memberships.createdAt, memberships.companyId);
  const ids = rows.map((row) => row.companyId);
  const chosen = [preferred, user.companyId].find((id) => id && ids.includes(id)) ?? ids[0];
  if (!chosen) throw new AppError('no_permission', { reason: 'not_a_member' });
  return chosen;
}

/** Starts a refresh-token family (one sign-in) in a company the user belongs to, and returns the pair of tokens. */
export async function startSession(ctx: AppContext, tx: DbOrTx, user: UserRow, rememberMe: boolean, preferredCompany?: string) {
  const companyId = await landingCompany(tx, user, preferredCompany);
  const [family] = await tx
    .insert(refreshTokenFamilies)
    .values({
      userId: user.id,
      companyId,
      rememberMe,
      expiresAt: new Date(Date.now() + (rememberMe ? REMEMBER_ME_TTL_MS : SESSION_TTL_MS)),
    })
    .returning({ id: refreshTokenFamilies.id });
  if (!family) throw new Error('refresh family not created');
  const refreshToken = randomToken();
  await tx.insert(refreshTokens).values({ familyId: family.id, tokenHash: hashToken(refreshToken) });
  const token = await signAccessToken(ctx.secrets.jwt, { userId: user.id, companyId, sessionId: family.id });
  return { token, refreshToken, companyId };
}

export interface GoogleSignupClaims {
  sub: string;
  email: string;
  email_verified: boolean;
  firstname: string;
  lastname: string;
  picture: string | null;
}

export function signGoogleSignupToken(ctx: AppContext, claims: GoogleSignupClaims): Promise<string> {
  return signStatement(ctx.secrets.jwt, 'google_signup', { ...claims }, GOOGLE_SIGNUP_TTL_SECONDS);
}

export interface SignupInput {
  firstname: string;
  lastname: string;
  email: string;
  companyName?: string | undefined;
  invitation?: string | undefined;
  password?: string | undefined;
  lang: TLanguage;
  fromGoogle?: boolean | undefined;
  googleId?: string | undefined;
  picture?: string | null | undefined;
  accessToken?: string | undefined;
}

/**
 * Signs up by an invitation (issue 32), inside the sign-up's transaction: no company is created; the
 * account belongs to the inviting company (its `users.company_id`) with the invited role, its e-mail
 * counts as confirmed (the link was sent to it), and a session opens in that company at once.
 */
async function joinBySignup(
  ctx: AppContext,
  tx: DbOrTx,
  input: SignupInput,
  invitationToken: string,
  email: string,
  passwordHash: string | null,
  google: GoogleSignupClaims | undefined,
) {
  const invitation = await invitedTo(tx, invitationToken);
  if (invitation.email.toLowerCase() !== email.toLowerCase()) {
    throw new AppError('no_permission', { reason: 'invitation_email_mismatch', params: { email: invitation.email } });
  }
  const [user] = await tx
    .insert(users)
    .values({
      companyId: invitation.companyId,
      email,
      passwordHash,
      firstname: input.firstname,
      lastname: input.lastname,
      avatarUrl: google ? google.picture || input.picture || null : null,
      googleSub: google?.sub ?? null,
      emailConfirmedAt: new Date(),
      language: input.lang,
    })
    .returning();
  if (!user) throw new Error('user not created');
  const joined = await joinByInvitation(tx, invitationToken, user);
  const [company] = await tx.select().from(companies).where(eq(companies.id, joined.companyId)).limit(1);
  const { token, refreshToken } = await startSession(ctx, tx, user, Boolean(google), joined.companyId);
  return { user: toUser(user, company!), token, refreshToken };
}

/**
 * Creates the company and its first user in one transaction, grants the sign-up credits and sends the
 * confirmation e-mail. The Google variant trusts the e-mail Google verified and opens a session at once.
 */
export async function signup(ctx: AppContext, input: SignupInput) {
  let google: GoogleSignupClaims | undefined;
  if (input.fromGoogle) {
    const verified = await verifyStatement(ctx.secrets.jwt, 'google_signup', input.accessToken ?? '');
    if (!verified.ok) {
      throw authError(401, 'tokenExpired', 'Your Google sign-in has expired. Please sign in with Google again.');
    }
    google = verified.claims as unknown as GoogleSignupClaims;
    if (input.googleId && input.googleId !== google.sub) {
      throw authError(400, 'invalidRequest', 'The Google account does not match this sign-up. Please sign in with Google again.');
    }
    if (!google.email_verified) {
      throw authError(409, 'providerConflict', 'Google has not verified this e-mail address, so it cannot be used to sign up.');
    }
  }
  const email = google ? google.email : input.email;
  const passwordHash = google ? null : await hashPassword(input.password ?? '');

  // The account and its confirmation e-mail commit together (the mail job is sent in the transaction).
  const result = await ctx.database
    .transaction(async (executeSql, tx) => {
      // Google proved the address: an unconfirmed account someone opened with it is not the owner's
      // (pre-hijack), and gives way instead of blocking the sign-up (see unconfirmed-account.ts).
      if (google) await discardUnconfirmedAccount(tx, email);
      if (input.invitation) return joinBySignup(ctx, tx, input, input.invitation, email, passwordHash, google);
      const [company] = await tx
        .insert(companies)
        .values({ name: input.companyName ?? '', mailLanguage: input.lang, credits: ctx.config.freeCredits })
        .returning();
      if (!company) throw new Error('company not created');
      const [user] = await tx
        .insert(users)
        .values({
          companyId: company.id,
          email,
          passwordHash,
          firstname: input.firstname,
          lastname: input.lastname,
          avatarUrl: google ? google.picture || input.picture || null : null,
          googleSub: google?.sub ?? null,
          emailConfirmedAt: google ? new Date() : null,
          language: input.lang,
        })
        .returning();
      if (!user) throw new Error('user not created');
      // The person who signs up owns the company they create (issue 32).
      await tx.insert(memberships).values({ companyId: company.id, userId: user.id, role: 'owner' });
      await tx.insert(videoStyleSettings).values(defaultStyleRow(company.id));
      if (ctx.config.freeCredits > 0) {
        await tx.insert(creditTransactions).values({
          companyId: company.id,
          transactionType: 'signup_bonus',
          credits: ctx.config.freeCredits,
          // Shown as is in the transactions list: the number of credits, like a testimonial payment.
          amount: ctx.config.freeCredits,
          currency: 'credit',
        });
      }
      if (google) {
        const { token, refreshToken } = await startSession(ctx, tx, user, true);
        return { user: toUser(user, company), token, refreshToken };
      }
      const confirmToken = await createEmailToken(tx, user.id, 'confirm_email', CONFIRM_TTL_MS);
      await queueMail(
        ctx,
        confirmationEmail({
          lang: input.lang,
          brand: ctx.config.brandName,
          to: email,
          firstname: input.firstname,
          url: `${ctx.config.appUrl}/api/auth/confirm-email?token=${confirmToken}`,
        }),
        { executeSql },
      );
      return { user: toUser(user, company) };
    })
    .catch((error: unknown) => {
      const constraint = uniqueViolation(error);
      if (constraint === 'companies_name_lower_uq') {
        throw new AppError('name_exists', { message: 'A company with this name already exists. Please choose another name.', field: 'companyName' });
      }
      if (constraint === 'users_email_lower_uq' || constraint === 'users_google_sub_uq') {
        throw authError(409, 'emailExists', 'An account with this e-mail address already exists. Sign in instead.', 'duplicate_record');
      }
      throw error;
    });
  return result;
}

export type ConfirmOutcome = { outcome: 'confirmed' | 'expired' | 'used' | 'invalid'; email?: string };

/** Follows a confirmation link: confirms the e-mail once; says why when it cannot. */
export async function confirmEmail(ctx: AppContext, token: string): Promise<ConfirmOutcome> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ t: emailTokens, email: users.email, confirmedAt: users.emailConfirmedAt })
      .from(emailTokens)
      .innerJoin(users, eq(users.id, emailTokens.userId))
      .where(and(eq(emailTokens.tokenHash, hashToken(token)), eq(emailTokens.purpose, 'confirm_email')))
      .for('update', { of: emailTokens })
      .limit(1);
    if (!row) return { outcome: 'invalid' };
    if (row.t.usedAt) return row.confirmedAt ? { outcome: 'used', email: row.email } : { outcome: 'expired', email: row.email };
    if (row.t.expiresAt.getTime() < Date.now()) return { outcome: 'expired', email: row.email };
    await tx.update(emailTokens).set({ usedAt: new Date() }).where(eq(emailTokens.id, row.t.id));
    await tx
      .update(users)
      .set({ emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, now())`, updatedAt: new Date() })
      .where(eq(users.id, row.t.userId));
    return { outcome: 'confirmed', email: row.email };
  });
}

/** Whether a link of this purpose, still valid, went to the user within the last `ms` (the e-mail cool-down). */
async function linkSentWithin(db: DbOrTx, userId: string, purpose: 'confirm_email' | 'reset_password', ms: number): Promise<boolean> {
  const [recent] = await db
    .select({ id: emailTokens.id })
    .from(emailTokens)
    .where(
      and(
        eq(emailTokens.userId, userId),
        eq(emailTokens.purpose, purpose),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, new Date()),
        gt(emailTokens.createdAt, new Date(Date.now() - ms)),
      ),
    )
    .limit(1);
  return recent !== undefined;
}

/**
 * Sends a new confirmation link when the account exists and is unconfirmed; answers the same otherwise.
 * Like reset links: at most one e-mail per account every CONFIRM_MAIL_COOLDOWN_MS whoever asks, and the
 * links already sent keep working, so a stranger's requests never cancel or block the owner's.
 */
export async function resendConfirmation(ctx: AppContext, input: { email: string; lang: TLanguage }): Promise<void> {
  const found = await findUserByEmail(ctx.db, input.email);
  if (!found || found.user.emailConfirmedAt) return;
  if (await linkSentWithin(ctx.db, found.user.id, 'confirm_email', CONFIRM_MAIL_COOLDOWN_MS)) return;
  await ctx.database.transaction(async (executeSql, tx) => {
    const token = await createEmailToken(tx, found.user.id, 'confirm_email', CONFIRM_TTL_MS);
    await queueMail(
      ctx,
      confirmationEmail({
        lang: input.lang,
        brand: ctx.config.brandName,
        to: found.user.email,
        firstname: found.user.firstname,
        url: `${ctx.config.appUrl}/api/auth/confirm-email?token=${token}`,
      }),
      { executeSql },
    );
  });
}

/** E-mail without regard to case; unknown e-mail and wrong password take the same path and time. */
export async function signin(ctx: AppContext, input: { email: string; password: string; rememberMe?: boolean | undefined }) {
  const found = await findUserByEmail(ctx.db, input.email);
  const ok = await verifyPassword(found?.user.passwordHash, input.password);
  if (!found || !ok) throw authError(401, 'incorrectCredentials', 'The e-mail or password is incorrect.');
  if (!found.user.emailConfirmedAt) {
    throw authError(403, 'emailUnconfirmed', 'Please confirm your e-mail address first: use the link we sent you.', 'no_permission');
  }
  return signedIn(ctx, found.user, input.rememberMe ?? false);
}

/** A new session for a user who proved who they are, in the company they land in, with that company in the answer. */
async function signedIn(ctx: AppContext, user: UserRow, rememberMe: boolean, preferredCompany?: string) {
  const { token, refreshToken, companyId } = await ctx.db.transaction((tx) => startSession(ctx, tx, user, rememberMe, preferredCompany));
  const [company] = await ctx.db.select().from(companies).where(eq(companies.id, companyId)).limit(1);
  if (!company) throw sessionExpired();
  return { token, refreshToken, user: toUser(user, company) };
}

/** Signs in a user who proved their identity elsewhere (Google). */
export async function openSession(ctx: AppContext, userId: string, rememberMe: boolean, preferredCompany?: string) {
  const found = await findUserById(ctx.db, userId);
  if (!found) throw authError(401, 'userNotFound', 'This account no longer exists.');
  return signedIn(ctx, found.user, rememberMe, preferredCompany);
}

const sessionExpired = () => authError(401, 'sessionExpired', 'Your session has expired. Please sign in again.');

/**
 * Rotates a refresh token. Presenting a token that was already rotated means it was copied: the whole
 * family (that sign-in) is revoked.
 */
export async function refresh(ctx: AppContext, refreshToken: string) {
  const outcome = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ token: refreshTokens, family: refreshTokenFamilies, user: users })
      .from(refreshTokens)
      .innerJoin(refreshTokenFamilies, eq(refreshTokenFamilies.id, refreshTokens.familyId))
      .innerJoin(users, eq(users.id, refreshTokenFamilies.userId))
      .where(eq(refreshTokens.tokenHash, hashToken(refreshToken)))
      .for('update', { of: [refreshTokens, refreshTokenFamilies] })
      .limit(1);
    if (!row || row.family.revokedAt || row.family.expiresAt.getTime() < Date.now()) return { kind: 'expired' as const };
    // The company this sign-in works in: a removed member gets no new token for it (issue 32).
    const companyId = row.family.companyId ?? row.user.companyId;
    const [member] = await tx
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.companyId, companyId), eq(memberships.userId, row.user.id)))
      .limit(1);
    if (!member) return { kind: 'expired' as const };
    if (row.token.rotatedAt) {
      await tx
        .update(refreshTokenFamilies)
        .set({ revokedAt: new Date(), revokedReason: 'reuse' })
        .where(eq(refreshTokenFamilies.id, row.family.id));
      return { kind: 'reuse' as const, userId: row.user.id };
    }
    await tx.update(refreshTokens).set({ rotatedAt: new Date() }).where(eq(refreshTokens.id, row.token.id));
    const next = randomToken();
    await tx.insert(refreshTokens).values({ familyId: row.family.id, tokenHash: hashToken(next) });
    const token = await signAccessToken(ctx.secrets.jwt, { userId: row.user.id, companyId, sessionId: row.family.id });
    return { kind: 'ok' as const, token, refreshToken: next };
  });
  if (outcome.kind === 'reuse') {
    ctx.logger.warn({ userId: outcome.userId }, 'refresh token reuse: session family revoked');
    throw sessionExpired();
  }
  if (outcome.kind === 'expired') throw sessionExpired();
  return { token: outcome.token, refreshToken: outcome.refreshToken };
}

/**
 * Ends this device's session: the family of the presented refresh token, and the session the presented
 * access token names (a valid one: it proves that session). Its access tokens stop working at once
 * (auth-guard checks the session on every call).
 */
export async function signout(ctx: AppContext, input: { refreshToken?: string | undefined; accessToken?: string | undefined }): Promise<void> {
  const sessions: string[] = [];
  if (input.refreshToken) {
    const [row] = await ctx.db
      .select({ familyId: refreshTokens.familyId })
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, hashToken(input.refreshToken)))
      .limit(1);
    if (row) sessions.push(row.familyId);
  }
  if (input.accessToken) {
    const verified = await verifyAccessToken(ctx.secrets.jwt, input.accessToken);
    if (verified.ok && isSessionId(verified.claims.sessionId)) sessions.push(verified.claims.sessionId);
  }
  if (!sessions.length) return;
  await ctx.db
    .update(refreshTokenFamilies)
    .set({ revokedAt: new Date(), revokedReason: 'signout' })
    .where(and(inArray(refreshTokenFamilies.id, [...new Set(sessions)]), isNull(refreshTokenFamilies.revokedAt)));
}

export async function me(
  ctx: AppContext,
  input: { userId: string; companyId: string; role: TRole; token: string; refreshToken?: string | undefined },
) {
  const found = await findUserById(ctx.db, input.userId);
  if (!found) throw authError(401, 'userNotFound', 'This account no longer exists.');
  const [active] = await ctx.db.select().from(companies).where(eq(companies.id, input.companyId)).limit(1);
  if (!active) throw sessionExpired();
  return {
    user: toUser(found.user, active),
    role: input.role,
    companies: await myCompanies(ctx.db, input.userId),
    token: input.token,
    ...(input.refreshToken ? { refreshToken: input.refreshToken } : {}),
  };
}

/**
 * Sends a reset link when the account exists; the answer and its timing do not tell. At most one link
 * per account every RESET_MAIL_COOLDOWN_MS, whoever asks: asking again sooner sends nothing, and the
 * owner follows the link already sent, which stays valid (earlier links are not cancelled). The
 * cool-down is far shorter than a link's life, so whoever floods this the owner always holds a link
 * valid for most of an hour, and never has to wait for one longer than the cool-down.
 */
export async function forgotPassword(ctx: AppContext, input: { email: string; lang: TLanguage }): Promise<void> {
  const found = await findUserByEmail(ctx.db, input.email);
  if (!found) return;
  if (await linkSentWithin(ctx.db, found.user.id, 'reset_password', RESET_MAIL_COOLDOWN_MS)) return;
  await ctx.database.transaction(async (executeSql, tx) => {
    const token = await createEmailToken(tx, found.user.id, 'reset_password', RESET_TTL_MS);
    await queueMail(
      ctx,
      resetPasswordEmail({
        lang: input.lang,
        brand: ctx.config.brandName,
        to: found.user.email,
        firstname: found.user.firstname,
        url: `${ctx.config.appUrl}/reset-password#access_token=${token}`,
      }),
      { executeSql },
    );
  });
}

/**
 * Sets the new password once per link, confirms the e-mail (the link proved it), ends the user's other
 * reset links and signs out everywhere: every session is revoked, so its refresh tokens and its access
 * tokens stop working at once.
 */
export async function resetPassword(ctx: AppContext, input: { token: string; newPassword: string }): Promise<void> {
  const passwordHash = await hashPassword(input.newPassword);
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(emailTokens)
      .where(and(eq(emailTokens.tokenHash, hashToken(input.token)), eq(emailTokens.purpose, 'reset_password')))
      .for('update')
      .limit(1);
    if (!row || row.usedAt || row.expiresAt.getTime() < Date.now()) {
      throw authError(400, 'tokenExpired', 'The reset password link is invalid or expired. Please request a new one.');
    }
    await tx
      .update(emailTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(emailTokens.userId, row.userId), eq(emailTokens.purpose, 'reset_password'), isNull(emailTokens.usedAt)));
    await tx
      .update(users)
      .set({ passwordHash, emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, now())`, updatedAt: new Date() })
      .where(eq(users.id, row.userId));
    await tx
      .update(refreshTokenFamilies)
      .set({ revokedAt: new Date(), revokedReason: 'password_reset' })
      .where(and(eq(refreshTokenFamilies.userId, row.userId), isNull(refreshTokenFamilies.revokedAt)));
  });
}
