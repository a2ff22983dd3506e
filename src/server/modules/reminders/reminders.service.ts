import { and, eq, gt, isNotNull, sql } from 'drizzle-orm';
import {
  REMINDER_DAY_MAX,
  REMINDER_DAY_MIN,
  REMINDER_DAYS_MAX_ENTRIES,
  isKnownTimeZone,
  type TReminderSettings,
  type TReminderSettingsBody,
} from '../../../contract/api/reminders.schema.js';
import type { AppContext } from '../../context.js';
import { companies, emailUnsubscribes, testimonialRequests } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { recordRequestEvent } from '../funnel/events.js';
import { isUnsubscribed, queueReminder } from '../requests/requests.service.js';
import { reminderDecision } from './schedule.js';
import { requestOfUnsubscribeToken } from './unsubscribe-link.js';

/**
 * Automatic reminders (issue 30, decision 194): the company's setting, and the sweep the scheduled job
 * runs every few minutes, with the clock as a parameter. Unsubscribing (decision 195): the token of an
 * e-mail's link or one-click header removes the request's address from the company's reminders.
 */

/* ------------------------------------------------------------------ the setting */

export async function getReminderSettings(ctx: AppContext, companyId: string): Promise<TReminderSettings> {
  const [company] = await ctx.db.select({ days: companies.reminderDays, timeZone: companies.timeZone }).from(companies).where(eq(companies.id, companyId));
  if (!company) throw new AppError('not_found', { message: 'Your company no longer exists.' });
  return { reminder_days: company.days, time_zone: company.timeZone };
}

/** The rules of the setting, answered with translated reasons (the body's schema checks the shape only). */
export function checkReminderSettings(body: TReminderSettingsBody): TReminderSettings {
  const days = body.reminder_days;
  const valid =
    days.length <= REMINDER_DAYS_MAX_ENTRIES &&
    days.every((day, i) => Number.isInteger(day) && day >= REMINDER_DAY_MIN && day <= REMINDER_DAY_MAX && (i === 0 || day > days[i - 1]!));
  if (!valid) throw new AppError('invalid_data', { reason: 'reminder_days_invalid', field: 'reminder_days' });
  if (!isKnownTimeZone(body.time_zone)) throw new AppError('invalid_data', { reason: 'time_zone_invalid', field: 'time_zone' });
  return { reminder_days: days, time_zone: body.time_zone };
}

/** Changes the company's reminder days and time zone. Requests already sent keep their own time zone. */
export async function updateReminderSettings(ctx: AppContext, input: { companyId: string; body: TReminderSettingsBody }): Promise<TReminderSettings> {
  const settings = checkReminderSettings(input.body);
  const [row] = await ctx.db
    .update(companies)
    .set({ reminderDays: settings.reminder_days, timeZone: settings.time_zone, updatedAt: new Date() })
    .where(eq(companies.id, input.companyId))
    .returning({ days: companies.reminderDays, timeZone: companies.timeZone });
  if (!row) throw new AppError('not_found', { message: 'Your company no longer exists.' });
  return { reminder_days: row.days, time_zone: row.timeZone };
}

/* ------------------------------------------------------------------ the sweep */

/** At most this many requests are looked at per sweep; the next sweep takes the rest. */
export const SWEEP_BATCH = 500;

/**
 * Sends every automatic reminder due at `now`. The candidates come from one query (pending, unexpired,
 * with an address, an automatic reminder left, its day passed, no reminder in the last 24 hours, not
 * unsubscribed); each is then locked on its own (`for update skip locked`: a request another worker is
 * reminding is skipped, not waited for), decided again by `reminderDecision` on the locked row, and
 * reminded by `queueReminder` (conditional update, e-mail and event in one transaction).
 * Returns the ids of the requests reminded.
 */
export async function runReminderSweep(ctx: AppContext, now: Date): Promise<string[]> {
  const dayBefore = new Date(now.getTime() - 86_400_000);
  const candidates = await ctx.db
    .select({ id: testimonialRequests.id })
    .from(testimonialRequests)
    .innerJoin(companies, eq(companies.id, testimonialRequests.companyId))
    .where(
      and(
        eq(testimonialRequests.status, 'pending'),
        gt(testimonialRequests.expiresAt, now),
        isNotNull(testimonialRequests.customerEmail),
        sql`${testimonialRequests.autoReminderCount} < jsonb_array_length(${companies.reminderDays})`,
        sql`${testimonialRequests.createdAt} + make_interval(days => (${companies.reminderDays} ->> ${testimonialRequests.autoReminderCount})::int) <= ${now.toISOString()}::timestamptz`,
        sql`(${testimonialRequests.lastReminderSent} is null or ${testimonialRequests.lastReminderSent} <= ${dayBefore.toISOString()}::timestamptz)`,
        sql`not exists (select 1 from ${emailUnsubscribes} u where u.company_id = ${testimonialRequests.companyId} and u.email = lower(${testimonialRequests.customerEmail}))`,
      ),
    )
    .orderBy(testimonialRequests.createdAt)
    .limit(SWEEP_BATCH);

  const reminded: string[] = [];
  for (const { id } of candidates) {
    const done = await ctx.database.transaction(async (executeSql, tx) => {
      const [row] = await tx.select().from(testimonialRequests).where(eq(testimonialRequests.id, id)).for('update', { skipLocked: true });
      if (!row) return false;
      const [company] = await tx.select({ days: companies.reminderDays }).from(companies).where(eq(companies.id, row.companyId));
      const unsubscribed = row.customerEmail ? await isUnsubscribed(tx, row.companyId, row.customerEmail) : false;
      const decision = reminderDecision(row, company?.days ?? [], now, unsubscribed);
      if (!decision.due) return false;
      return (await queueReminder(ctx, tx, executeSql, row, { automatic: true, now })) !== null;
    });
    if (done) reminded.push(id);
  }
  if (reminded.length) ctx.logger.info({ reminded: reminded.length, at: now.toISOString() }, 'automatic reminders sent');
  return reminded;
}

/* ------------------------------------------------------------------ unsubscribing */

export interface UnsubscribeView {
  requestId: string;
  lang: 'en' | 'fr';
  company: { name: string; logoUrl: string | null };
  /** The address, partly hidden, for the page to say which one. */
  maskedEmail: string | null;
  unsubscribedAt: Date | null;
}

/** Shows "j•••@example.com": enough to recognise one's address, not enough to read someone else's. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email[0]}${'•'.repeat(Math.min(6, Math.max(3, at - 1)))}${email.slice(at)}`;
}

async function requestOfToken(ctx: AppContext, token: string) {
  const requestId = requestOfUnsubscribeToken(ctx.secrets.jwt, token);
  if (!requestId) return null;
  const [row] = await ctx.db
    .select({ request: testimonialRequests, company: companies })
    .from(testimonialRequests)
    .innerJoin(companies, eq(companies.id, testimonialRequests.companyId))
    .where(eq(testimonialRequests.id, requestId));
  return row ?? null;
}

/** What the unsubscribe page shows for a token, or null for a token we did not issue (or a deleted request). */
export async function loadUnsubscribe(ctx: AppContext, token: string, logoUrlOf: (company: typeof companies.$inferSelect) => string | null): Promise<UnsubscribeView | null> {
  const found = await requestOfToken(ctx, token);
  if (!found) return null;
  const { request, company } = found;
  const email = request.customerEmail?.trim().toLowerCase() ?? null;
  let unsubscribedAt: Date | null = null;
  if (email) {
    const [row] = await ctx.db
      .select({ at: emailUnsubscribes.createdAt })
      .from(emailUnsubscribes)
      .where(and(eq(emailUnsubscribes.companyId, company.id), eq(emailUnsubscribes.email, email)));
    unsubscribedAt = row?.at ?? null;
  }
  return {
    requestId: request.id,
    lang: request.language === 'french' ? 'fr' : 'en',
    company: { name: company.name, logoUrl: logoUrlOf(company) },
    maskedEmail: email ? maskEmail(email) : null,
    unsubscribedAt,
  };
}

/**
 * Unsubscribes the address of the token's request from its company's reminders: idempotent (a second
 * call changes nothing and records nothing), harmless (it only ever stops e-mails). Returns null for a
 * token we did not issue, else whether this call changed anything.
 */
export async function unsubscribe(ctx: AppContext, token: string, via: 'page' | 'one_click', now = new Date()): Promise<{ changed: boolean } | null> {
  const found = await requestOfToken(ctx, token);
  if (!found) return null;
  const { request } = found;
  const email = request.customerEmail?.trim().toLowerCase();
  if (!email) return { changed: false };
  return ctx.database.transaction(async (_executeSql, tx) => {
    const inserted = await tx
      .insert(emailUnsubscribes)
      .values({ companyId: request.companyId, email, createdAt: now })
      .onConflictDoNothing()
      .returning({ email: emailUnsubscribes.email });
    if (!inserted.length) return { changed: false };
    await recordRequestEvent(tx, { companyId: request.companyId, requestId: request.id, kind: 'unsubscribed', language: request.language, detail: { via }, at: now });
    return { changed: true };
  });
}
