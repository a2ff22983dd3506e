import { and, eq, inArray } from 'drizzle-orm';
import type { TDeleteMediaResponse } from '../../../contract/api/consent.schema.js';
import type { AppContext } from '../../context.js';
import type { ExecuteSql } from '../../db/client.js';
import { consentEvents, testimonialRequests, testimonialResponses, transcriptions } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { deleteWithdrawnMediaJob } from '../../queue/definitions.js';

/**
 * The media of a withdrawn testimonial (issue 29, decision 185): deleted CONSENT_WITHDRAWN_RETENTION_DAYS
 * after the withdrawal by a queued job (0: at once), never before; the company may delete them earlier.
 * Every stored object of a testimonial lives under `companies/{companyId}/requests/{requestId}/` (answers,
 * posters, renders, exports, publications' copies), so deleting that prefix deletes them all, on disk as
 * in S3. Its transcriptions go too. The rows stay: the consent record keeps what happened.
 */

const DAY_MS = 86_400_000;

/**
 * A job that was running when the consent was withdrawn is cancelled in the database at once, but its
 * ffmpeg may still write its output for a while (a render's message expires after 900 s): a second pass
 * deletes the testimonial's prefix again this long after a deletion, recording nothing new.
 */
export const SWEEP_AFTER_SECONDS = 1200;

export const testimonialPrefix = (r: { companyId: string; id: string }) => `companies/${r.companyId}/requests/${r.id}/`;

/** When a withdrawal's media are due for deletion. */
export const deletionDueAt = (ctx: AppContext, withdrawnAt: Date) => new Date(withdrawnAt.getTime() + ctx.config.consentWithdrawnRetentionDays * DAY_MS);

/** In the withdrawal's transaction: the deletion job, for the end of the retention period. */
export async function scheduleMediaDeletion(ctx: AppContext, executeSql: ExecuteSql, input: { requestId: string; withdrawnAt: Date; now: Date }): Promise<void> {
  const seconds = Math.ceil((deletionDueAt(ctx, input.withdrawnAt).getTime() - input.now.getTime()) / 1000);
  await ctx.queue.send(deleteWithdrawnMediaJob, { requestId: input.requestId }, { executeSql, ...(seconds > 0 ? { startAfter: seconds } : {}) });
}

/** Deletes every stored object and transcription of a testimonial, then records it (media_deleted_at, a 'media_deleted' event). */
async function deleteMedia(ctx: AppContext, request: { id: string; companyId: string }, now: Date, by: 'retention' | 'company'): Promise<Date> {
  // The objects first: should this fail, nothing says they are gone, and the job tries again.
  const deleted = await ctx.storage.deletePrefix(testimonialPrefix(request));
  return ctx.database.transaction(async (executeSql, tx) => {
    const [locked] = await tx.select().from(testimonialRequests).where(eq(testimonialRequests.id, request.id)).for('update');
    if (!locked) return now;
    if (locked.mediaDeletedAt) return locked.mediaDeletedAt;
    const answerIds = (await tx.select({ id: testimonialResponses.id }).from(testimonialResponses).where(eq(testimonialResponses.requestId, request.id))).map((a) => a.id);
    if (answerIds.length) await tx.delete(transcriptions).where(and(inArray(transcriptions.responseId, answerIds), eq(transcriptions.companyId, request.companyId)));
    await tx.update(testimonialRequests).set({ mediaDeletedAt: now, updatedAt: now }).where(eq(testimonialRequests.id, request.id));
    await tx.insert(consentEvents).values({ companyId: request.companyId, requestId: request.id, kind: 'media_deleted', detail: { by, objects: deleted }, at: now });
    await ctx.queue.send(deleteWithdrawnMediaJob, { requestId: request.id, sweep: true }, { executeSql, startAfter: SWEEP_AFTER_SECONDS });
    return now;
  });
}

/**
 * The retention job's work, with the clock as a parameter: deletes a withdrawn testimonial's media when
 * the period is over; run early, it sends itself again for the due time and deletes nothing.
 */
export async function runMediaDeletion(
  ctx: AppContext,
  requestId: string,
  now: Date,
  options: { sweep?: boolean } = {},
): Promise<'deleted' | 'rescheduled' | 'swept' | 'nothing'> {
  const [request] = await ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, requestId));
  if (options.sweep && request?.consentWithdrawnAt && request.mediaDeletedAt) {
    await ctx.storage.deletePrefix(testimonialPrefix(request));
    return 'swept';
  }
  if (!request?.consentWithdrawnAt || request.mediaDeletedAt) return 'nothing';
  const due = deletionDueAt(ctx, request.consentWithdrawnAt);
  if (due.getTime() > now.getTime()) {
    await ctx.database.transaction(async (executeSql) => {
      await scheduleMediaDeletion(ctx, executeSql, { requestId, withdrawnAt: request.consentWithdrawnAt!, now });
    });
    return 'rescheduled';
  }
  await deleteMedia(ctx, request, now, 'retention');
  return 'deleted';
}

/** POST /api/testimonials/:id/delete-media: the company deletes a withdrawn testimonial's media now. */
export async function deleteMediaNow(ctx: AppContext, input: { companyId: string; requestId: string }): Promise<TDeleteMediaResponse> {
  const [request] = await ctx.db
    .select()
    .from(testimonialRequests)
    .where(and(eq(testimonialRequests.id, input.requestId), eq(testimonialRequests.companyId, input.companyId)));
  if (!request) throw new AppError('not_found', { message: 'This testimonial does not exist.' });
  if (!request.consentWithdrawnAt) throw new AppError('conflict', { reason: 'media_delete_not_withdrawn' });
  const at = request.mediaDeletedAt ?? (await deleteMedia(ctx, request, new Date(), 'company'));
  return { media_deleted_at: at.toISOString() };
}
