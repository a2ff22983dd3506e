import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { testimonialRequests, testimonialResponses } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';

/**
 * The customer's control over a testimonial (issue 29), as the company's side enforces it: one place
 * that every studio, transcription, publication and job action calls (decision 187). A testimonial whose
 * consent was withdrawn can no longer be used at all (409 `consent_withdrawn` with its date); an answer
 * whose removal the customer asked for can no longer be used (409 `answer_removed`), and is left out of
 * every output made of the whole testimonial.
 */

/** DD/MM/YYYY in UTC, the refusal's `params.date`. */
export function ddmmyyyy(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(at.getUTCDate())}/${pad(at.getUTCMonth() + 1)}/${at.getUTCFullYear()}`;
}

export const consentWithdrawnError = (at: Date) => new AppError('conflict', { reason: 'consent_withdrawn', params: { date: ddmmyyyy(at) } });
export const answerRemovedError = () => new AppError('conflict', { reason: 'answer_removed' });
export const allAnswersRemovedError = () => new AppError('conflict', { reason: 'all_answers_removed' });

/** Refuses a testimonial row already read whose consent was withdrawn. */
export function refuseWithdrawn(request: { consentWithdrawnAt: Date | null }): void {
  if (request.consentWithdrawnAt) throw consentWithdrawnError(request.consentWithdrawnAt);
}

/** Refuses answer rows already read of which one was removed by the customer. */
export function refuseRemoved(answers: { removalRequestedAt: Date | null }[]): void {
  if (answers.some((a) => a.removalRequestedAt)) throw answerRemovedError();
}

/** The answers still usable (not removed), in their given order. */
export const usableAnswers = <T extends { removalRequestedAt: Date | null }>(answers: T[]): T[] => answers.filter((a) => !a.removalRequestedAt);

/**
 * Refuses an action on a testimonial of the company whose consent was withdrawn, or on answers of it
 * the customer asked to remove. Unknown ids pass (the caller's own lookup answers its 404): this only
 * adds the customer's refusals. Two primary-key lookups at most.
 */
export async function assertUsable(db: DbOrTx, input: { companyId: string; requestId: string; responseIds?: readonly (string | null | undefined)[] }): Promise<void> {
  const [request] = await db
    .select({ consentWithdrawnAt: testimonialRequests.consentWithdrawnAt })
    .from(testimonialRequests)
    .where(and(eq(testimonialRequests.id, input.requestId), eq(testimonialRequests.companyId, input.companyId)));
  if (request) refuseWithdrawn(request);
  const ids = [...new Set((input.responseIds ?? []).filter((id): id is string => Boolean(id)))];
  if (!ids.length) return;
  const answers = await db
    .select({ removalRequestedAt: testimonialResponses.removalRequestedAt })
    .from(testimonialResponses)
    .where(and(inArray(testimonialResponses.id, ids), eq(testimonialResponses.companyId, input.companyId)));
  refuseRemoved(answers);
}

/** The answers a finished render contains, as it recorded them (`result.responseIds`), else null (a render from before issue 29). */
export function renderedAnswers(job: { result: unknown }): string[] | null {
  const ids = (job.result as { responseIds?: unknown } | null)?.responseIds;
  return Array.isArray(ids) && ids.every((id) => typeof id === 'string') ? (ids as string[]) : null;
}
