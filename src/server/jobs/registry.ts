import type { AppContext } from '../context.js';
import { transcodeAnswer } from '../modules/submissions/transcode.service.js';
import { renderOutput } from '../modules/studio/studio.service.js';
import { runMergedTranscription, runResponseTranscription } from '../modules/transcription/transcription.service.js';
import { renderOutputJob, sendMailJob, transcodeAnswerJob, transcribeMergedJob, transcribeResponseJob } from './definitions.js';
import { registerJob, type RegisteredJob } from './queue.js';

/** The handlers of every job, run by the worker role. Handlers call services, never HTTP. */
export function jobRegistry(ctx: AppContext): RegisteredJob[] {
  return [
    registerJob(sendMailJob, async (message, { jobId }) => {
      await ctx.mailer.send(message, { id: jobId });
    }),
    registerJob(transcodeAnswerJob, async ({ responseId }) => {
      await transcodeAnswer(ctx, responseId);
    }),
    registerJob(renderOutputJob, async (payload) => {
      await renderOutput(ctx, payload);
    }),
    registerJob(transcribeMergedJob, async (payload) => {
      await runMergedTranscription(ctx, payload);
    }),
    registerJob(transcribeResponseJob, async (payload) => {
      await runResponseTranscription(ctx, payload);
    }),
  ];
}
