import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { and, asc, count, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import {
  COLLECTION_LIMITS,
  type TCollectionLink,
  type TCollectionLinkBody,
  type TCollectionLinkState,
  type TCollectStartBody,
  type TCollectStartResponse,
  type TPublicCollectionLink,
} from '../../../contract/api/collection.schema.js';
import { DEFAULT_REQUEST_EXPIRY_DAYS, type TLanguage } from '../../../contract/constants.js';
import { questionTextIn } from '../../../contract/question-text.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/client.js';
import { collectionLinkQuestions, collectionLinks, companies, questions, requestQuestions, testimonialRequests } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { queueMail, type QueueMailOptions } from '../../mail/send.js';
import { randomToken } from '../auth/tokens.js';
import { recordRequestEvent, visitorHashOf } from '../funnel/events.js';
import { saltOf, utcDay } from '../publications/views.service.js';
import { customerMailUnsubscribe } from '../reminders/unsubscribe-link.js';
import { logoUrl } from '../settings/settings.service.js';
import { emailCodeEmail } from './collection.emails.js';

type LinkRow = typeof collectionLinks.$inferSelect;
type RequestRow = typeof testimonialRequests.$inferSelect;
type Executor = Pick<Db, 'select'>;

const DAY_MS = 86_400_000;
const SLUG_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A public slug: 10 characters of an alphabet without look-alikes (about 49 bits), unguessable and easy to read aloud. */
export function newSlug(): string {
  const bytes = randomBytes(10);
  return Array.from(bytes, (b) => SLUG_ALPHABET[b % SLUG_ALPHABET.length]).join('');
}

export const linkUrl = (ctx: AppContext, slug: string) => `${ctx.config.appUrl}/c/${slug}`;
const languageOf = (link: { language: string }): TLanguage => (link.language === 'french' ? 'fr' : 'en');
const startOfUtcDay = (now: Date) => new Date(`${utcDay(now)}T00:00:00.000Z`);

/** Testimonials received through a link: in all, and since the start of today (UTC). */
async function submissionCounts(db: Executor, linkIds: string[], now = new Date()): Promise<Map<string, { all: number; today: number }>> {
  const out = new Map<string, { all: number; today: number }>();
  if (linkIds.length === 0) return out;
  const since = startOfUtcDay(now);
  const rows = await db
    .select({
      linkId: testimonialRequests.collectionLinkId,
      all: count(),
      today: sql<number>`count(*) filter (where ${testimonialRequests.submittedAt} >= ${since.toISOString()})`,
    })
    .from(testimonialRequests)
    .where(and(inArray(testimonialRequests.collectionLinkId, linkIds), eq(testimonialRequests.status, 'completed')))
    .groupBy(testimonialRequests.collectionLinkId);
  for (const row of rows) if (row.linkId) out.set(row.linkId, { all: Number(row.all), today: Number(row.today) });
  return out;
}

/** open, disabled, expired or full: in that order of precedence (a switched-off link reads as off). */
export function linkState(link: Pick<LinkRow, 'enabled' | 'expiresAt' | 'maxSubmissions'>, submissions: number, now = Date.now()): TCollectionLinkState {
  if (!link.enabled) return 'disabled';
  if (link.expiresAt && link.expiresAt.getTime() <= now) return 'expired';
  if (link.maxSubmissions !== null && submissions >= link.maxSubmissions) return 'full';
  return 'open';
}

function toLink(ctx: AppContext, row: LinkRow, questionIds: string[], counts: { all: number; today: number } | undefined): TCollectionLink {
  const submissions = counts?.all ?? 0;
  return {
    id: row.id,
    slug: row.slug,
    url: linkUrl(ctx, row.slug),
    name: row.name,
    question_ids: questionIds,
    language: row.language === 'french' ? 'french' : 'english',
    gift: row.gift,
    background_color: row.backgroundColor,
    expires_at: row.expiresAt?.toISOString() ?? null,
    max_submissions: row.maxSubmissions,
    daily_cap: row.dailyCap,
    enabled: row.enabled,
    email_code_required: row.emailCodeRequired,
    state: linkState(row, submissions),
    submissions,
    submissions_today: counts?.today ?? 0,
    created_at: row.createdAt.toISOString(),
  };
}

async function questionIdsOf(db: Executor, linkIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (linkIds.length === 0) return out;
  const rows = await db
    .select({ linkId: collectionLinkQuestions.linkId, questionId: collectionLinkQuestions.questionId })
    .from(collectionLinkQuestions)
    .where(inArray(collectionLinkQuestions.linkId, linkIds))
    .orderBy(asc(collectionLinkQuestions.orderPosition));
  for (const row of rows) out.set(row.linkId, [...(out.get(row.linkId) ?? []), row.questionId]);
  return out;
}

const linkNotFound = () => new AppError('not_found', { message: 'This collection link does not exist or was deleted.' });

/** The company's link, or 404 (another company's link is indistinguishable from none). */
async function ownedLink(db: Executor, companyId: string, id: string): Promise<LinkRow> {
  const [row] = await db.select().from(collectionLinks).where(and(eq(collectionLinks.id, id), eq(collectionLinks.companyId, companyId))).limit(1);
  if (!row) throw linkNotFound();
  return row;
}

export async function listLinks(ctx: AppContext, companyId: string): Promise<TCollectionLink[]> {
  const rows = await ctx.db.select().from(collectionLinks).where(eq(collectionLinks.companyId, companyId)).orderBy(desc(collectionLinks.createdAt));
  const ids = rows.map((r) => r.id);
  const [questionsById, counts] = await Promise.all([questionIdsOf(ctx.db, ids), submissionCounts(ctx.db, ids)]);
  return rows.map((row) => toLink(ctx, row, questionsById.get(row.id) ?? [], counts.get(row.id)));
}

export async function getLink(ctx: AppContext, companyId: string, id: string): Promise<TCollectionLink> {
  const row = await ownedLink(ctx.db, companyId, id);
  const [questionsById, counts] = await Promise.all([questionIdsOf(ctx.db, [id]), submissionCounts(ctx.db, [id])]);
  return toLink(ctx, row, questionsById.get(id) ?? [], counts.get(id));
}

function fieldsOf(body: TCollectionLinkBody) {
  const expiresAt = body.expires_at ? new Date(body.expires_at) : null;
  return {
    name: body.name,
    language: body.language,
    gift: body.gift || null,
    backgroundColor: body.background_color.toLowerCase(),
    expiresAt,
    maxSubmissions: body.max_submissions ?? null,
    dailyCap: body.daily_cap ?? COLLECTION_LIMITS.dailyCap.default,
    enabled: body.enabled ?? true,
    emailCodeRequired: body.email_code_required ?? false,
  };
}

/** The chosen questions exist and are the company's; written in the given order. */
async function writeQuestions(tx: Pick<Db, 'select' | 'insert' | 'delete'>, companyId: string, linkId: string, questionIds: string[]): Promise<void> {
  const found = await tx.select({ id: questions.id, companyId: questions.companyId }).from(questions).where(inArray(questions.id, questionIds));
  if (found.length !== questionIds.length) {
    throw new AppError('invalid_data', { message: 'One of the selected questions no longer exists. Reload the page and try again.', field: 'question_ids' });
  }
  if (found.some((q) => q.companyId !== companyId)) {
    throw new AppError('no_permission', { message: 'You can only use your own questions.', field: 'question_ids' });
  }
  await tx.delete(collectionLinkQuestions).where(eq(collectionLinkQuestions.linkId, linkId));
  await tx.insert(collectionLinkQuestions).values(questionIds.map((questionId, i) => ({ linkId, questionId, orderPosition: i + 1 })));
}

function checkExpiry(expiresAt: Date | null, previous: Date | null = null): void {
  // A date in the past is refused, unless it is the one the link already has (changing something else).
  if (expiresAt && expiresAt.getTime() <= Date.now() && expiresAt.getTime() !== previous?.getTime()) {
    throw new AppError('invalid_data', { message: 'The expiry date must be in the future.', field: 'expires_at' });
  }
}

export async function createLink(ctx: AppContext, companyId: string, body: TCollectionLinkBody): Promise<TCollectionLink> {
  const fields = fieldsOf(body);
  checkExpiry(fields.expiresAt);
  const id = await ctx.database.transaction(async (_executeSql, tx) => {
    const [row] = await tx.insert(collectionLinks).values({ companyId, slug: newSlug(), ...fields }).returning({ id: collectionLinks.id });
    await writeQuestions(tx, companyId, row!.id, body.question_ids);
    return row!.id;
  });
  return getLink(ctx, companyId, id);
}

export async function updateLink(ctx: AppContext, companyId: string, id: string, body: TCollectionLinkBody): Promise<TCollectionLink> {
  const fields = fieldsOf(body);
  await ctx.database.transaction(async (_executeSql, tx) => {
    const [row] = await tx.select().from(collectionLinks).where(and(eq(collectionLinks.id, id), eq(collectionLinks.companyId, companyId))).for('update');
    if (!row) throw linkNotFound();
    checkExpiry(fields.expiresAt, row.expiresAt);
    await tx.update(collectionLinks).set({ ...fields, updatedAt: new Date() }).where(and(eq(collectionLinks.id, id), eq(collectionLinks.companyId, companyId)));
    await writeQuestions(tx, companyId, id, body.question_ids);
  });
  return getLink(ctx, companyId, id);
}

/** Deletes the link; its requests and testimonials stay (their link column becomes null). */
export async function deleteLink(ctx: AppContext, companyId: string, id: string): Promise<void> {
  const removed = await ctx.db
    .delete(collectionLinks)
    .where(and(eq(collectionLinks.id, id), eq(collectionLinks.companyId, companyId)))
    .returning({ id: collectionLinks.id });
  if (removed.length === 0) throw linkNotFound();
}

/** The link row and its company by slug, for the QR code of its owner. */
export async function ownedLinkWithCompany(ctx: AppContext, companyId: string, id: string) {
  const link = await ownedLink(ctx.db, companyId, id);
  const [company] = await ctx.db.select({ id: companies.id, logoKey: companies.logoKey }).from(companies).where(eq(companies.id, companyId));
  return { link, company: company!, url: linkUrl(ctx, link.slug) };
}

/* ------------------------------------------------------------------ the customer's side */

/** A link that takes no testimonial now: the reason in the link's language, with the company's name. */
function closed(reason: 'collection_link_disabled' | 'collection_link_expired' | 'collection_link_full' | 'collection_link_daily_cap', link: LinkRow, company: { name: string }) {
  const params = { company: company.name, language: languageOf(link) };
  if (reason === 'collection_link_daily_cap') return new AppError('rate_limited', { reason, params });
  return new AppError('invalid_data', { status: 410, reason, params });
}

/**
 * Refuses a link that takes no testimonial now (disabled, expired, full, or over today's cap). `db` may
 * be a transaction holding the link's row lock (the save's last check, so two customers cannot both
 * take the last place).
 */
export async function assertLinkOpen(db: Executor, link: LinkRow, company: { name: string }, now = new Date()): Promise<void> {
  const counts = (await submissionCounts(db, [link.id], now)).get(link.id) ?? { all: 0, today: 0 };
  const state = linkState(link, counts.all, now.getTime());
  if (state === 'disabled') throw closed('collection_link_disabled', link, company);
  if (state === 'expired') throw closed('collection_link_expired', link, company);
  if (state === 'full') throw closed('collection_link_full', link, company);
  if (counts.today >= link.dailyCap) throw closed('collection_link_daily_cap', link, company);
}

async function publicLinkRows(ctx: AppContext, slug: string) {
  const [found] = await ctx.db
    .select({ link: collectionLinks, company: companies })
    .from(collectionLinks)
    .innerJoin(companies, eq(companies.id, collectionLinks.companyId))
    .where(eq(collectionLinks.slug, slug))
    .limit(1);
  if (!found) throw new AppError('not_found', { reason: 'collection_link_unknown' });
  return found;
}

/** The questions of a link with their text in the link's language (or the other one's where it has none). */
async function linkQuestions(db: Executor, link: LinkRow) {
  const rows = await db
    .select({ id: questions.id, textEn: questions.textEn, textFr: questions.textFr })
    .from(collectionLinkQuestions)
    .innerJoin(questions, eq(questions.id, collectionLinkQuestions.questionId))
    .where(eq(collectionLinkQuestions.linkId, link.id))
    .orderBy(asc(collectionLinkQuestions.orderPosition));
  return rows.map((q) => ({ id: q.id, text: questionTextIn({ text_en: q.textEn, text_fr: q.textFr }, languageOf(link)) }));
}

/** What the customer's first step shows; a closed link answers its reason. Records the visitor of the day. */
export async function publicLink(ctx: AppContext, input: { slug: string; ip: string; userAgent: string }): Promise<TPublicCollectionLink> {
  const { link, company } = await publicLinkRows(ctx, input.slug);
  const now = new Date();
  const salt = await saltOf(ctx, utcDay(now));
  await recordRequestEvent(ctx.db, {
    companyId: link.companyId,
    linkId: link.id,
    kind: 'link_opened',
    language: link.language,
    visitorHash: visitorHashOf(salt, { ip: input.ip, userAgent: input.userAgent, linkId: link.id }),
  });
  await assertLinkOpen(ctx.db, link, company, now);
  const asked = await linkQuestions(ctx.db, link);
  if (asked.length === 0) throw closed('collection_link_disabled', link, company);
  return {
    name: link.name,
    language: link.language === 'french' ? 'french' : 'english',
    background_color: link.backgroundColor,
    gift: link.gift,
    email_code_required: link.emailCodeRequired,
    company: { name: company.name, logo_url: logoUrl(ctx, company) },
    questions: asked,
    powered_by: ctx.config.customerPagesPoweredBy,
  };
}

const codeHash = (ctx: AppContext, requestId: string, code: string) => createHmac('sha256', ctx.secrets.jwt).update(`email-code\n${requestId}\n${code}`).digest('hex');

/** A fresh 6-digit code for the request, stored hashed with its expiry; the e-mail queued in the same transaction. */
async function issueCode(ctx: AppContext, tx: Pick<Db, 'update'>, executeSql: QueueMailOptions['executeSql'], request: RequestRow, company: { id: string; name: string; logoKey: string | null }) {
  const code = String(randomInt(0, 10 ** COLLECTION_LIMITS.code.digits)).padStart(COLLECTION_LIMITS.code.digits, '0');
  const expiresAt = new Date(Date.now() + COLLECTION_LIMITS.code.minutes * 60_000);
  await tx
    .update(testimonialRequests)
    .set({ emailCodeHash: codeHash(ctx, request.id, code), emailCodeExpiresAt: expiresAt, emailCodeAttempts: 0, updatedAt: new Date() })
    .where(eq(testimonialRequests.id, request.id));
  await queueMail(
    ctx,
    emailCodeEmail({
      lang: languageOf(request),
      brand: ctx.config.brandName,
      to: request.customerEmail!,
      customerName: request.customerName,
      company: { name: company.name, logoUrl: logoUrl(ctx, company) },
      code,
      minutes: COLLECTION_LIMITS.code.minutes,
      unsubscribe: customerMailUnsubscribe(ctx, request.id),
    }),
    { executeSql },
  );
}

/**
 * The customer's details given on an open link: a request (delivery 'collection') with the link's
 * language, gift and colour, its questions frozen in the link's language, the company's time zone and a
 * fresh token; the 'sent' step of the funnel; and the e-mail code when the link asks for one.
 */
export async function startFromLink(ctx: AppContext, input: { slug: string; body: TCollectStartBody }): Promise<TCollectStartResponse> {
  const { link, company } = await publicLinkRows(ctx, input.slug);
  // The honeypot: a field no person sees. Filled, the details are refused without saying why.
  if (input.body.website && input.body.website.trim() !== '') {
    throw new AppError('invalid_data', { reason: 'collection_details_refused', params: { language: languageOf(link) } });
  }
  const now = new Date();
  await assertLinkOpen(ctx.db, link, company, now);
  // Rows of requests started today, whatever became of them: a flood of details never sent stops at a multiple of the cap.
  const [started] = await ctx.db
    .select({ n: count() })
    .from(testimonialRequests)
    .where(and(eq(testimonialRequests.collectionLinkId, link.id), gte(testimonialRequests.createdAt, startOfUtcDay(now))));
  if (Number(started?.n ?? 0) >= link.dailyCap * 4) throw closed('collection_link_daily_cap', link, company);
  const asked = await linkQuestions(ctx.db, link);
  if (asked.length === 0) throw closed('collection_link_disabled', link, company);

  const token = randomToken();
  const expiry = new Date(now.getTime() + DEFAULT_REQUEST_EXPIRY_DAYS * DAY_MS);
  const expiresAt = link.expiresAt && link.expiresAt < expiry ? link.expiresAt : expiry;
  await ctx.database.transaction(async (executeSql, tx) => {
    const [row] = await tx
      .insert(testimonialRequests)
      .values({
        companyId: link.companyId,
        token,
        customerName: input.body.name,
        customerEmail: input.body.email.toLowerCase(),
        customerPosition: input.body.position || null,
        delivery: 'collection',
        collectionLinkId: link.id,
        language: link.language,
        gift: link.gift,
        backgroundColor: link.backgroundColor,
        timeZone: company.timeZone,
        expiresAt,
      })
      .returning();
    if (!row) throw new Error('request not inserted');
    await tx.insert(requestQuestions).values(asked.map((q, i) => ({ requestId: row.id, questionId: q.id, questionText: q.text, orderPosition: i + 1 })));
    await recordRequestEvent(tx, { companyId: link.companyId, requestId: row.id, linkId: link.id, kind: 'sent', language: link.language, detail: { via: 'collection' } });
    if (link.emailCodeRequired) await issueCode(ctx, tx, executeSql, row, company);
  });
  return { token, code_required: link.emailCodeRequired };
}

/** A collection request by its token, with its company, for the code calls. */
async function codeRequest(db: Executor, token: string) {
  const [found] = await db
    .select({ request: testimonialRequests, company: companies })
    .from(testimonialRequests)
    .innerJoin(companies, eq(companies.id, testimonialRequests.companyId))
    .where(and(eq(testimonialRequests.token, token), eq(testimonialRequests.delivery, 'collection')))
    .limit(1);
  if (!found || found.request.emailCodeExpiresAt === null) throw new AppError('not_found', { reason: 'link_invalid' });
  return found;
}

const codeError = (reason: 'email_code_wrong' | 'email_code_expired', request: RequestRow, extra: Record<string, number> = {}) =>
  new AppError('invalid_data', { reason, params: { language: languageOf(request), ...extra } });

/** Whether the request still waits for its e-mail code (the save refuses it until then). */
export const needsEmailCode = (request: Pick<RequestRow, 'delivery' | 'emailCodeExpiresAt' | 'emailConfirmedAt'>) =>
  request.delivery === 'collection' && request.emailCodeExpiresAt !== null && request.emailConfirmedAt === null;

export const emailCodeRequiredError = (request: { language: string }) =>
  new AppError('conflict', { reason: 'email_code_required', params: { language: languageOf(request) } });

/** Confirms the code: at most COLLECTION_LIMITS.code.attempts wrong tries per code, within its minutes. */
export async function confirmCode(ctx: AppContext, input: { token: string; code: string }): Promise<void> {
  await ctx.database.transaction(async (_executeSql, tx) => {
    const { request } = await codeRequest(tx, input.token);
    const [locked] = await tx.select().from(testimonialRequests).where(eq(testimonialRequests.id, request.id)).for('update');
    if (!locked) throw new AppError('not_found', { reason: 'link_invalid' });
    if (locked.emailConfirmedAt) return;
    if (!locked.emailCodeHash || !locked.emailCodeExpiresAt || locked.emailCodeExpiresAt.getTime() <= Date.now() || locked.emailCodeAttempts >= COLLECTION_LIMITS.code.attempts) {
      throw codeError('email_code_expired', locked);
    }
    const given = Buffer.from(codeHash(ctx, locked.id, input.code), 'hex');
    const kept = Buffer.from(locked.emailCodeHash, 'hex');
    if (given.length !== kept.length || !timingSafeEqual(given, kept)) {
      const attempts = locked.emailCodeAttempts + 1;
      await tx.update(testimonialRequests).set({ emailCodeAttempts: attempts, updatedAt: new Date() }).where(eq(testimonialRequests.id, locked.id));
      const left = COLLECTION_LIMITS.code.attempts - attempts;
      // The wrong try is kept: the error is thrown after the transaction commits.
      return { wrong: left };
    }
    const now = new Date();
    await tx.update(testimonialRequests).set({ emailConfirmedAt: now, emailCodeHash: null, updatedAt: now }).where(eq(testimonialRequests.id, locked.id));
    return undefined;
  }).then((outcome: { wrong: number } | undefined) => {
    if (outcome) throw new AppError('invalid_data', { reason: outcome.wrong > 0 ? 'email_code_wrong' : 'email_code_expired', params: { left: outcome.wrong } });
  });
}

/** A new code (the resend limit is the route's: per token and per address). */
export async function resendCode(ctx: AppContext, input: { token: string }): Promise<void> {
  await ctx.database.transaction(async (executeSql, tx) => {
    const { request, company } = await codeRequest(tx, input.token);
    const [locked] = await tx.select().from(testimonialRequests).where(eq(testimonialRequests.id, request.id)).for('update');
    if (!locked || locked.emailConfirmedAt) return;
    if (locked.status !== 'pending' || locked.expiresAt.getTime() <= Date.now()) throw codeError('email_code_expired', locked);
    await issueCode(ctx, tx, executeSql, locked, company);
  });
}

/**
 * The upload's check for a request that came through a link, before any byte is written: the link still
 * takes testimonials, and the e-mail code (when asked) was confirmed. With `lock`, the link's row is
 * locked first (the save's transaction), so the maximum and the daily cap hold against simultaneous saves.
 */
export async function checkCollectionUpload(db: Pick<Db, 'select'>, request: RequestRow, options: { lock?: boolean } = {}): Promise<void> {
  if (request.delivery !== 'collection') return;
  if (needsEmailCode(request)) throw emailCodeRequiredError(request);
  if (!request.collectionLinkId) return;
  const query = db
    .select({ link: collectionLinks, company: { name: companies.name } })
    .from(collectionLinks)
    .innerJoin(companies, eq(companies.id, collectionLinks.companyId))
    .where(eq(collectionLinks.id, request.collectionLinkId));
  const [found] = options.lock ? await query.for('update', { of: collectionLinks }) : await query;
  // A deleted link: its requests already started may still finish (their questions are frozen).
  if (!found) return;
  await assertLinkOpen(db, found.link, found.company);
}
