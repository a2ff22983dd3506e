import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import { NO_CREDITS_MESSAGE, type TTestimonialRequest, type TTestimonialResponse } from '../../../contract/api/testimonials.schema.js';
import type { TTransaction } from '../../../contract/api/payment.schema.js';
import type { AppContext } from '../../context.js';
import { companies, creditTransactions, testimonialRequests, testimonialResponses } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { signMediaPath } from '../../media/signed-urls.js';
import { latestJobs, toJob, type JobRow } from '../jobs/jobs.service.js';
import { toRequestSafe } from '../requests/requests.service.js';
import { posterKeyOf } from '../studio/posters.js';
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
  const url = (key: string | null) => (row.paid && key ? `${ctx.config.appUrl}${signMediaPath(ctx.secrets.jwt, key)}` : null);
  const responses = await ctx.db
    .select()
    .from(testimonialResponses)
    .where(eq(testimonialResponses.requestId, row.id))
    .orderBy(asc(testimonialResponses.orderPosition));
  const latest = await latestJobs(ctx.db, row.id);
  const exported = row.paid ? await storedExports(ctx.db, row.id) : new Map<string, StoredExport[]>();
  const exportsOf = (owner: string): NonNullable<TTestimonialResponse['exports']> =>
    (exported.get(owner) ?? []).map((e) => ({
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
      video_url: url(r.videoKey),
      modified_video_url: url(r.modifiedKey),
      intro_generated: r.introGenerated,
      has_subtitles: r.hasSubtitles,
      short_video_url: url(r.shortKey),
      short_video_url_original: url(r.shortOriginalKey),
      exports: exportsOf(r.id),
      orderPosition: r.orderPosition,
      poster_url: url(r.posterKey),
      duration_seconds: r.videoKey ? r.durationSeconds : null,
      modified_poster_url: url(posterKeyOf(r.modifiedKey)),
      short_poster_url: url(posterKeyOf(r.shortKey)),
      short_original_poster_url: url(posterKeyOf(r.shortOriginalKey)),
      render_state: renderStateOf(newestJob(latest, r.id, ANSWER_RENDER_KINDS)),
      media: mediaState(ctx, r, latest.get(`${r.id}:transcode`)),
    })),
    render_state: renderStateOf(newestJob(latest, null, TESTIMONIAL_RENDER_KINDS)),
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
  if (!row.paid && row.status === 'completed') {
    const [company] = await ctx.db.select({ credits: companies.credits }).from(companies).where(eq(companies.id, companyId));
    if ((company?.credits ?? 0) < 1) return { testimonial: null, error_credit: true };
  }
  return { testimonial: await toTestimonial(ctx, row), error_credit: false };
}

/**
 * Spends one credit to unlock a completed testimonial, in one transaction of conditional updates: the
 * testimonial flips to paid only if it was unpaid, the balance drops only if it is at least one (the
 * column's check forbids going below zero anyway), and the ledger row is unique per testimonial.
 * Paying again for a paid testimonial charges nothing.
 */
export async function payForTestimonial(ctx: AppContext, companyId: string, id: string): Promise<{ credits: number }> {
  return ctx.db.transaction(async (tx) => {
    const [flipped] = await tx
      .update(testimonialRequests)
      .set({ paid: true, paidAt: new Date(), updatedAt: new Date() })
      .where(
        and(
          eq(testimonialRequests.id, id),
          eq(testimonialRequests.companyId, companyId),
          eq(testimonialRequests.status, 'completed'),
          eq(testimonialRequests.paid, false),
        ),
      )
      .returning({ id: testimonialRequests.id });
    if (!flipped) {
      const [row] = await tx.select().from(testimonialRequests).where(and(eq(testimonialRequests.id, id), eq(testimonialRequests.companyId, companyId)));
      if (!row) throw new AppError('not_found', { message: 'This testimonial does not exist or was deleted.' });
      if (row.status !== 'completed') {
        throw new AppError('conflict', { reason: 'nothing_to_unlock' });
      }
      const [company] = await tx.select({ credits: companies.credits }).from(companies).where(eq(companies.id, companyId));
      return { credits: company?.credits ?? 0 };
    }
    const [charged] = await tx
      .update(companies)
      .set({ credits: sql`${companies.credits} - 1`, updatedAt: new Date() })
      .where(and(eq(companies.id, companyId), gt(companies.credits, 0)))
      .returning({ credits: companies.credits });
    if (!charged) throw new AppError('invalid_data', { status: 402, message: NO_CREDITS_MESSAGE });
    await tx.insert(creditTransactions).values({ companyId, transactionType: 'testimonial_payment', credits: -1, amount: 1, currency: 'credit', requestId: id });
    return { credits: charged.credits };
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
