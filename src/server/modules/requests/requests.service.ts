import { and, asc, desc, eq, inArray, isNull, lte } from 'drizzle-orm';
import type { TTestimonialRequestSafe } from '../../../contract/api/testimonials.schema.js';
import { EMAIL_NEEDED_FOR_DELIVERY_MESSAGE, ZRequestsListResponse, type TRequestDelivery } from '../../../contract/api/requests.schema.js';
import { DEFAULT_REQUEST_EXPIRY_DAYS, type TLanguage, type TRequestLanguage } from '../../../contract/constants.js';
import { questionTextIn } from '../../../contract/question-text.js';
import type { AppContext } from '../../context.js';
import type { Db, ExecuteSql } from '../../db/client.js';
import { companies, emailUnsubscribes, questions, requestQuestions, testimonialRequests, videoStyleSettings } from '../../db/schema.js';
import { jsonText } from '../../http/json-text.js';
import { AppError } from '../../lib/errors.js';
import { queueMail } from '../../mail/send.js';
import { randomToken } from '../auth/tokens.js';
import { recordActivity } from '../events/events.service.js';
import { recordRequestEvent } from '../funnel/events.js';
import { customerMailUnsubscribe } from '../reminders/unsubscribe-link.js';
import { logoUrl } from '../settings/settings.service.js';
import { invitationEmail } from './requests.emails.js';

type RequestRow = typeof testimonialRequests.$inferSelect;

const DAY_MS = 86_400_000;
export const REMINDER_INTERVAL_MS = DAY_MS;

/** A pending request whose expiry has passed reads as expired everywhere. */
export function effectiveStatus(row: Pick<RequestRow, 'status' | 'expiresAt'>, now = Date.now()): 'pending' | 'completed' | 'expired' {
  if (row.status === 'pending' && row.expiresAt.getTime() <= now) return 'expired';
  return row.status as 'pending' | 'completed' | 'expired';
}

/** The request as its company sees it, with its private link (only ever answered to the owning company). */
export function toRequestSafe(ctx: AppContext, row: RequestRow, now = Date.now()): TTestimonialRequestSafe {
  return {
    id: row.id,
    customer_name: row.customerName,
    customer_email: row.customerEmail,
    customer_position: row.customerPosition,
    status: effectiveStatus(row, now),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    last_reminder_sent: row.lastReminderSent?.toISOString() ?? null,
    paid: row.paid,
    language: row.language as TRequestLanguage,
    gift: row.gift,
    delivery: row.delivery === 'link' || row.delivery === 'collection' ? row.delivery : 'email',
    collection_link_id: row.collectionLinkId,
    time_zone: row.timeZone,
    link: customerLink(ctx, row.token),
    consent_withdrawn_at: row.consentWithdrawnAt?.toISOString() ?? null,
  };
}

export const customerLink = (ctx: AppContext, token: string) => `${ctx.config.appUrl}/testimonial/submit/${token}`;

async function findOwnedRequest(ctx: AppContext, companyId: string, id: string): Promise<RequestRow> {
  const [row] = await ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, id)).limit(1);
  // Another company's request is indistinguishable from one that does not exist.
  if (!row || row.companyId !== companyId) {
    throw new AppError('not_found', { message: 'This request does not exist or was deleted.' });
  }
  return row;
}

/** The JSON text of a list of requests, and until when it holds (the next pending request to expire). */
const listText = new WeakMap<RequestRow[], { text: string; until: number }>();

/**
 * The company's requests, newest first, as the JSON text of `TRequestsListResponse`. The rows are
 * cached (lib/read-cache.ts) with their text, which is made again once a pending request expires.
 */
export async function listRequests(ctx: AppContext, companyId: string): Promise<string> {
  const rows = await ctx.reads.read(
    `requests:${companyId}`,
    () => ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.companyId, companyId)).orderBy(desc(testimonialRequests.createdAt)),
    () => companyId,
  );
  const now = Date.now();
  const kept = listText.get(rows);
  if (kept && now < kept.until) return kept.text;
  let until = Infinity;
  for (const row of rows) {
    const expiry = row.expiresAt.getTime();
    if (row.status === 'pending' && expiry > now && expiry < until) until = expiry;
  }
  const text = jsonText(ZRequestsListResponse, rows.map((row) => toRequestSafe(ctx, row, now)));
  listText.set(rows, { text, until });
  return text;
}

export async function getRequestSafe(ctx: AppContext, companyId: string, id: string): Promise<TTestimonialRequestSafe> {
  const row = await findOwnedRequest(ctx, companyId, id);
  // The detail says whether the address unsubscribed from the company's reminders (issue 30); the list does not.
  const unsubscribed = row.customerEmail ? await unsubscribedAt(ctx, companyId, row.customerEmail) : null;
  return { ...toRequestSafe(ctx, row), email_unsubscribed_at: unsubscribed?.toISOString() ?? null };
}

async function unsubscribedAt(ctx: Pick<AppContext, 'db'>, companyId: string, email: string): Promise<Date | null> {
  const [found] = await ctx.db
    .select({ at: emailUnsubscribes.createdAt })
    .from(emailUnsubscribes)
    .where(and(eq(emailUnsubscribes.companyId, companyId), eq(emailUnsubscribes.email, email.trim().toLowerCase())))
    .limit(1);
  return found?.at ?? null;
}

export interface SendRequestInput {
  companyId: string;
  /** The member who sent it (activity log); none through an API key. */
  actorUserId?: string | undefined;
  /** 'email': the invitation is e-mailed; 'link': the company copies the link and sends it itself. */
  delivery: TRequestDelivery;
  /** Required for 'email' delivery; optional for 'link'. */
  customerEmail?: string | null | undefined;
  customerName: string;
  customerPosition?: string | null | undefined;
  questionIds: string[];
  language: TRequestLanguage;
  gift?: string | null | undefined;
  expiresInDays?: number | undefined;
}

/**
 * Stores the request with its private token and a frozen copy of the chosen questions (in the
 * company's order), then sends the invitation in the request's language, unless the company sends the
 * link itself (delivery 'link', decision 173).
 */
export async function sendRequest(ctx: AppContext, input: SendRequestInput): Promise<TTestimonialRequestSafe> {
  const customerEmail = input.customerEmail?.trim() || null;
  if (input.delivery === 'email' && !customerEmail) {
    throw new AppError('invalid_data', { message: EMAIL_NEEDED_FOR_DELIVERY_MESSAGE, field: 'customer_email' });
  }
  const token = randomToken();
  const days = input.expiresInDays ?? DEFAULT_REQUEST_EXPIRY_DAYS;
  // The request and its invitation commit together (the mail job is sent in the transaction).
  const { row } = await ctx.database.transaction(async (executeSql, tx) => {
    const chosen = await tx
      .select()
      .from(questions)
      .where(inArray(questions.id, input.questionIds))
      .orderBy(asc(questions.orderPosition));
    if (chosen.length !== input.questionIds.length) {
      throw new AppError('invalid_data', { message: 'One of the selected questions no longer exists. Reload the page and try again.', field: 'question_ids' });
    }
    if (chosen.some((q) => q.companyId !== input.companyId)) {
      throw new AppError('no_permission', { message: 'You can only send your own questions.', field: 'question_ids' });
    }
    const [company] = await tx.select().from(companies).where(eq(companies.id, input.companyId)).limit(1);
    if (!company) throw new AppError('not_found', { message: 'Your company no longer exists.' });
    const [style] = await tx.select({ bg: videoStyleSettings.backgroundColor }).from(videoStyleSettings).where(eq(videoStyleSettings.companyId, input.companyId));
    const [row] = await tx
      .insert(testimonialRequests)
      .values({
        companyId: input.companyId,
        token,
        customerName: input.customerName,
        customerEmail,
        delivery: input.delivery,
        customerPosition: input.customerPosition || null,
        language: input.language,
        gift: input.gift || null,
        backgroundColor: style?.bg ?? '#000000',
        // The company's time zone: the request's automatic reminders keep to its civil hours (issue 30).
        timeZone: company.timeZone,
        expiresAt: new Date(Date.now() + days * DAY_MS),
      })
      .returning();
    if (!row) throw new Error('request not inserted');
    const lang: TLanguage = input.language === 'french' ? 'fr' : 'en';
    await tx.insert(requestQuestions).values(
      // Each question's text in the request's language, or the other one's where it has none (decision 165).
      chosen.map((q, i) => ({
        requestId: row.id,
        questionId: q.id,
        questionText: questionTextIn({ text_en: q.textEn, text_fr: q.textFr }, lang),
        orderPosition: i + 1,
      })),
    );
    // The funnel's first step commits with the request (issue 30).
    await recordRequestEvent(tx, { companyId: row.companyId, requestId: row.id, kind: 'sent', language: row.language, detail: { via: row.delivery }, at: row.createdAt });
    // The activity log (decision 220): sent by e-mail or created as a link, by whom.
    await recordActivity(tx, row.companyId, 'request.sent', { testimonial_id: row.id, delivery: row.delivery }, { actorUserId: input.actorUserId });
    if (row.delivery === 'link' || !row.customerEmail) return { row };
    await queueMail(
      ctx,
      // The unsubscribe input also sets requestId: the SMTP server's answer (delivered or bounced) joins the request's funnel.
      invitationEmail({
        lang,
        brand: ctx.config.brandName,
        to: row.customerEmail,
        customerName: row.customerName,
        company: { name: company.name, logoUrl: logoUrl(ctx, company) },
        gift: row.gift,
        url: customerLink(ctx, token),
        expiresAt: row.expiresAt,
        questionCount: chosen.length,
        reminder: false,
        unsubscribe: customerMailUnsubscribe(ctx, row.id),
      }),
      { executeSql },
    );
    return { row };
  });

  return toRequestSafe(ctx, row);
}

/** Whether the company's customer at this address unsubscribed from its e-mails (issue 30). */
export async function isUnsubscribed(db: Pick<Db, 'select'>, companyId: string, email: string): Promise<boolean> {
  const [found] = await db
    .select({ email: emailUnsubscribes.email })
    .from(emailUnsubscribes)
    .where(and(eq(emailUnsubscribes.companyId, companyId), eq(emailUnsubscribes.email, email.trim().toLowerCase())))
    .limit(1);
  return Boolean(found);
}

/**
 * In the caller's transaction, a reminder of `row` (locked by the caller): the row's reminder counters
 * move on only if nobody else reminded it meanwhile (the update is conditional on the values read, so
 * two workers or a worker and the company never both send), then the reminder e-mail and its
 * 'reminded' event join the same transaction. Returns the updated row, or null when it lost the race.
 */
export async function queueReminder(
  ctx: AppContext,
  tx: Db,
  executeSql: ExecuteSql,
  row: RequestRow,
  options: { automatic: boolean; now: Date },
): Promise<RequestRow | null> {
  const { now, automatic } = options;
  const [updated] = await tx
    .update(testimonialRequests)
    .set({
      lastReminderSent: now,
      reminderCount: row.reminderCount + 1,
      ...(automatic ? { autoReminderCount: row.autoReminderCount + 1 } : {}),
      updatedAt: now,
    })
    .where(
      and(
        eq(testimonialRequests.id, row.id),
        eq(testimonialRequests.companyId, row.companyId),
        eq(testimonialRequests.reminderCount, row.reminderCount),
        eq(testimonialRequests.autoReminderCount, row.autoReminderCount),
        row.lastReminderSent ? lte(testimonialRequests.lastReminderSent, row.lastReminderSent) : isNull(testimonialRequests.lastReminderSent),
      ),
    )
    .returning();
  if (!updated) return null;
  const [company] = await tx.select().from(companies).where(eq(companies.id, row.companyId));
  const questionCount = await tx.$count(requestQuestions, eq(requestQuestions.requestId, row.id));
  await queueMail(
    ctx,
    invitationEmail({
      lang: updated.language === 'french' ? 'fr' : 'en',
      brand: ctx.config.brandName,
      to: updated.customerEmail!,
      customerName: updated.customerName,
      company: { name: company!.name, logoUrl: logoUrl(ctx, company!) },
      gift: updated.gift,
      url: customerLink(ctx, updated.token),
      expiresAt: updated.expiresAt,
      questionCount,
      reminder: true,
      unsubscribe: customerMailUnsubscribe(ctx, updated.id),
    }),
    { executeSql },
  );
  await recordRequestEvent(tx, {
    companyId: updated.companyId,
    requestId: updated.id,
    kind: 'reminded',
    language: updated.language,
    detail: { automatic, n: automatic ? updated.autoReminderCount : updated.reminderCount },
    at: now,
  });
  return updated;
}

/**
 * A manual reminder: only for a pending, unexpired request with an address that did not unsubscribe,
 * at most one per 24 hours counting the automatic ones.
 */
export async function remindRequest(ctx: AppContext, input: { companyId: string; id: string }): Promise<{ lastReminderSent: Date }> {
  const sent = await ctx.database.transaction(async (executeSql, tx) => {
    const [row] = await tx.select().from(testimonialRequests).where(eq(testimonialRequests.id, input.id)).for('update').limit(1);
    if (!row || row.companyId !== input.companyId) throw new AppError('not_found', { message: 'This request does not exist or was deleted.' });
    const status = effectiveStatus(row);
    if (status === 'completed') {
      throw new AppError('conflict', { reason: 'reminder_not_needed' });
    }
    if (status === 'expired') {
      throw new AppError('conflict', { reason: 'reminder_request_expired' });
    }
    // A request whose link the company sent itself without an address cannot be reminded by e-mail.
    if (!row.customerEmail) {
      throw new AppError('conflict', { reason: 'reminder_no_email' });
    }
    if (await isUnsubscribed(tx, row.companyId, row.customerEmail)) {
      throw new AppError('conflict', { reason: 'reminder_unsubscribed' });
    }
    if (row.lastReminderSent && Date.now() - row.lastReminderSent.getTime() < REMINDER_INTERVAL_MS) {
      const next = new Date(row.lastReminderSent.getTime() + REMINDER_INTERVAL_MS);
      throw new AppError('rate_limited', {
        message: `A reminder was already sent in the last 24 hours. You can send the next one after ${next.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
      });
    }
    const updated = await queueReminder(ctx, tx, executeSql, row, { automatic: false, now: new Date() });
    // The row is locked: nobody can have reminded it between the read and the update.
    if (!updated) throw new Error('the locked request changed under its lock');
    return { row: updated };
  });
  return { lastReminderSent: sent.row.lastReminderSent! };
}
