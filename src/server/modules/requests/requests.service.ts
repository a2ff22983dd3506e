import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { TTestimonialRequestSafe } from '../../../contract/api/testimonials.schema.js';
import { EMAIL_NEEDED_FOR_DELIVERY_MESSAGE, ZRequestsListResponse, type TRequestDelivery } from '../../../contract/api/requests.schema.js';
import { DEFAULT_REQUEST_EXPIRY_DAYS, type TLanguage, type TRequestLanguage } from '../../../contract/constants.js';
import { questionTextIn } from '../../../contract/question-text.js';
import type { AppContext } from '../../context.js';
import { companies, questions, requestQuestions, testimonialRequests, videoStyleSettings } from '../../db/schema.js';
import { jsonText } from '../../http/json-text.js';
import { AppError } from '../../lib/errors.js';
import { queueMail } from '../../mail/send.js';
import { randomToken } from '../auth/tokens.js';
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
    delivery: row.delivery === 'link' ? 'link' : 'email',
    link: customerLink(ctx, row.token),
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
  return toRequestSafe(ctx, await findOwnedRequest(ctx, companyId, id));
}

export interface SendRequestInput {
  companyId: string;
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
    if (row.delivery === 'link' || !row.customerEmail) return { row };
    await queueMail(
      ctx,
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
      }),
      { executeSql },
    );
    return { row };
  });

  return toRequestSafe(ctx, row);
}

/** A reminder: only for a pending, unexpired request, at most one per 24 hours. */
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
    if (row.lastReminderSent && Date.now() - row.lastReminderSent.getTime() < REMINDER_INTERVAL_MS) {
      const next = new Date(row.lastReminderSent.getTime() + REMINDER_INTERVAL_MS);
      throw new AppError('rate_limited', {
        message: `A reminder was already sent in the last 24 hours. You can send the next one after ${next.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
      });
    }
    const now = new Date();
    const [updated] = await tx
      .update(testimonialRequests)
      .set({ lastReminderSent: now, reminderCount: row.reminderCount + 1, updatedAt: now })
      .where(and(eq(testimonialRequests.id, row.id), eq(testimonialRequests.companyId, input.companyId)))
      .returning();
    const [company] = await tx.select().from(companies).where(eq(companies.id, input.companyId));
    const questionCount = await tx.$count(requestQuestions, eq(requestQuestions.requestId, row.id));
    await queueMail(
      ctx,
      invitationEmail({
        lang: updated!.language === 'french' ? 'fr' : 'en',
        brand: ctx.config.brandName,
        to: row.customerEmail,
        customerName: updated!.customerName,
        company: { name: company!.name, logoUrl: logoUrl(ctx, company!) },
        gift: updated!.gift,
        url: customerLink(ctx, updated!.token),
        expiresAt: updated!.expiresAt,
        questionCount,
        reminder: true,
      }),
      { executeSql },
    );
    return { row: updated! };
  });
  return { lastReminderSent: sent.row.lastReminderSent! };
}
