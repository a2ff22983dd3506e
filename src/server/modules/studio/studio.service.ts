import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { jobReasonMessage, type TJobKind, type TJobReason } from '../../../contract/api/jobs.schema.js';
import {
  EXPORT_PLATFORMS,
  ZExportPlatform,
  ZExportVideoType,
  type TCropArea,
  type TExportFormat,
  type TExportPlatform,
  type TExportVideoType,
  type TRenderJobResponse,
  type TRenderOutput,
  type TRenderState,
} from '../../../contract/api/studio.schema.js';
import type { TTranscriptionSegment } from '../../../contract/api/transcription.schema.js';
import { cueProblem } from '../../../contract/typed-cues.js';
import { withRetimedWords } from '../../../contract/subtitles.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/client.js';
import { jobs, testimonialRequests, testimonialResponses, transcriptions } from '../../db/schema.js';
import { crashPoint } from '../../lib/crash-point.js';
import { AppError } from '../../lib/errors.js';
import { allAnswersRemovedError, answerRemovedError, refuseRemoved, refuseWithdrawn, renderedAnswers, usableAnswers } from '../consent/control.js';
import { enqueueJob, type JobRow, type Tx } from '../jobs/jobs.service.js';

/**
 * The video studio (issue 16). A start call checks the answer or testimonial and enqueues a render job
 * in one transaction: the `jobs` row and its queue message commit together, and the unique index on
 * renders in flight refuses a second one (409 `conflict`), with no check-then-update race. The worker's
 * half (rendering and recording each output) is render.job.ts.
 */

type ResponseRow = typeof testimonialResponses.$inferSelect;
type RequestRow = typeof testimonialRequests.$inferSelect;
type RenderKind = 'intro' | 'subtitles' | 'merge' | 'merged_subtitles' | 'export' | 'draft';
type Language = 'en' | 'fr';
export interface ExportOptions {
  platform: TExportPlatform;
  videoType: TExportVideoType;
  cropArea: TCropArea;
  /** Further formats rendered in the same run, each with its own crop (issue 31). */
  platforms?: TExportFormat[] | undefined;
}
/** What a render job's `params` hold. */
export interface RenderParams {
  language?: Language;
  platform?: TExportPlatform;
  videoType?: TExportVideoType;
  cropArea?: TCropArea;
  /** Further formats of an export, rendered in the same run (issue 31, decision 199). */
  platforms?: TExportFormat[];
  /** A further format's export: the export job whose run made it. */
  madeWith?: string;
}

/** The output names of ZRenderState for each render kind. */
const OUTPUT_OF: Record<RenderKind, TRenderOutput> = { intro: 'intro', subtitles: 'subtitles', merge: 'merge', merged_subtitles: 'merged_subtitles', export: 'export', draft: 'draft' };
/** The render kinds shown as an answer's render_state, and as the testimonial's. */
export const ANSWER_RENDER_KINDS = ['intro', 'subtitles', 'export'] as const satisfies readonly TJobKind[];
export const TESTIMONIAL_RENDER_KINDS = ['merge', 'merged_subtitles', 'export'] as const satisfies readonly TJobKind[];

/** The contract's render state of a render job (its phase, but 'cancelled' is 'failed'). */
export function renderStateOf(job: JobRow | undefined | null): TRenderState | null {
  if (!job || !(job.kind in OUTPUT_OF)) return null;
  const phase = job.phase === 'cancelled' ? 'failed' : job.phase;
  const reason: TJobReason = job.errorReason ?? (job.phase === 'cancelled' ? 'interrupted' : 'render_failed');
  return {
    output: OUTPUT_OF[job.kind as RenderKind],
    jobId: job.id,
    phase,
    progress: job.progress,
    error: phase === 'failed' ? jobReasonMessage(reason, job.errorParams ?? {}) : null,
  };
}

/** The newest of a subject's latest jobs of these kinds (from `latestJobs`). */
export function newestJob(latest: Map<string, JobRow>, responseId: string | null, kinds: readonly TJobKind[]): JobRow | undefined {
  return kinds
    .map((kind) => latest.get(`${responseId ?? ''}:${kind}`))
    .filter((row): row is JobRow => Boolean(row))
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
}

/** A stored export: the output of a finished export job, of one format and version. */
export interface StoredExport {
  jobId: string;
  platform: TExportPlatform;
  videoType: TExportVideoType;
  outputKey: string;
  finishedAt: Date;
}

/**
 * The stored exports of a testimonial and of each of its answers (decision 161), keyed by answer id
 * ('' for the merged video): the latest finished export job of each format and version, since every
 * export keeps its own file (its key holds its job's id) and a new one only moves the row's pointer of
 * its version. A newer export of the same format and version replaces the older one in the list; any
 * other keeps its own entry. Ordered by format (EXPORT_PLATFORMS), then version: the enhanced first, as
 * the cards show their versions.
 */
export async function storedExports(db: Db, requestId: string): Promise<Map<string, StoredExport[]>> {
  const rows = await db
    .select({ id: jobs.id, responseId: jobs.responseId, params: jobs.params, outputKey: jobs.outputKey, finishedAt: jobs.finishedAt, createdAt: jobs.createdAt })
    .from(jobs)
    .where(and(eq(jobs.requestId, requestId), eq(jobs.kind, 'export'), eq(jobs.phase, 'ready')))
    .orderBy(desc(sql`coalesce(${jobs.finishedAt}, ${jobs.createdAt})`), desc(jobs.createdAt));
  const latest = new Map<string, StoredExport & { owner: string }>();
  for (const row of rows) {
    const platform = ZExportPlatform.safeParse(row.params.platform);
    const videoType = ZExportVideoType.safeParse(row.params.videoType);
    if (!row.outputKey || !platform.success || !videoType.success) continue;
    const owner = row.responseId ?? '';
    const slot = `${owner}:${platform.data}:${videoType.data}`;
    if (latest.has(slot)) continue; // newest first: an older export of this format and version is replaced
    latest.set(slot, { owner, jobId: row.id, platform: platform.data, videoType: videoType.data, outputKey: row.outputKey, finishedAt: row.finishedAt ?? row.createdAt });
  }
  const rank = (e: StoredExport) => EXPORT_PLATFORMS.indexOf(e.platform) * 2 + (e.videoType === 'modified' ? 0 : 1);
  const byOwner = new Map<string, StoredExport[]>();
  for (const { owner, ...entry } of [...latest.values()].sort((a, b) => rank(a) - rank(b))) byOwner.set(owner, [...(byOwner.get(owner) ?? []), entry]);
  return byOwner;
}

/* ------------------------------------------------------------------ start calls */

async function paidRequest(tx: Db, companyId: string, requestId: string): Promise<RequestRow> {
  const [row] = await tx.select().from(testimonialRequests).where(and(eq(testimonialRequests.id, requestId), eq(testimonialRequests.companyId, companyId)));
  if (!row) throw new AppError('not_found', { message: 'This testimonial does not exist or was deleted.' });
  if (!row.paid) throw new AppError('no_permission', { message: 'Unlock this testimonial (one credit) before editing its videos.' });
  refuseWithdrawn(row);
  return row;
}

export async function ownedResponse(tx: Db, companyId: string, responseId: string): Promise<ResponseRow> {
  const [row] = await tx.select().from(testimonialResponses).where(and(eq(testimonialResponses.id, responseId), eq(testimonialResponses.companyId, companyId)));
  if (!row) throw new AppError('not_found', { message: 'This answer does not exist or was deleted.' });
  await paidRequest(tx, companyId, row.requestId);
  refuseRemoved([row]);
  return row;
}

/**
 * Refuses (409 `conflict`) answers whose upload is not ready for the studio: still being prepared, or
 * whose preparation failed (which a render cannot fix: the company is told so).
 */
async function requirePrepared(tx: Db, answers: ResponseRow[], one: boolean): Promise<void> {
  const waiting = answers.filter((a) => !a.videoKey);
  if (!waiting.length) return;
  const transcodes = await tx
    .select({ responseId: jobs.responseId, phase: jobs.phase })
    .from(jobs)
    .where(and(inArray(jobs.responseId, waiting.map((a) => a.id)), eq(jobs.kind, 'transcode')))
    .orderBy(desc(jobs.createdAt));
  const latest = new Map<string, string>();
  for (const t of transcodes) if (t.responseId && !latest.has(t.responseId)) latest.set(t.responseId, t.phase);
  if (waiting.some((a) => latest.get(a.id) === 'failed' || latest.get(a.id) === 'cancelled')) {
    throw new AppError('conflict', {
      message: one
        ? 'This answer could not be prepared for playback, so it cannot be edited. Try preparing it again, or ask the customer to record it again.'
        : 'An answer of this testimonial could not be prepared for playback. Try preparing it again, or ask the customer to record it again.',
    });
  }
  throw new AppError('conflict', {
    message: one ? 'This answer is still being prepared. Try again in a minute.' : 'The answers are still being prepared. Try again in a minute.',
  });
}

/**
 * Saves edited cues of answers of the company (they are what the burn-in uses), in the caller's transaction.
 * The engine's own words (original_segments) are never written here (decision 154); a row stored before
 * they were kept and never edited has them in its segments, which are kept before the first edit.
 */
async function saveCues(tx: Db, companyId: string, items: { responseId: string; cues: TTranscriptionSegment[] }[]): Promise<void> {
  for (const item of items) {
    const owned = await ownedResponse(tx, companyId, item.responseId);
    // Typed or engine lines follow the same rules (decision 167); the transaction is refused whole.
    const problem = cueProblem(item.cues, owned.durationSeconds);
    if (problem) throw new AppError('invalid_data', { reason: problem.reason, params: problem.params, field: 'transcription' });
    // Each cue's words: kept from the stored cue of the same text, else re-timed by characters (issue 31).
    const [stored] = await tx.select({ segments: transcriptions.segments }).from(transcriptions).where(eq(transcriptions.responseId, owned.id));
    const cues = withRetimedWords(item.cues, stored?.segments ?? []);
    await tx
      .insert(transcriptions)
      .values({ responseId: owned.id, companyId, engine: 'edited', language: 'en', segments: cues, edited: true })
      .onConflictDoUpdate({
        target: transcriptions.responseId,
        set: {
          segments: cues,
          originalSegments: sql`coalesce(${transcriptions.originalSegments}, case when ${transcriptions.edited} then null else ${transcriptions.segments} end)`,
          edited: true,
          updatedAt: new Date(),
        },
      });
  }
}

const jobParams = (language: Language, exportOptions?: ExportOptions): RenderParams => {
  const { platforms, ...single } = exportOptions ?? {};
  return { language, ...single, ...(platforms?.length ? { platforms } : {}) };
};

async function enqueueRender(
  ctx: AppContext,
  t: Tx,
  input: { companyId: string; kind: RenderKind; requestId: string; responseId?: string; params: RenderParams; requestedBy?: string | undefined },
): Promise<TRenderJobResponse> {
  const job = await enqueueJob(ctx, t, {
    companyId: input.companyId,
    kind: input.kind,
    requestId: input.requestId,
    responseId: input.responseId ?? null,
    params: { ...input.params },
    requestedBy: input.requestedBy ?? null,
  });
  return { jobId: job.id, state: renderStateOf(job)! };
}

/**
 * Starts a render of an answer: its intro (also 'regenerate'), its subtitles (the edited cues are saved
 * in the same transaction) or its export. Answers at once with the job.
 */
export async function startResponseRender(
  ctx: AppContext,
  input: {
    companyId: string;
    responseId: string;
    kind: 'intro' | 'subtitles' | 'export';
    language: Language;
    export?: ExportOptions;
    cues?: TTranscriptionSegment[];
    /** The member who asked (the activity log's "who"). */
    requestedBy?: string;
  },
): Promise<TRenderJobResponse> {
  const started = await ctx.database.transaction(async (executeSql, tx) => {
    const row = await ownedResponse(tx, input.companyId, input.responseId);
    await requirePrepared(tx, [row], true);
    if (input.kind === 'export' && input.export?.videoType === 'modified' && !row.modifiedKey) {
      throw new AppError('invalid_data', { message: 'This answer has no enhanced version yet: export the original, or generate the intro first.', field: 'videoType' });
    }
    if (input.cues) await saveCues(tx, input.companyId, [{ responseId: row.id, cues: input.cues }]);
    return enqueueRender(ctx, { tx, executeSql }, {
      companyId: input.companyId,
      kind: input.kind,
      requestId: row.requestId,
      responseId: row.id,
      params: jobParams(input.language, input.export),
      requestedBy: input.requestedBy,
    });
  });
  crashPoint('render-committed');
  return started;
}

/**
 * Starts a render of the whole testimonial: the merge (also 'regenerate-merged'), the merge with every
 * answer's subtitles (the edited cues are saved in the same transaction) or the export of the merged video.
 */
export async function startRequestRender(
  ctx: AppContext,
  input: {
    companyId: string;
    requestId: string;
    kind: 'merge' | 'merged_subtitles' | 'export';
    language: Language;
    export?: ExportOptions;
    cues?: { responseId: string; cues: TTranscriptionSegment[] }[];
    /** The member who asked (the activity log's "who"). */
    requestedBy?: string;
  },
): Promise<TRenderJobResponse> {
  const started = await ctx.database.transaction(async (executeSql, tx) => {
    const request = await paidRequest(tx, input.companyId, input.requestId);
    const all = await tx.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, request.id));
    if (!all.length) throw new AppError('conflict', { message: 'This testimonial has no answers to merge.' });
    // Answers the customer asked to remove are left out of every output of the whole testimonial.
    const answers = usableAnswers(all);
    if (!answers.length) throw allAnswersRemovedError();
    await requirePrepared(tx, answers, false);
    if (input.kind === 'export' && !request.mergedKey) throw new AppError('conflict', { message: 'Merge the answers before exporting the merged video.' });
    if (input.kind === 'export' && input.export?.videoType === 'original') {
      // The original is cut from the merged video as rendered: refused when it holds a removed answer.
      const [merge] = await tx.select({ result: jobs.result }).from(jobs).where(and(eq(jobs.requestId, request.id), eq(jobs.outputKey, request.mergedKey!))).limit(1);
      const inside = (merge && renderedAnswers(merge)) ?? all.map((a) => a.id);
      if (all.some((a) => a.removalRequestedAt && inside.includes(a.id))) throw answerRemovedError();
    }
    if (input.cues) {
      if (input.cues.some((item) => !all.some((a) => a.id === item.responseId))) {
        throw new AppError('invalid_data', { message: 'Every subtitled answer must belong to this testimonial.', field: 'transcriptions' });
      }
      // The lines of a removed answer are not saved: it is not in the video.
      await saveCues(tx, input.companyId, input.cues.filter((item) => answers.some((a) => a.id === item.responseId)));
    }
    return enqueueRender(ctx, { tx, executeSql }, {
      companyId: input.companyId,
      kind: input.kind,
      requestId: request.id,
      params: jobParams(input.language, input.export),
      requestedBy: input.requestedBy,
    });
  });
  crashPoint('render-committed');
  return started;
}

