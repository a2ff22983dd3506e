import { and, desc, eq } from 'drizzle-orm';
import type { AppContext } from './context.js';
import { jobs } from './db/schema.js';
import { transcodeAnswer } from './modules/submissions/transcode.service.js';
import { normaliseUploadedLogo } from './modules/settings/logo.job.js';
import { sendReadyMail } from './modules/studio/ready-mail.js';
import { renderOutput } from './modules/studio/studio.service.js';
import { runMergedTranscription, runResponseTranscription } from './modules/transcription/transcription.service.js';
import { normaliseLogoJob, readyMailJob, renderOutputJob, sendMailJob, transcodeAnswerJob, transcribeMergedJob, transcribeResponseJob } from './queue/definitions.js';
import { registerJob, type RegisteredJob } from './queue/queue.js';

/** The handlers of every job, run by the worker role. Handlers call services, never HTTP. */
export function jobRegistry(ctx: AppContext): RegisteredJob[] {
  return [
    registerJob(sendMailJob, async (message, { jobId }) => {
      await ctx.mailer.send(message, { id: jobId });
    }),
    registerJob(transcodeAnswerJob, async (payload, meta) => {
      // A message sent before issue 16 names the answer: its latest transcode job (carried over by migration 0009).
      const jobId = 'jobId' in payload ? payload.jobId : await latestTranscodeJob(ctx, payload.responseId);
      if (jobId) await transcodeAnswer(ctx, jobId, meta);
    }),
    registerJob(renderOutputJob, async (payload, meta) => {
      await renderOutput(ctx, 'jobKey' in payload ? payload.jobKey : payload.jobId, meta);
    }),
    registerJob(transcribeMergedJob, async ({ jobId }, meta) => {
      await runMergedTranscription(ctx, jobId, meta);
    }),
    registerJob(transcribeResponseJob, async ({ jobId }, meta) => {
      await runResponseTranscription(ctx, jobId, meta);
    }),
    registerJob(normaliseLogoJob, async ({ jobId }, meta) => {
      await normaliseUploadedLogo(ctx, jobId, meta);
    }),
    registerJob(readyMailJob, async ({ requestId }) => {
      await sendReadyMail(ctx, requestId);
    }),
  ];
}

async function latestTranscodeJob(ctx: AppContext, responseId: string): Promise<string | undefined> {
  const [row] = await ctx.db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.responseId, responseId), eq(jobs.kind, 'transcode')))
    .orderBy(desc(jobs.createdAt))
    .limit(1);
  return row?.id;
}
