import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { and, asc, eq } from 'drizzle-orm';
import type { TResponseTranscription, TTranscription } from '../../../contract/api/transcription.schema.js';
import { groupCues } from '../../../contract/subtitles.js';
import type { AppContext } from '../../context.js';
import { testimonialRequests, testimonialResponses, transcriptionJobs, transcriptions } from '../../db/schema.js';
import type { ExecuteSql } from '../../db/client.js';
import { transcribeMergedJob, transcribeResponseJob } from '../../jobs/definitions.js';
import { AppError } from '../../lib/errors.js';
import { runFfmpeg } from '../../media/ffmpeg.js';
import { assertLanguage, engineFor } from './engines.js';

type ResponseRow = typeof testimonialResponses.$inferSelect;

async function ownedPaidResponse(ctx: AppContext, companyId: string, responseId: string) {
  const [row] = await ctx.db
    .select({ response: testimonialResponses, request: testimonialRequests })
    .from(testimonialResponses)
    .innerJoin(testimonialRequests, eq(testimonialRequests.id, testimonialResponses.requestId))
    .where(and(eq(testimonialResponses.id, responseId), eq(testimonialResponses.companyId, companyId)));
  if (!row) throw new AppError('not_found', { message: 'This answer does not exist or was deleted.' });
  if (!row.request.paid) throw new AppError('no_permission', { message: 'Unlock this testimonial (one credit) before transcribing it.' });
  return row;
}

/** Runs the engine on one answer and groups its words into subtitle cues. */
async function runEngine(ctx: AppContext, response: ResponseRow, language: 'en' | 'fr'): Promise<TTranscription> {
  const engine = engineFor(ctx.config);
  assertLanguage(engine, language);
  await mkdir(ctx.tmpDir, { recursive: true });
  const dir = await mkdtemp(path.join(ctx.tmpDir, 'transcribe-'));
  try {
    const source = path.join(dir, 'source');
    await pipeline(await ctx.storage.get(response.videoKey ?? response.originalKey), createWriteStream(source));
    const wav = path.join(dir, 'audio.wav');
    await runFfmpeg(['-i', source, '-vn', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', wav]);
    const words = await engine.transcribe(wav, language);
    return groupCues(words, response.durationSeconds ?? Math.max(0, ...words.map((w) => w.end)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Engine runs (pocketsphinx children, or paid TRANSCRIBE_URL calls) only ever happen in the worker's
 * transcription jobs, and a company can start only so many: at most `running` unfinished at once and
 * `perMinute` new ones a minute. A job not updated for `staleSeconds` (its worker died and the queue
 * expired it) no longer counts, nor is it joined.
 */
export const TRANSCRIPTION_LIMITS = { running: 3, perMinute: 6, staleSeconds: 15 * 60 } as const;

export const TRANSCRIPTION_RATE_LIMITED_MESSAGE = 'Too many transcriptions are running for your company. Please wait a minute and try again.';

type StartedJob = { jobId: string; status: 'queued' | 'processing' };

/**
 * Queues a transcription job (one answer, or every answer of a request) in one transaction that first
 * locks the company row, so parallel calls are counted one after the other: an unfinished job of the
 * same target is joined instead of started again, and a new one is refused (429) beyond the limits.
 */
async function queueTranscription(ctx: AppContext, input: { companyId: string; requestId: string; responseId: string | null }): Promise<StartedJob> {
  return ctx.database.transaction(async (executeSql: ExecuteSql) => {
    await executeSql('select id from companies where id = $1 for update', [input.companyId]);
    const fresh = `updated_at > now() - $2::int * interval '1 second'`;
    const { rows: same } = (await executeSql(
      `select id, status from transcription_jobs
        where company_id = $1 and status in ('queued', 'processing') and ${fresh}
          and ${input.responseId ? 'response_id = $3' : 'response_id is null and request_id = $3'}
        order by created_at desc limit 1`,
      [input.companyId, TRANSCRIPTION_LIMITS.staleSeconds, input.responseId ?? input.requestId],
    )) as { rows: { id: string; status: StartedJob['status'] }[] };
    if (same[0]) return { jobId: same[0].id, status: same[0].status };

    const { rows: counts } = (await executeSql(
      `select count(*) filter (where status in ('queued', 'processing') and ${fresh})::int as running,
              count(*) filter (where created_at > now() - interval '1 minute')::int as recent
         from transcription_jobs where company_id = $1`,
      [input.companyId, TRANSCRIPTION_LIMITS.staleSeconds],
    )) as { rows: { running: number; recent: number }[] };
    const { running = 0, recent = 0 } = counts[0] ?? {};
    if (running >= TRANSCRIPTION_LIMITS.running || recent >= TRANSCRIPTION_LIMITS.perMinute) {
      throw new AppError('rate_limited', { message: TRANSCRIPTION_RATE_LIMITED_MESSAGE });
    }
    const { rows: inserted } = (await executeSql('insert into transcription_jobs (company_id, request_id, response_id) values ($1, $2, $3) returning id', [
      input.companyId,
      input.requestId,
      input.responseId,
    ])) as { rows: { id: string }[] };
    const jobId = inserted[0]!.id;
    // Sent in the same transaction: the job exists exactly when its row does.
    await ctx.queue.send(input.responseId ? transcribeResponseJob : transcribeMergedJob, { jobId, companyId: input.companyId }, { executeSql });
    return { jobId, status: 'queued' as const };
  });
}

/**
 * The transcribe call: the stored transcription at once (unless forced); otherwise a transcription job
 * for the worker, answered with its id to follow through the job status call (its merged_url then
 * holds this one answer). The API process never runs the engine. A language the engine cannot do is
 * refused here, before anything is queued.
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
  assertLanguage(engineFor(ctx.config), request.language === 'french' ? 'fr' : 'en');
  const started = await queueTranscription(ctx, { companyId: input.companyId, requestId: request.id, responseId: response.id });
  return { transcription: [], ...started };
}

/** The worker's part for one answer: the stored transcription, or the engine's (always when forced). */
async function transcribeNow(ctx: AppContext, input: { companyId: string; responseId: string; force?: boolean }): Promise<TTranscription> {
  const { response, request } = await ownedPaidResponse(ctx, input.companyId, input.responseId);
  if (!input.force) {
    const [existing] = await ctx.db.select().from(transcriptions).where(eq(transcriptions.responseId, response.id));
    if (existing) return existing.segments;
  }
  const language = request.language === 'french' ? 'fr' : 'en';
  const segments = await runEngine(ctx, response, language);
  await ctx.db
    .insert(transcriptions)
    .values({ responseId: response.id, companyId: input.companyId, engine: engineFor(ctx.config).name, language, segments })
    .onConflictDoUpdate({ target: transcriptions.responseId, set: { segments, language, engine: engineFor(ctx.config).name, edited: false, updatedAt: new Date() } });
  return segments;
}

/**
 * The worker's part of one answer's job: runs the engine and keeps the result (the transcription, and
 * the job's result for the status call). A failure is recorded with the job and not retried: the
 * engine is slow and the person asks again from the review (a job lost with its worker is retried by
 * the queue).
 */
export async function runResponseTranscription(ctx: AppContext, input: { jobId: string; companyId: string }): Promise<void> {
  const [job] = await ctx.db
    .select()
    .from(transcriptionJobs)
    .where(and(eq(transcriptionJobs.id, input.jobId), eq(transcriptionJobs.companyId, input.companyId)));
  if (!job?.responseId || job.status === 'done') return;
  await ctx.db.update(transcriptionJobs).set({ status: 'processing', updatedAt: new Date() }).where(eq(transcriptionJobs.id, job.id));
  try {
    const [r] = await ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, job.responseId));
    if (!r) throw new Error('This answer was deleted.');
    const transcription = await transcribeNow(ctx, { companyId: input.companyId, responseId: r.id, force: true });
    const result: TResponseTranscription[] = [{ responseId: r.id, questionText: r.questionText, orderPosition: r.orderPosition, transcription, error: null }];
    await ctx.db.update(transcriptionJobs).set({ status: 'done', result, updatedAt: new Date() }).where(eq(transcriptionJobs.id, job.id));
  } catch (error) {
    ctx.logger.warn({ err: error, transcriptionJob: job.id }, 'transcription failed');
    await ctx.db
      .update(transcriptionJobs)
      .set({ status: 'error', error: error instanceof Error ? error.message.slice(0, 300) : 'Transcription failed', updatedAt: new Date() })
      .where(eq(transcriptionJobs.id, job.id));
  }
}

export async function startMergedTranscription(ctx: AppContext, input: { companyId: string; requestId: string }): Promise<{ jobId: string }> {
  const [request] = await ctx.db.select().from(testimonialRequests).where(and(eq(testimonialRequests.id, input.requestId), eq(testimonialRequests.companyId, input.companyId)));
  if (!request) throw new AppError('not_found', { message: 'This testimonial does not exist or was deleted.' });
  if (!request.paid) throw new AppError('no_permission', { message: 'Unlock this testimonial (one credit) before transcribing it.' });
  const { jobId } = await queueTranscription(ctx, { companyId: input.companyId, requestId: request.id, responseId: null });
  return { jobId };
}

/** The worker's part: every answer in order; one answer's failure is reported with it, not for all. */
export async function runMergedTranscription(ctx: AppContext, input: { jobId: string; companyId: string }): Promise<void> {
  const [job] = await ctx.db.select().from(transcriptionJobs).where(eq(transcriptionJobs.id, input.jobId));
  if (!job || job.status === 'done') return;
  await ctx.db.update(transcriptionJobs).set({ status: 'processing', updatedAt: new Date() }).where(eq(transcriptionJobs.id, job.id));
  try {
    const responses = await ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, job.requestId)).orderBy(asc(testimonialResponses.orderPosition));
    const result: TResponseTranscription[] = [];
    for (const r of responses) {
      try {
        result.push({ responseId: r.id, questionText: r.questionText, orderPosition: r.orderPosition, transcription: await transcribeNow(ctx, { companyId: input.companyId, responseId: r.id }), error: null });
      } catch (error) {
        result.push({ responseId: r.id, questionText: r.questionText, orderPosition: r.orderPosition, transcription: [], error: error instanceof Error ? error.message : 'Transcription failed' });
      }
    }
    await ctx.db.update(transcriptionJobs).set({ status: 'done', result, updatedAt: new Date() }).where(eq(transcriptionJobs.id, job.id));
  } catch (error) {
    await ctx.db
      .update(transcriptionJobs)
      .set({ status: 'error', error: error instanceof Error ? error.message.slice(0, 300) : 'Transcription failed', updatedAt: new Date() })
      .where(eq(transcriptionJobs.id, job.id));
    throw error;
  }
}

export async function getTranscriptionJob(ctx: AppContext, input: { companyId: string; jobId: string }) {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(input.jobId)) {
    throw new AppError('not_found', { message: 'This transcription job does not exist.' });
  }
  const [job] = await ctx.db.select().from(transcriptionJobs).where(and(eq(transcriptionJobs.id, input.jobId), eq(transcriptionJobs.companyId, input.companyId)));
  if (!job) throw new AppError('not_found', { message: 'This transcription job does not exist.' });
  return {
    status: job.status as 'queued' | 'processing' | 'done' | 'error',
    merged_url: job.status === 'done' ? JSON.stringify(job.result) : null,
    error: job.error,
  };
}
