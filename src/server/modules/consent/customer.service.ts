import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import { recordEvent } from '../events/events.service.js';
import type { AppContext } from '../../context.js';
import type { Db, ExecuteSql } from '../../db/client.js';
import {
  approvals,
  companies,
  consentEvents,
  consents,
  jobs,
  publications,
  testimonialRequests,
  testimonialResponses,
  walls,
} from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { queueCompanyMail, queueMail } from '../../mail/send.js';
import { nameOf } from '../publications/publications.service.js';
import { logoUrl } from '../settings/settings.service.js';
import { forgetPublications } from './customer.caches.js';
import { answerRemovalEmail, approvalDecidedEmail, consentWithdrawnEmail, receiptEmail } from './customer.emails.js';
import { hashCustomerToken, isCustomerToken, newCustomerToken } from './customer.tokens.js';
import { scheduleMediaDeletion } from './retention.service.js';
import { cancelTestimonialJobs } from '../jobs/jobs.service.js';
import { consentWithdrawnError } from './control.js';
import { customerMailUnsubscribe } from '../reminders/unsubscribe-link.js';

/**
 * The customer's side of issue 29 (decision 183): their receipt and private page, the withdrawal of their
 * consent, the removal of one answer, and their decision on an approval. Each action is one transaction
 * (rows, events, the company's e-mail and the scheduled deletion commit together); the publications it
 * took down are forgotten by this process's page caches after the commit.
 */

export type CustomerLang = 'en' | 'fr';
export const langOf = (request: { language: string }): CustomerLang => (request.language === 'french' ? 'fr' : 'en');

/** Who acted: the customer's address and browser, recorded beside what they did. */
export interface Actor {
  ip: string;
  userAgent: string | undefined;
}

const userAgentOf = (actor: Actor) => actor.userAgent?.slice(0, 500) ?? null;
const dashboardUrl = (ctx: AppContext, requestId: string) => `${ctx.config.appUrl}/dashboard/testimonials/${requestId}`;
export const customerPageUrl = (ctx: AppContext, token: string) => `${ctx.config.appUrl}/my-testimonial/${token}`;

/* ------------------------------------------------------------------ the receipt */

export interface ReceiptInput {
  request: { id: string; companyId: string; customerEmail: string | null; language: string };
  company: { id: string; name: string; logoKey: string | null };
  name: string;
  answers: { question: string; seconds: number | null }[];
  consent: { text: string; acceptedAt: Date };
}

/**
 * In the submission's transaction: the customer's page token (stored hashed) and, when we know their
 * address, their receipt e-mail in the outbox. Returns the page's address (the only place the token is
 * ever seen, with the e-mail).
 */
export async function issueReceipt(ctx: AppContext, tx: Db, executeSql: ExecuteSql, input: ReceiptInput): Promise<string> {
  const token = newCustomerToken();
  await tx.update(testimonialRequests).set({ customerPageTokenHash: hashCustomerToken(token) }).where(eq(testimonialRequests.id, input.request.id));
  const pageUrl = customerPageUrl(ctx, token);
  if (input.request.customerEmail) {
    await queueMail(
      { queue: ctx.queue },
      receiptEmail({
        lang: langOf(input.request),
        brand: ctx.config.brandName,
        to: input.request.customerEmail,
        name: input.name,
        company: { name: input.company.name, logoUrl: logoUrl(ctx, input.company) },
        answers: input.answers,
        consent: input.consent,
        pageUrl,
        unsubscribe: customerMailUnsubscribe(ctx, input.request.id),
      }),
      { executeSql },
    );
  }
  return pageUrl;
}

/* ------------------------------------------------------------------ the page */

export interface CustomerPublication {
  id: string;
  slug: string;
  /** The answer it shows alone, or null for a render of several. */
  question: string | null;
  publishedAt: Date;
  onWall: boolean;
}

export interface CustomerPageData {
  tokenHash: string;
  lang: CustomerLang;
  request: typeof testimonialRequests.$inferSelect;
  company: { id: string; name: string; logoUrl: string | null };
  name: string;
  answers: { id: string; question: string; seconds: number | null; removalRequestedAt: Date | null; playable: boolean }[];
  consent: { text: string; acceptedAt: Date; withdrawnAt: Date | null } | null;
  publications: CustomerPublication[];
  wallSlug: string | null;
  /** When the media of a withdrawn testimonial are (or were) deleted. */
  deletionDueAt: Date | null;
  /** How many publications the withdrawal took down. */
  takenDown: number;
}

async function requestByPageToken(db: Db, token: string, lock = false) {
  if (!isCustomerToken(token)) return undefined;
  const query = db.select().from(testimonialRequests).where(eq(testimonialRequests.customerPageTokenHash, hashCustomerToken(token))).limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** Everything the customer's page shows, for their token, or null (unknown token). Only this testimonial's rows. */
export async function loadCustomerPage(ctx: AppContext, token: string): Promise<CustomerPageData | null> {
  const request = await requestByPageToken(ctx.db, token);
  if (!request) return null;
  const [company] = await ctx.db.select().from(companies).where(eq(companies.id, request.companyId));
  if (!company) return null;
  const answers = await ctx.db
    .select()
    .from(testimonialResponses)
    .where(and(eq(testimonialResponses.requestId, request.id), eq(testimonialResponses.companyId, request.companyId)))
    .orderBy(asc(testimonialResponses.orderPosition));
  const [consent] = await ctx.db.select().from(consents).where(eq(consents.requestId, request.id));
  const live = await ctx.db
    .select()
    .from(publications)
    .where(and(eq(publications.requestId, request.id), eq(publications.companyId, request.companyId), isNull(publications.unpublishedAt)))
    .orderBy(asc(publications.createdAt));
  const [wall] = await ctx.db.select({ slug: walls.slug }).from(walls).where(eq(walls.companyId, request.companyId));
  const [takenDown] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(publications)
    .where(and(eq(publications.requestId, request.id), eq(publications.unpublishedReason, 'consent_withdrawn')));
  const questionOf = new Map(answers.map((a) => [a.id, a.questionText]));
  const days = ctx.config.consentWithdrawnRetentionDays;
  return {
    tokenHash: hashCustomerToken(token),
    lang: langOf(request),
    request,
    company: { id: company.id, name: company.name, logoUrl: logoUrl(ctx, company) },
    name: nameOf(request),
    answers: answers.map((a) => ({
      id: a.id,
      question: a.questionText,
      seconds: a.durationSeconds,
      removalRequestedAt: a.removalRequestedAt,
      playable: !request.mediaDeletedAt,
    })),
    consent: consent ? { text: consent.text, acceptedAt: consent.acceptedAt, withdrawnAt: consent.withdrawnAt } : null,
    publications: live.map((p) => ({
      id: p.id,
      slug: p.slug,
      question: p.responseId ? (questionOf.get(p.responseId) ?? null) : null,
      publishedAt: p.createdAt,
      onWall: Boolean(wall) && !p.wallHidden,
    })),
    wallSlug: wall?.slug ?? null,
    deletionDueAt: request.mediaDeletedAt ?? (request.consentWithdrawnAt ? new Date(request.consentWithdrawnAt.getTime() + days * 86_400_000) : null),
    takenDown: takenDown?.n ?? 0,
  };
}

/** The stored object of one answer for the customer's player: the transcoded MP4, else the file as uploaded. Null: not this page's answer, or deleted. */
export async function customerAnswerMedia(ctx: AppContext, token: string, responseId: string): Promise<{ key: string; contentType: string | undefined } | null> {
  const request = await requestByPageToken(ctx.db, token);
  if (!request || request.mediaDeletedAt || !/^[0-9a-f-]{36}$/.test(responseId)) return null;
  const [answer] = await ctx.db
    .select({ videoKey: testimonialResponses.videoKey, originalKey: testimonialResponses.originalKey })
    .from(testimonialResponses)
    .where(and(eq(testimonialResponses.id, responseId), eq(testimonialResponses.requestId, request.id), eq(testimonialResponses.companyId, request.companyId)));
  if (!answer) return null;
  return answer.videoKey ? { key: answer.videoKey, contentType: 'video/mp4' } : { key: answer.originalKey, contentType: undefined };
}

/* ------------------------------------------------------------------ withdrawal */

const notFound = () => new AppError('not_found', { message: 'This page does not exist.' });

export interface ActionOutcome {
  /** False when it was done already (a second click, a form sent twice): nothing changed. */
  changed: boolean;
  publicationIds: string[];
}

/**
 * The customer withdraws their consent: every publication of the testimonial taken down
 * ('consent_withdrawn'), its queued and running jobs cancelled, its pending approvals cancelled, the
 * withdrawal written beside the consent and as an event, the company e-mailed, the media's deletion
 * scheduled. One transaction; then this process's page caches forget the publications.
 */
export async function withdrawConsent(ctx: AppContext, token: string, actor: Actor, now = new Date()): Promise<ActionOutcome> {
  const outcome = await ctx.database.transaction(async (executeSql, tx) => {
    const request = await requestByPageToken(tx, token, true);
    if (!request) throw notFound();
    if (request.consentWithdrawnAt) return { changed: false, publicationIds: [] };
    const taken = await tx
      .update(publications)
      .set({ unpublishedAt: now, unpublishedReason: 'consent_withdrawn' })
      .where(and(eq(publications.requestId, request.id), eq(publications.companyId, request.companyId), isNull(publications.unpublishedAt)))
      .returning({ id: publications.id });
    await cancelTestimonialJobs(tx, { requestId: request.id });
    await tx
      .update(approvals)
      .set({ state: 'cancelled' })
      .where(and(eq(approvals.requestId, request.id), eq(approvals.companyId, request.companyId), eq(approvals.state, 'pending')));
    await tx
      .update(consents)
      .set({ withdrawnAt: now, withdrawnIp: actor.ip, withdrawnUserAgent: userAgentOf(actor) })
      .where(eq(consents.requestId, request.id));
    await tx.insert(consentEvents).values({
      companyId: request.companyId,
      requestId: request.id,
      kind: 'withdrawn',
      ip: actor.ip,
      userAgent: userAgentOf(actor),
      detail: { unpublished: taken.length },
      at: now,
    });
    await tx.update(testimonialRequests).set({ consentWithdrawnAt: now, updatedAt: now }).where(eq(testimonialRequests.id, request.id));
    await queueCompanyMail(
      { queue: ctx.queue, db: tx },
      request.companyId,
      (owner) =>
        consentWithdrawnEmail({
          lang: owner.lang,
          brand: ctx.config.brandName,
          to: owner.email,
          firstname: owner.firstname,
          customerName: nameOf(request),
          url: dashboardUrl(ctx, request.id),
          at: now,
          unpublished: taken.length,
          retentionDays: ctx.config.consentWithdrawnRetentionDays,
        }),
      { executeSql },
    );
    await scheduleMediaDeletion(ctx, executeSql, { requestId: request.id, withdrawnAt: now, now });
    await recordEvent(ctx, { tx, executeSql }, request.companyId, 'consent.withdrawn', { testimonial_id: request.id, unpublished: taken.length });
    return { changed: true, publicationIds: taken.map((p) => p.id) };
  });
  await forgetPublications(ctx, outcome.publicationIds);
  return outcome;
}

/* ------------------------------------------------------------------ removal of one answer */

/**
 * The customer asks for one answer to be removed: the answer is marked, every live publication showing
 * it (alone, or as a part of its captions) taken down ('answer_removed'), its queued and running jobs
 * cancelled (and those over every answer of the testimonial, which would contain it), the event recorded, the company e-mailed. A withdrawn testimonial refuses (consent_withdrawn).
 */
export async function requestAnswerRemoval(ctx: AppContext, token: string, responseId: string, actor: Actor, now = new Date()): Promise<ActionOutcome> {
  const outcome = await ctx.database.transaction(async (executeSql, tx) => {
    const request = await requestByPageToken(tx, token, true);
    if (!request) throw notFound();
    if (!/^[0-9a-f-]{36}$/.test(responseId)) throw notFound();
    const [answer] = await tx
      .select()
      .from(testimonialResponses)
      .where(and(eq(testimonialResponses.id, responseId), eq(testimonialResponses.requestId, request.id), eq(testimonialResponses.companyId, request.companyId)));
    if (!answer) throw notFound();
    if (request.consentWithdrawnAt) throw consentWithdrawnError(request.consentWithdrawnAt);
    if (answer.removalRequestedAt) return { changed: false, publicationIds: [] };
    await tx.update(testimonialResponses).set({ removalRequestedAt: now, updatedAt: now }).where(eq(testimonialResponses.id, answer.id));
    const taken = await tx
      .update(publications)
      .set({ unpublishedAt: now, unpublishedReason: 'answer_removed' })
      .where(
        and(
          eq(publications.requestId, request.id),
          eq(publications.companyId, request.companyId),
          isNull(publications.unpublishedAt),
          or(eq(publications.responseId, answer.id), sql`${publications.captionParts} @> ${JSON.stringify([{ responseId: answer.id }])}::jsonb`),
        ),
      )
      .returning({ id: publications.id });
    // The answer's own jobs, and the testimonial's over all its answers, which would still contain it.
    await cancelTestimonialJobs(tx, { requestId: request.id, responseId: answer.id });
    await tx.insert(consentEvents).values({
      companyId: request.companyId,
      requestId: request.id,
      kind: 'removal_requested',
      responseId: answer.id,
      ip: actor.ip,
      userAgent: userAgentOf(actor),
      detail: { question: answer.questionText, unpublished: taken.length },
      at: now,
    });
    await queueCompanyMail(
      { queue: ctx.queue, db: tx },
      request.companyId,
      (owner) =>
        answerRemovalEmail({
          lang: owner.lang,
          brand: ctx.config.brandName,
          to: owner.email,
          firstname: owner.firstname,
          customerName: nameOf(request),
          url: dashboardUrl(ctx, request.id),
          question: answer.questionText,
          unpublished: taken.length,
        }),
      { executeSql },
    );
    return { changed: true, publicationIds: taken.map((p) => p.id) };
  });
  await forgetPublications(ctx, outcome.publicationIds);
  return outcome;
}

/* ------------------------------------------------------------------ approval */

export interface ApprovalPageData {
  tokenHash: string;
  lang: CustomerLang;
  approval: typeof approvals.$inferSelect;
  request: typeof testimonialRequests.$inferSelect;
  company: { name: string; logoUrl: string | null };
  name: string;
  /** The answer's question when the video is one answer. */
  question: string | null;
  /** The video is still there to be watched. */
  playable: boolean;
}

async function approvalByToken(db: Db, token: string, lock = false) {
  if (!isCustomerToken(token)) return undefined;
  const query = db.select().from(approvals).where(eq(approvals.tokenHash, hashCustomerToken(token))).limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** What the approval page shows, or null (unknown token). */
export async function loadApprovalPage(ctx: AppContext, token: string): Promise<ApprovalPageData | null> {
  const approval = await approvalByToken(ctx.db, token);
  if (!approval) return null;
  const [row] = await ctx.db
    .select({ request: testimonialRequests, company: companies })
    .from(testimonialRequests)
    .innerJoin(companies, eq(companies.id, testimonialRequests.companyId))
    .where(and(eq(testimonialRequests.id, approval.requestId), eq(testimonialRequests.companyId, approval.companyId)));
  if (!row) return null;
  const media = await approvalMediaOf(ctx, approval, row.request);
  let question: string | null = null;
  if (approval.responseId) {
    const [answer] = await ctx.db.select({ q: testimonialResponses.questionText }).from(testimonialResponses).where(eq(testimonialResponses.id, approval.responseId));
    question = answer?.q ?? null;
  }
  return {
    tokenHash: hashCustomerToken(token),
    lang: langOf(row.request),
    approval,
    request: row.request,
    company: { name: row.company.name, logoUrl: logoUrl(ctx, row.company) },
    name: nameOf(row.request),
    question,
    playable: media !== null,
  };
}

async function approvalMediaOf(ctx: AppContext, approval: typeof approvals.$inferSelect, request: typeof testimonialRequests.$inferSelect) {
  if (request.mediaDeletedAt || request.consentWithdrawnAt || approval.state === 'cancelled') return null;
  if (approval.jobId) {
    const [job] = await ctx.db
      .select({ key: jobs.outputKey, phase: jobs.phase })
      .from(jobs)
      .where(and(eq(jobs.id, approval.jobId), eq(jobs.companyId, approval.companyId), eq(jobs.requestId, approval.requestId)));
    return job?.key && job.phase === 'ready' ? { key: job.key, contentType: 'video/mp4' as string | undefined } : null;
  }
  if (!approval.responseId) return null;
  const [answer] = await ctx.db
    .select({ videoKey: testimonialResponses.videoKey, originalKey: testimonialResponses.originalKey })
    .from(testimonialResponses)
    .where(and(eq(testimonialResponses.id, approval.responseId), eq(testimonialResponses.companyId, approval.companyId), eq(testimonialResponses.requestId, approval.requestId)));
  if (!answer) return null;
  return answer.videoKey ? { key: answer.videoKey, contentType: 'video/mp4' as string | undefined } : { key: answer.originalKey, contentType: undefined };
}

/** The video an approval is about, for its page's player; null when unknown, cancelled, withdrawn or deleted. */
export async function approvalMedia(ctx: AppContext, token: string) {
  const approval = await approvalByToken(ctx.db, token);
  if (!approval) return null;
  const [request] = await ctx.db.select().from(testimonialRequests).where(and(eq(testimonialRequests.id, approval.requestId), eq(testimonialRequests.companyId, approval.companyId)));
  return request ? approvalMediaOf(ctx, approval, request) : null;
}

/**
 * The customer's decision on an approval: approved, or changes asked with a comment (1–2000 characters,
 * checked by the route). Only a pending approval of a testimonial whose consent stands can be decided
 * (approval_already_decided, consent_withdrawn otherwise).
 */
export async function decideApproval(
  ctx: AppContext,
  token: string,
  decision: { approved: true } | { approved: false; comment: string },
  actor: Actor,
  now = new Date(),
): Promise<void> {
  await ctx.database.transaction(async (executeSql, tx) => {
    const approval = await approvalByToken(tx, token, true);
    if (!approval) throw notFound();
    const [request] = await tx.select().from(testimonialRequests).where(and(eq(testimonialRequests.id, approval.requestId), eq(testimonialRequests.companyId, approval.companyId)));
    if (!request) throw notFound();
    if (request.consentWithdrawnAt) throw consentWithdrawnError(request.consentWithdrawnAt);
    if (approval.state !== 'pending') throw new AppError('conflict', { reason: 'approval_already_decided' });
    const comment = decision.approved ? null : decision.comment;
    await tx
      .update(approvals)
      .set({ state: decision.approved ? 'approved' : 'changes_requested', comment, decidedAt: now, decidedIp: actor.ip })
      .where(eq(approvals.id, approval.id));
    await tx.insert(consentEvents).values({
      companyId: approval.companyId,
      requestId: approval.requestId,
      kind: decision.approved ? 'approved' : 'changes_requested',
      approvalId: approval.id,
      responseId: approval.responseId,
      ip: actor.ip,
      userAgent: userAgentOf(actor),
      detail: { comment },
      at: now,
    });
    await queueCompanyMail(
      { queue: ctx.queue, db: tx },
      approval.companyId,
      (owner) =>
        approvalDecidedEmail({
          lang: owner.lang,
          brand: ctx.config.brandName,
          to: owner.email,
          firstname: owner.firstname,
          customerName: nameOf(request),
          url: dashboardUrl(ctx, request.id),
          approved: decision.approved,
          comment,
        }),
      { executeSql },
    );
  });
}
