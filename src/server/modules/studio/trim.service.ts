import { eq } from 'drizzle-orm';
import { SAVE_LIMITS } from '../../../contract/api/public.schema.js';
import type { TTrimBody, TTrimResponse } from '../../../contract/api/trim.schema.js';
import { keptPart, normalisedTrim, trimProblem } from '../../../contract/trim.js';
import type { AppContext } from '../../context.js';
import { testimonialResponses } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { ownedResponse } from './studio.service.js';

/**
 * Trims of an answer (issue 31, decision 201): the company sets the part of an answer every output
 * uses, and the renders read only that part of the kept file (render.ts trimInputArgs). Outputs made
 * before a change stay as they were: the detail says to make them again.
 */

type ResponseRow = typeof testimonialResponses.$inferSelect;

/** The part of an answer its outputs use, in seconds of its prepared file; null when it is used whole. */
export function answerKept(row: Pick<ResponseRow, 'trimStart' | 'trimEnd' | 'durationSeconds'>): { start: number; end: number } | null {
  return keptPart({ start: row.trimStart, end: row.trimEnd }, row.durationSeconds, SAVE_LIMITS.maxDurationSeconds);
}

/**
 * Saves an answer's trim: an answer of the caller's company (404 otherwise), of an unlocked testimonial
 * the customer has not withdrawn, not removed at the customer's request (the studio's rules), prepared
 * for playback, with what is kept inside the answer and at least TRIM_MIN_SECONDS long.
 */
export async function saveTrim(ctx: AppContext, input: { companyId: string; responseId: string; trim: TTrimBody }): Promise<TTrimResponse> {
  return ctx.database.transaction(async (_executeSql, tx) => {
    const row = await ownedResponse(tx, input.companyId, input.responseId);
    const duration = row.videoKey ? row.durationSeconds : null;
    const problem = trimProblem(input.trim, duration);
    if (problem) {
      throw new AppError(problem.reason === 'trim_not_ready' ? 'conflict' : 'invalid_data', {
        reason: problem.reason,
        params: problem.params,
        ...(problem.field ? { field: problem.field } : {}),
      });
    }
    const saved = normalisedTrim(input.trim, duration!);
    await tx.update(testimonialResponses).set({ trimStart: saved.start, trimEnd: saved.end, updatedAt: new Date() }).where(eq(testimonialResponses.id, row.id));
    return { id: row.id, trim_start: saved.start, trim_end: saved.end };
  });
}

/** The kept parts a finished render recorded of its trimmed answers (`result.kept`, by answer id), when it recorded any. */
export function keptRecorded(job: { result: unknown } | undefined): Record<string, { start: number; end: number }> | undefined {
  const kept = (job?.result as { kept?: unknown } | null | undefined)?.kept;
  return kept && typeof kept === 'object' ? (kept as Record<string, { start: number; end: number }>) : undefined;
}
