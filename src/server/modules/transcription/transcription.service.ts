import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { and, asc, count, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { jobReasonMessage, type TJobKind } from '../../../contract/api/jobs.schema.js';
import type { TResponseTranscription, TTranscription, TTranscriptionJobStatusResponse } from '../../../contract/api/transcription.schema.js';
import { groupCues, withRetimedWords } from '../../../contract/subtitles.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/client.js';
import { companies, jobs, testimonialRequests, testimonialResponses, transcriptions } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { allAnswersRemovedError, refuseRemoved, refuseWithdrawn, usableAnswers } from '../consent/control.js';
import { completeJob, enqueueJob, JobFailure, runJob, type JobRow, type RunMeta } from '../jobs/jobs.service.js';
import { cueProblem } from '../../../contract/typed-cues.js';
import { assertLanguage, engineFor, operatorHint } from './engines.js';
import { speechAudioArgs } from './pocketsphinx.js';

type ResponseRow = typeof testimonialResponses.$inferSelect;
type Language = 'en' | 'fr';

const TRANSCRIPTION_KINDS = ['transcription', 'merged_transcription'] as const satisfies readonly TJobKind[];

/**
 * Engine runs (pocketsphinx children, or paid TRANSCRIBE_URL calls) only ever happen in the worker's
 * transcription jobs, and a company can start only so many: at most `running` unfinished at once and
 * `perMinute` new ones a minute. A job not updated for `staleSeconds` (its worker died and the queue
 * expired it) no longer counts, nor is it joined.
 */
export const TRANSCRIPTION_LIMITS = { running: 3, perMinute: 6, staleSeconds: 15 * 60 } as const;

/** Longest answer the engine is given (an answer is at most 20 s; this bounds an original that lied). */
export const TRANSCRIPTION_MAX_MINUTES = 10;

export const TRANSCRIPTION_RATE_LIMITED_MESSAGE = 'Too many transcriptions are running for your company. Please wait a minute and try again.';

type StartedJob = { jobId: string; status: 'queued' | 'processing' };

const languageOf = (request: { language: string }): Language => (request.language === 'french' ? 'fr' : 'en');

async function ownedPaidResponse(ctx: AppContext, companyId: string, responseId: string) {
  const [row] = await ctx.db
    .select({ response: testimonialResponses, request: testimonialRequests })
    .from(testimonialResponses)
    .innerJoin(testimonialRequests, eq(testimonialRequests.id, testimonialResponses.requestId))
    .where(and(eq(testimonialResponses.id, responseId), eq(testimonialResponses.companyId, companyId)));
  if (!row) throw new AppError('not_found', { message: 'This answer does not exist or was deleted.' });
  if (!row.request.paid) throw new AppError('no_permission', { message: 'Unlock this testimonial (one credit) before transcribing it.' });
  refuseWithdrawn(row.request);
  refuseRemoved([row.response]);
  return row;
}

/**
 * Queues a transcription job (one answer, or every answer of a request) in one transaction that first
 * locks the company row, so parallel calls are counted one after the other: an unfinished job of the
 * same target is joined instead of started again, and a new one is refused (429) beyond the limits.
 * The `jobs` row and its queue message commit together (enqueueJob).
 */
async function queueTranscription(
  ctx: AppContext,
  input: { companyId: string; requestId: string; responseId: string | null; language: Language },
): Promise<StartedJob> {
  const kind: TJobKind = input.responseId ? 'transcription' : 'merged_transcription';
  return ctx.database.transaction(async (executeSql, tx) => {
    await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, input.companyId)).for('update');
    const fresh = gt(jobs.updatedAt, new Date(Date.now() - TRANSCRIPTION_LIMITS.staleSeconds * 1000));
    const unfinished = inArray(jobs.phase, ['queued', 'running']);
    const [same] = await tx
      .select({ id: jobs.id, phase: jobs.phase })
      .from(jobs)
      .where(
        and(
          eq(jobs.companyId, input.companyId),
          eq(jobs.kind, kind),
          unfinished,
          fresh,
          input.responseId ? eq(jobs.responseId, input.responseId) : and(eq(jobs.requestId, input.requestId), isNull(jobs.responseId)),
        ),
      )
      .orderBy(desc(jobs.createdAt))
      .limit(1);
    if (same) return { jobId: same.id, status: same.phase === 'running' ? ('processing' as const) : ('queued' as const) };

    const ours = and(eq(jobs.companyId, input.companyId), inArray(jobs.kind, [...TRANSCRIPTION_KINDS]));
    const [running] = await tx.select({ n: count() }).from(jobs).where(and(ours, unfinished, fresh));
    const [recent] = await tx.select({ n: count() }).from(jobs).where(and(ours, gt(jobs.createdAt, new Date(Date.now() - 60_000))));
    if (Number(running?.n ?? 0) >= TRANSCRIPTION_LIMITS.running || Number(recent?.n ?? 0) >= TRANSCRIPTION_LIMITS.perMinute) {
      throw new AppError('rate_limited', { message: TRANSCRIPTION_RATE_LIMITED_MESSAGE });
    }
    const job = await enqueueJob(ctx, { tx, executeSql }, {
      companyId: input.companyId,
      kind,
      requestId: input.requestId,
      responseId: input.responseId,
      params: { language: input.language },
    });
    return { jobId: job.id, status: 'queued' as const };
  });
}

/**
 * The transcribe call: the stored transcription at once (unless forced); otherwise a transcription job
 * for the worker, answered with its id to follow through GET /api/jobs/{id} or the job status call (its
 * merged_url then holds this one answer). The API process never runs ffmpeg nor the engine. A language
 * the engine cannot do is refused here, before anything is queued.
 */
export async function transcribeResponse(
  ctx: AppContext,
  input: { companyId: string; responseId: string; force?: boolean },
): Promise<{ transcription: TTranscription; jobId?: string; status?: StartedJob['status'] }> {
  const { response, request } = await ownedPaidResponse(ctx, input.companyId, input.responseId);
  if (!input.force) {
    const [existing] = await ctx.db.select().from(transcriptions).where(eq(transcriptions.responseId, response.id));
    if (existing) return { transcription: existing.segments };
  }
  const language = languageOf(request);
  const engine = engineFor(ctx.config);
  if (!engine.languages.includes(language)) ctx.logger.warn({ responseId: response.id, language }, operatorHint(engine, language));
  assertLanguage(engine, language);
  const started = await queueTranscription(ctx, { companyId: input.companyId, requestId: request.id, responseId: response.id, language });
  return { transcription: [], ...started };
}

export async function startMergedTranscription(ctx: AppContext, input: { companyId: string; requestId: string }): Promise<{ jobId: string }> {
  const [request] = await ctx.db
    .select()
    .from(testimonialRequests)
    .where(and(eq(testimonialRequests.id, input.requestId), eq(testimonialRequests.companyId, input.companyId)));
  if (!request) throw new AppError('not_found', { message: 'This testimonial does not exist or was deleted.' });
  if (!request.paid) throw new AppError('no_permission', { message: 'Unlock this testimonial (one credit) before transcribing it.' });
  refuseWithdrawn(request);
  const answers = await ctx.db.select({ removalRequestedAt: testimonialResponses.removalRequestedAt }).from(testimonialResponses).where(eq(testimonialResponses.requestId, request.id));
  if (answers.length && !usableAnswers(answers).length) throw allAnswersRemovedError();
  const { jobId } = await queueTranscription(ctx, { companyId: input.companyId, requestId: request.id, responseId: null, language: languageOf(request) });
  return { jobId };
}

/**
 * Saves the subtitle lines of an answer as the person left them: typed by hand when no engine knows
 * the language (decision 167), or corrected. They are checked against the answer (cueProblem: in
 * order, each ending after it starts, within the answer, with text) and refused whole with the
 * reason of the first problem, so nothing is half-written. Generate burns in what is stored here.
 */
export async function saveTranscription(
  ctx: AppContext,
  input: { companyId: string; responseId: string; transcription: TTranscription },
): Promise<{ transcription: TTranscription }> {
  const { response, request } = await ownedPaidResponse(ctx, input.companyId, input.responseId);
  const cut = input.transcription.map((line) => ({ start: round3(line.start), end: round3(line.end), text: line.text.trim() }));
  const problem = cueProblem(cut, response.durationSeconds);
  if (problem) throw new AppError('invalid_data', { reason: problem.reason, params: problem.params, field: 'transcription' });
  // Each line's words (issue 31): an unchanged text keeps the stored words, stretched to its time; an edited one is re-timed by characters.
  const [stored] = await ctx.db.select({ segments: transcriptions.segments }).from(transcriptions).where(eq(transcriptions.responseId, response.id));
  const lines = withRetimedWords(cut, stored?.segments ?? []);
  const language = languageOf(request);
  await ctx.db
    .insert(transcriptions)
    .values({ responseId: response.id, companyId: input.companyId, engine: 'typed', language, segments: lines, edited: true })
    .onConflictDoUpdate({
      target: transcriptions.responseId,
      set: {
        segments: lines,
        originalSegments: sql`coalesce(${transcriptions.originalSegments}, case when ${transcriptions.edited} then null else ${transcriptions.segments} end)`,
        edited: true,
        updatedAt: new Date(),
      },
    });
  return { transcription: lines };
}

const round3 = (seconds: number) => Math.round(seconds * 1000) / 1000;


/* ------------------------------------------------------------------ the worker's part */

/**
 * Runs the engine on one answer (its transcoded video, else the upload) and groups its words into
 * subtitle cues. Translatable refusals and the engine's failure are JobFailures (recorded, not
 * retried); anything else (storage, ffmpeg) is retried by the queue, then `transcription_failed`.
 */
async function runEngine(ctx: AppContext, response: ResponseRow, language: Language): Promise<TTranscription> {
  const engine = engineFor(ctx.config);
  if (!engine.languages.includes(language)) {
    ctx.logger.warn({ responseId: response.id, language }, operatorHint(engine, language));
    throw new JobFailure('transcription_unavailable', {}, `${engine.name} cannot transcribe ${language}`);
  }
  if ((response.durationSeconds ?? 0) > TRANSCRIPTION_MAX_MINUTES * 60) {
    throw new JobFailure('transcription_too_long', { minutes: TRANSCRIPTION_MAX_MINUTES });
  }
  await mkdir(ctx.tmpDir, { recursive: true });
  const dir = await mkdtemp(path.join(ctx.tmpDir, 'transcribe-'));
  try {
    const source = path.join(dir, 'source');
    await pipeline(await ctx.storage.get(response.videoKey ?? response.originalKey), createWriteStream(source));
    const wav = path.join(dir, 'audio.wav');
    await ctx.media.runFfmpeg(speechAudioArgs(source, wav));
    // The engine's own failure is recorded at once, not retried: it is slow (or paid), and the person
    // asks again from the review. A failure before it (storage, ffmpeg) goes back to the queue.
    const words = await engine.transcribe(wav, language).catch((error: unknown) => {
      throw new JobFailure('transcription_failed', {}, `${engine.name}: ${error instanceof Error ? error.message : String(error)}`);
    });
    return groupCues(words, response.durationSeconds ?? Math.max(0, ...words.map((w) => w.end)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Stores an engine run: its cues, and the same words as the engine's own (what a quote is checked against, decision 154). */
async function storeTranscription(db: Db, ctx: AppContext, o: { response: ResponseRow; language: Language; segments: TTranscription; keep?: boolean }): Promise<void> {
  const engine = engineFor(ctx.config).name;
  const insert = db
    .insert(transcriptions)
    .values({ responseId: o.response.id, companyId: o.response.companyId, engine, language: o.language, segments: o.segments, originalSegments: o.segments });
  // `keep` (a draft's run, issue 31): lines typed or corrected while the engine ran are kept as they are.
  if (o.keep) {
    await insert.onConflictDoNothing({ target: transcriptions.responseId });
    return;
  }
  await insert.onConflictDoUpdate({
      target: transcriptions.responseId,
      set: { segments: o.segments, originalSegments: o.segments, language: o.language, engine, edited: false, updatedAt: new Date() },
    });
}

async function jobSubject(ctx: AppContext, job: JobRow) {
  const [request] = await ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, job.requestId));
  if (!request) throw new JobFailure('source_missing', {}, 'the testimonial no longer exists');
  const language = job.params.language === 'fr' || job.params.language === 'en' ? job.params.language : languageOf(request);
  return { request, language };
}

/**
 * The worker's part of one answer's job (`transcription`, always a new engine run): the cues are stored
 * and the job's result recorded in one transaction. The result is the one-item list the status call
 * gives as merged_url.
 */
export async function runResponseTranscription(ctx: AppContext, jobId: string, meta: RunMeta): Promise<void> {
  await runJob(ctx, jobId, { attempt: meta.attempt }, async (job) => {
    const { language } = await jobSubject(ctx, job);
    const [response] = job.responseId ? await ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, job.responseId)) : [];
    if (!response) throw new JobFailure('source_missing', {}, 'the answer no longer exists');
    const segments = await runEngine(ctx, response, language);
    const result: TResponseTranscription[] = [
      { responseId: response.id, questionText: response.questionText, orderPosition: response.orderPosition, transcription: segments, error: null },
    ];
    await ctx.database.transaction(async (_executeSql, tx) => {
      await storeTranscription(tx, ctx, { response, language, segments });
      await completeJob(tx, jobId, { result });
    });
  });
}

/**
 * The worker's part of a merged transcription (`merged_transcription`): every answer in order, its
 * stored transcription when there is one, else the engine's. One answer's failure is reported with it
 * (its reason's English message), not for all. An engine that cannot do the language fails the job,
 * unless some answers have lines typed by hand (decision 167): those are merged, and each other answer
 * says to type its lines from its card. The new transcriptions and the job's result commit together.
 */
export async function runMergedTranscription(ctx: AppContext, jobId: string, meta: RunMeta): Promise<void> {
  await runJob(ctx, jobId, { attempt: meta.attempt }, async (job) => {
    const { language } = await jobSubject(ctx, job);
    const engine = engineFor(ctx.config);
    const engineKnowsLanguage = engine.languages.includes(language);
    if (!engineKnowsLanguage) ctx.logger.warn({ jobId, requestId: job.requestId, language }, operatorHint(engine, language));
    // Answers the customer asked to remove are left out (issue 29).
    const responses = usableAnswers(
      await ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, job.requestId)).orderBy(asc(testimonialResponses.orderPosition)),
    );
    const stored = new Map(
      (responses.length ? await ctx.db.select().from(transcriptions).where(inArray(transcriptions.responseId, responses.map((r) => r.id))) : []).map((t) => [
        t.responseId,
        t.segments,
      ]),
    );
    if (!engineKnowsLanguage && stored.size === 0) throw new JobFailure('transcription_unavailable', {}, `${engine.name} cannot transcribe ${language}`);
    const result: TResponseTranscription[] = [];
    const fresh: { response: ResponseRow; segments: TTranscription }[] = [];
    for (const r of responses) {
      const item = { responseId: r.id, questionText: r.questionText, orderPosition: r.orderPosition };
      const existing = stored.get(r.id);
      if (existing) {
        result.push({ ...item, transcription: existing, error: null });
        continue;
      }
      if (!engineKnowsLanguage) {
        result.push({ ...item, transcription: [], error: jobReasonMessage('transcription_type_it') });
        continue;
      }
      try {
        const segments = await runEngine(ctx, r, language);
        fresh.push({ response: r, segments });
        result.push({ ...item, transcription: segments, error: null });
      } catch (error) {
        ctx.logger.warn({ err: error, jobId, responseId: r.id }, 'transcription of one answer failed');
        const message = error instanceof JobFailure ? jobReasonMessage(error.reason, error.params) : jobReasonMessage('transcription_failed');
        result.push({ ...item, transcription: [], error: message });
      }
    }
    await ctx.database.transaction(async (_executeSql, tx) => {
      for (const f of fresh) await storeTranscription(tx, ctx, { response: f.response, language, segments: f.segments });
      await completeJob(tx, jobId, { result });
    });
  });
}

/* ------------------------------------------------------------------ the spec's status call */

const STATUS_OF = { queued: 'queued', running: 'processing', ready: 'done', failed: 'error', cancelled: 'error' } as const;

/**
 * GET transcription-job/{jobId}/status: a transcription job of the company in the spec's words
 * (queued → queued, running → processing, ready → done, failed → error). merged_url holds the result
 * once done; error, the reason's English message once failed.
 */
export async function getTranscriptionJob(ctx: AppContext, input: { companyId: string; jobId: string }): Promise<TTranscriptionJobStatusResponse> {
  const notFound = () => new AppError('not_found', { message: 'This transcription job does not exist.' });
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(input.jobId)) throw notFound();
  const [job] = await ctx.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.id, input.jobId), eq(jobs.companyId, input.companyId), inArray(jobs.kind, [...TRANSCRIPTION_KINDS])));
  if (!job) throw notFound();
  return {
    status: STATUS_OF[job.phase],
    merged_url: job.phase === 'ready' ? JSON.stringify(job.result ?? []) : null,
    error: job.phase === 'failed' ? jobReasonMessage(job.errorReason ?? 'transcription_failed', job.errorParams ?? {}) : job.phase === 'cancelled' ? jobReasonMessage('interrupted') : null,
  };
}

/* ------------------------------------------------------------------ issue 31: the draft's subtitles */

/** Engine runs of one draft at once: the machine's two cores, like the worker's ffmpeg runs. */
const DRAFT_TRANSCRIPTIONS_AT_ONCE = 2;

/**
 * Transcribes, inside a draft's work (studio/draft.job.ts), the answers that have no transcription yet,
 * when the engine knows the request's language: the same engine run and storage as a transcription job
 * (runEngine, storeTranscription), stored at once. An answer the engine refuses or fails on is left
 * without subtitles (the draft is made anyway); anything else (storage, ffmpeg) fails the draft's
 * delivery for the queue's retry. Answers the engine cannot do are typed by hand later (decision 167).
 * Returns the ids of the answers transcribed.
 */
export async function transcribeMissing(ctx: AppContext, request: { language: string }, answers: ResponseRow[]): Promise<string[]> {
  const language = languageOf(request);
  if (!answers.length || !engineFor(ctx.config).languages.includes(language)) return [];
  const stored = new Set(
    (await ctx.db.select({ id: transcriptions.responseId }).from(transcriptions).where(inArray(transcriptions.responseId, answers.map((a) => a.id)))).map((r) => r.id),
  );
  const missing = answers.filter((a) => !stored.has(a.id));
  const done: string[] = [];
  for (let i = 0; i < missing.length; i += DRAFT_TRANSCRIPTIONS_AT_ONCE) {
    await Promise.all(
      missing.slice(i, i + DRAFT_TRANSCRIPTIONS_AT_ONCE).map(async (response) => {
        try {
          const segments = await runEngine(ctx, response, language);
          await storeTranscription(ctx.db, ctx, { response, language, segments, keep: true });
          done.push(response.id);
        } catch (error) {
          if (!(error instanceof JobFailure)) throw error;
          ctx.logger.warn({ err: error, responseId: response.id }, 'the draft goes without the subtitles of one answer');
        }
      }),
    );
  }
  return done;
}

/** An answer's stored transcript as the API gives it (issue 32): its language, whether the company edited it, and its timed cues. */
export interface StoredTranscript {
  language: string;
  edited: boolean;
  segments: TTranscription;
}

/**
 * The stored transcripts of some of a company's answers, in one query, by answer id (an answer without
 * one is absent). Only the company's own rows are read; nothing is transcribed here.
 */
export async function storedTranscripts(ctx: AppContext, companyId: string, responseIds: readonly string[]): Promise<Map<string, StoredTranscript>> {
  if (!responseIds.length) return new Map();
  const rows = await ctx.db
    .select({ responseId: transcriptions.responseId, language: transcriptions.language, edited: transcriptions.edited, segments: transcriptions.segments })
    .from(transcriptions)
    .where(and(eq(transcriptions.companyId, companyId), inArray(transcriptions.responseId, [...responseIds])));
  return new Map(rows.map((r) => [r.responseId, { language: r.language, edited: r.edited, segments: r.segments }]));
}
