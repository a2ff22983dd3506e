import { and, desc, eq, inArray } from 'drizzle-orm';
import type { TDraft } from '../../../contract/api/testimonials.schema.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/client.js';
import { jobs, testimonialRequests, testimonialResponses, videoStyleSettings } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { usableAnswers } from '../consent/control.js';
import { enqueueJob, toJob, type JobRow, type Tx } from '../jobs/jobs.service.js';
import { payInTransaction } from '../testimonials/payment.js';
import { posterKeyOf } from './posters.js';

/**
 * Drafts on arrival (issue 31, decisions 206 and 207). A testimonial gets its draft, the merged video
 * with its cards and subtitles (draft.job.ts), without anyone asking: once it is paid AND every answer
 * is prepared, whichever comes last. Both moments call `startDraftIfReady` in the transaction that makes
 * them true (the pay call; a transcode's completion), which locks the testimonial's row first: of two
 * answers finishing at once, the second sees the first's answer prepared. A draft is made once: a
 * draft job queued, running or ready stops another (and a unique index backs it); a failed one can be
 * tried again (POST /api/jobs/{id}/retry).
 */

/** Starts the testimonial's draft in the caller's transaction when it is due; returns its job, else null. */
export async function startDraftIfReady(ctx: AppContext, t: Tx, requestId: string): Promise<JobRow | null> {
  if (!ctx.config.drafts) return null;
  const [request] = await t.tx.select().from(testimonialRequests).where(eq(testimonialRequests.id, requestId)).for('update');
  if (!request || !request.paid || request.status !== 'completed' || request.consentWithdrawnAt) return null;
  const answers = usableAnswers(await t.tx.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, requestId)));
  if (!answers.length || answers.some((a) => !a.videoKey)) return null;
  const [made] = await t.tx
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.requestId, requestId), eq(jobs.kind, 'draft'), inArray(jobs.phase, ['queued', 'running', 'ready'])))
    .limit(1);
  if (made) return null;
  const language = request.language === 'french' ? 'fr' : 'en';
  return enqueueJob(ctx, t, { companyId: request.companyId, kind: 'draft', requestId, params: { language } });
}

/**
 * A testimonial that has just arrived, in the submission's transaction: when the company prepares drafts
 * (`prepare_drafts`), it is paid at once through the pay call's own code, in a savepoint, so that no
 * credit left (402) leaves it locked and the submission saved. Its draft starts when its answers are
 * prepared (startDraftIfReady from the transcode). Returns whether it was paid here.
 */
export async function payOnArrival(ctx: AppContext, t: Tx, request: { id: string; companyId: string }): Promise<boolean> {
  // Without drafts (DRAFTS=off) there is nothing to pay for on arrival: the company unlocks it itself.
  if (!ctx.config.drafts) return false;
  const [style] = await t.tx.select({ prepareDrafts: videoStyleSettings.prepareDrafts }).from(videoStyleSettings).where(eq(videoStyleSettings.companyId, request.companyId));
  if (!style?.prepareDrafts) return false;
  try {
    await t.tx.transaction((savepoint) => payInTransaction(ctx, { tx: savepoint, executeSql: t.executeSql }, request.companyId, request.id));
  } catch (error) {
    if (error instanceof AppError && error.status === 402) {
      ctx.logger.info({ requestId: request.id }, 'no credit left: the testimonial stays locked, without a draft');
      return false;
    }
    throw error;
  }
  await startDraftIfReady(ctx, t, request.id);
  return true;
}

/** The draft as the detail shows it (ZDraft), from its latest job; `url` signs a key the testimonial may show (null otherwise). */
export async function draftOf(ctx: AppContext, db: Db, requestId: string, url: (key: string | null) => string | null): Promise<TDraft | null> {
  const [job] = (await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.requestId, requestId), eq(jobs.kind, 'draft')))
    .orderBy(desc(jobs.createdAt))
    .limit(1)) as JobRow[];
  if (!job) return null;
  const contract = toJob(ctx, job, { media: false });
  const result = (job.result ?? {}) as { subtitled?: unknown; durationSeconds?: unknown };
  const key = job.phase === 'ready' ? job.outputKey : null;
  return {
    job_id: job.id,
    phase: job.phase === 'cancelled' ? 'failed' : job.phase,
    progress: job.progress,
    error: job.phase === 'failed' || job.phase === 'cancelled' ? (contract.error?.message ?? 'The job was interrupted before it finished.') : null,
    error_reason: job.phase === 'failed' ? (contract.error?.reason ?? null) : job.phase === 'cancelled' ? 'interrupted' : null,
    video_url: url(key),
    poster_url: url(posterKeyOf(key)),
    subtitled: result.subtitled === true,
    duration_seconds: typeof result.durationSeconds === 'number' ? result.durationSeconds : null,
  };
}
