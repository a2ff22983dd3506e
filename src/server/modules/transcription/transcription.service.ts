import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { and, asc, eq } from 'drizzle-orm';
import type { TResponseTranscription, TTranscription } from '../../../contract/api/transcription.schema.js';
import { groupCues } from '../../../contract/subtitles.js';
import type { AppContext } from '../../context.js';
import { testimonialRequests, testimonialResponses, transcriptionJobs, transcriptions } from '../../db/schema.js';
import { transcribeMergedJob } from '../../jobs/definitions.js';
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

/** The answer's transcription: stored once, returned again without re-running the engine unless forced. */
export async function transcribeResponse(ctx: AppContext, input: { companyId: string; responseId: string; force?: boolean }): Promise<TTranscription> {
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

export async function startMergedTranscription(ctx: AppContext, input: { companyId: string; requestId: string }): Promise<{ jobId: string }> {
  const [request] = await ctx.db.select().from(testimonialRequests).where(and(eq(testimonialRequests.id, input.requestId), eq(testimonialRequests.companyId, input.companyId)));
  if (!request) throw new AppError('not_found', { message: 'This testimonial does not exist or was deleted.' });
  if (!request.paid) throw new AppError('no_permission', { message: 'Unlock this testimonial (one credit) before transcribing it.' });
  const [job] = await ctx.db.insert(transcriptionJobs).values({ companyId: input.companyId, requestId: request.id }).returning({ id: transcriptionJobs.id });
  await ctx.queue.send(transcribeMergedJob, { jobId: job!.id, companyId: input.companyId });
  return { jobId: job!.id };
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
        result.push({ responseId: r.id, questionText: r.questionText, orderPosition: r.orderPosition, transcription: await transcribeResponse(ctx, { companyId: input.companyId, responseId: r.id }), error: null });
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
