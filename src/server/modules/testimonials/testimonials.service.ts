import { and, asc, count, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import { type TTestimonialRequest, type TTestimonialResponse } from '../../../contract/api/testimonials.schema.js';
import type { TTransaction } from '../../../contract/api/payment.schema.js';
import type { AppContext } from '../../context.js';
import { companies, creditTransactions, jobs, testimonialRequests, testimonialResponses } from '../../db/schema.js';
import type { TCustomerControl } from '../../../contract/api/consent.schema.js';
import { approvalRequiredOf, approvalsOf, toApproval } from '../consent/approvals.service.js';
import { renderedAnswers } from '../consent/control.js';
import { signMediaPath } from '../../media/signed-urls.js';
import { latestJobs, toJob, type JobRow } from '../jobs/jobs.service.js';
import { toRequestSafe } from '../requests/requests.service.js';
import { posterKeyOf } from '../studio/posters.js';
import { draftOf, startDraftIfReady } from '../studio/drafts.service.js';
import { payInTransaction } from './payment.js';
import { ANSWER_RENDER_KINDS, newestJob, renderStateOf, storedExports, TESTIMONIAL_RENDER_KINDS, type StoredExport } from '../studio/studio.service.js';

type RequestRow = typeof testimonialRequests.$inferSelect;
type ResponseRow = typeof testimonialResponses.$inferSelect;

/**
 * The preparation of an answer's upload for playback, from its latest transcode job. An answer with a
 * prepared video and no transcode job (data from before issue 16) is ready.
 */
function mediaState(ctx: AppContext, answer: ResponseRow, transcode: JobRow | undefined): NonNullable<TTestimonialResponse['media']> {
  if (!transcode) return { jobId: null, phase: answer.videoKey ? 'ready' : 'queued', progress: answer.videoKey ? 100 : 0, error: null };
  return { jobId: transcode.id, phase: transcode.phase, progress: transcode.progress, error: toJob(ctx, transcode).error };
}

/**
 * A testimonial with its answers. Media addresses are signed and short-lived, and only issued once
 * the testimonial is paid: an unpaid one reveals no media at all. An answer's video and poster are its
 * transcoded ones, null until its transcode is ready: the raw upload is never handed to a player, and its
 * duration is the one probed from that transcoded file. Generated videos have their poster beside them
 * (posterKeyFor: the output's key with `.jpg`), so their addresses derive from the stored keys. Render
 * and preparation states come from the latest jobs of each answer and of the testimonial; the stored
 * exports (`exports`) from its finished export jobs, the latest of each format and version (decision 161).
 */
async function toTestimonial(ctx: AppContext, row: RequestRow): Promise<TTestimonialRequest> {
  const responses = await ctx.db
    .select()
    .from(testimonialResponses)
    .where(eq(testimonialResponses.requestId, row.id))
    .orderBy(asc(testimonialResponses.orderPosition));
  // Issue 29: a withdrawn testimonial issues no media address at all; a removed answer's media, and any
  // render holding a removed answer (its job's recorded answers, every answer before issue 29), none.
  const removedIds = new Set(responses.filter((r) => r.removalRequestedAt).map((r) => r.id));
  const holdsRemoved = await rendersHoldingRemoved(ctx, row.id, responses.map((r) => r.id), removedIds);
  const url = (key: string | null, responseId: string | null = null) =>
    row.paid && key && !row.consentWithdrawnAt && !(responseId && removedIds.has(responseId)) && !holdsRemoved.has(key)
      ? `${ctx.config.appUrl}${signMediaPath(ctx.secrets.jwt, key)}`
      : null;
  const latest = await latestJobs(ctx.db, row.id);
  const exported = row.paid && !row.consentWithdrawnAt ? await storedExports(ctx.db, row.id) : new Map<string, StoredExport[]>();
  const exportsOf = (owner: string): NonNullable<TTestimonialResponse['exports']> =>
    (removedIds.has(owner) ? [] : (exported.get(owner) ?? []).filter((e) => !holdsRemoved.has(e.outputKey))).map((e) => ({
      id: e.jobId,
      platform: e.platform,
      videoType: e.videoType,
      video_url: url(e.outputKey)!,
      poster_url: url(posterKeyOf(e.outputKey)),
      finished_at: e.finishedAt.toISOString(),
    }));
  return {
    ...toRequestSafe(ctx, row),
    submitted_at: row.submittedAt?.toISOString() ?? null,
    video_url: url(row.mergedKey),
    video_url_subtitles: url(row.mergedSubtitlesKey),
    has_subtitles: Boolean(row.mergedSubtitlesKey),
    short_video_url: url(row.shortKey),
    short_video_url_original: url(row.shortOriginalKey),
    exports: exportsOf(''),
    merged_poster_url: url(posterKeyOf(row.mergedKey)),
    merged_subtitles_poster_url: url(posterKeyOf(row.mergedSubtitlesKey)),
    short_poster_url: url(posterKeyOf(row.shortKey)),
    short_original_poster_url: url(posterKeyOf(row.shortOriginalKey)),
    testimonial_responses: responses.map((r) => ({
      id: r.id,
      question: { id: r.questionId, text: r.questionText },
      video_url: url(r.videoKey, r.id),
      modified_video_url: url(r.modifiedKey, r.id),
      intro_generated: r.introGenerated,
      has_subtitles: r.hasSubtitles,
      short_video_url: url(r.shortKey, r.id),
      short_video_url_original: url(r.shortOriginalKey, r.id),
      exports: exportsOf(r.id),
      orderPosition: r.orderPosition,
      poster_url: url(r.posterKey, r.id),
      duration_seconds: r.videoKey ? r.durationSeconds : null,
      modified_poster_url: url(posterKeyOf(r.modifiedKey), r.id),
      short_poster_url: url(posterKeyOf(r.shortKey), r.id),
      short_original_poster_url: url(posterKeyOf(r.shortOriginalKey), r.id),
      render_state: renderStateOf(newestJob(latest, r.id, ANSWER_RENDER_KINDS)),
      media: mediaState(ctx, r, latest.get(`${r.id}:transcode`)),
      removal_requested_at: r.removalRequestedAt?.toISOString() ?? null,
      trim_start: r.trimStart,
      trim_end: r.trimEnd,
    })),
    render_state: renderStateOf(newestJob(latest, null, TESTIMONIAL_RENDER_KINDS)),
    customer_control: await customerControl(ctx, row),
    draft: row.consentWithdrawnAt ? null : await draftOf(ctx, ctx.db, row.id, url),
  };
}

/**
 * The stored outputs (and their posters) of a testimonial's renders that hold an answer the customer asked
 * to remove: what each render recorded it holds, or for a render of the whole testimonial from before
 * issue 29, every answer. One query, only when an answer was removed.
 */
async function rendersHoldingRemoved(ctx: AppContext, requestId: string, allIds: string[], removed: Set<string>): Promise<Set<string>> {
  if (!removed.size) return new Set();
  const rows = await ctx.db
    .select({ outputKey: jobs.outputKey, responseId: jobs.responseId, result: jobs.result })
    .from(jobs)
    .where(and(eq(jobs.requestId, requestId), inArray(jobs.kind, ['intro', 'subtitles', 'merge', 'merged_subtitles', 'export', 'draft']), isNotNull(jobs.outputKey)));
  const keys = new Set<string>();
  for (const job of rows) {
    const inside = renderedAnswers(job) ?? (job.responseId ? [job.responseId] : allIds);
    if (job.outputKey && inside.some((id) => removed.has(id))) {
      keys.add(job.outputKey);
      const poster = posterKeyOf(job.outputKey);
      if (poster) keys.add(poster);
    }
  }
  return keys;
}

/** What the detail shows of the customer's control (ZCustomerControl): the withdrawal, the media deletion, the approvals. */
async function customerControl(ctx: AppContext, row: RequestRow): Promise<TCustomerControl> {
  const [company] = await ctx.db.select({ approvalRequired: companies.approvalRequired }).from(companies).where(eq(companies.id, row.companyId));
  const dueAt =
    row.consentWithdrawnAt && !row.mediaDeletedAt ? new Date(row.consentWithdrawnAt.getTime() + ctx.config.consentWithdrawnRetentionDays * 86_400_000).toISOString() : null;
  return {
    consent_withdrawn_at: row.consentWithdrawnAt?.toISOString() ?? null,
    media_deletion_due_at: dueAt,
    media_deleted_at: row.mediaDeletedAt?.toISOString() ?? null,
    approval_required: approvalRequiredOf(row, { approvalRequired: company?.approvalRequired ?? false }),
    approval_required_override: row.approvalRequired,
    approvals: (await approvalsOf(ctx.db, row.id)).map(toApproval),
  };
}

/**
 * The detail call of the spec (§8): `{ testimonial, error_credit }`. Unknown or another company's →
 * no testimonial; unpaid with no credit left → no testimonial and `error_credit`; unpaid otherwise →
 * the testimonial without media, to be paid for.
 */
export async function getTestimonialDetail(ctx: AppContext, companyId: string, id: string) {
  const [row] = await ctx.db.select().from(testimonialRequests).where(and(eq(testimonialRequests.id, id), eq(testimonialRequests.companyId, companyId)));
  if (!row) return { testimonial: null, error_credit: false };
  // A withdrawn testimonial shows what happened to it, paid or not, and asks for no credit (it has nothing to unlock).
  if (!row.paid && row.status === 'completed' && !row.consentWithdrawnAt) {
    const [company] = await ctx.db.select({ credits: companies.credits }).from(companies).where(eq(companies.id, companyId));
    if ((company?.credits ?? 0) < 1) return { testimonial: null, error_credit: true };
  }
  return { testimonial: await toTestimonial(ctx, row), error_credit: false };
}

/**
 * Issue 32 (the API's testimonials): one of the company's testimonials as the detail draws it, or null
 * for an unknown or another company's id. No credit is asked for: an unpaid one simply has no media.
 */
export async function companyTestimonial(ctx: AppContext, companyId: string, id: string): Promise<TTestimonialRequest | null> {
  const [row] = await ctx.db.select().from(testimonialRequests).where(and(eq(testimonialRequests.id, id), eq(testimonialRequests.companyId, companyId)));
  return row ? toTestimonial(ctx, row) : null;
}

/** A page of the company's testimonials, newest first, each as the detail draws it, with the company's total. */
export async function companyTestimonials(
  ctx: AppContext,
  companyId: string,
  page: { page: number; perPage: number },
): Promise<{ testimonials: TTestimonialRequest[]; total: number }> {
  const mine = eq(testimonialRequests.companyId, companyId);
  const [counted] = await ctx.db.select({ total: count() }).from(testimonialRequests).where(mine);
  const rows = await ctx.db
    .select()
    .from(testimonialRequests)
    .where(mine)
    .orderBy(desc(testimonialRequests.createdAt), desc(testimonialRequests.id))
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage);
  const testimonials: TTestimonialRequest[] = [];
  for (const row of rows) testimonials.push(await toTestimonial(ctx, row));
  return { testimonials, total: counted?.total ?? 0 };
}

/**
 * Spends one credit to unlock a completed testimonial, in one transaction of conditional updates: the
 * testimonial flips to paid only if it was unpaid, the balance drops only if it is at least one (the
 * column's check forbids going below zero anyway), and the ledger row is unique per testimonial.
 * Paying again for a paid testimonial charges nothing.
 */
export async function payForTestimonial(ctx: AppContext, companyId: string, id: string, actorUserId?: string): Promise<{ credits: number }> {
  return ctx.database.transaction(async (executeSql, tx) => {
    const paid = await payInTransaction(ctx, { tx, executeSql }, companyId, id, { actorUserId });
    // Issue 31: its draft starts now when its answers are prepared already (else at the last one's preparation).
    await startDraftIfReady(ctx, { tx, executeSql }, id);
    return paid;
  });
}

/** The company's ledger, newest first: purchases (amount in cents) and testimonial payments. */
export async function listTransactions(ctx: AppContext, companyId: string): Promise<TTransaction[]> {
  const rows = await ctx.db
    .select({ t: creditTransactions, customerName: testimonialRequests.customerName })
    .from(creditTransactions)
    .leftJoin(testimonialRequests, eq(testimonialRequests.id, creditTransactions.requestId))
    .where(eq(creditTransactions.companyId, companyId))
    .orderBy(desc(creditTransactions.createdAt));
  return rows.map(({ t, customerName }) => ({
    id: t.id,
    transaction_type: t.transactionType,
    amount: t.amount,
    currency: t.currency,
    date: t.createdAt.toISOString(),
    testimonial: t.requestId && customerName !== null ? { id: t.requestId, customer_name: customerName } : null,
  }));
}
