import { z } from 'zod';
import { defineJob } from './queue.js';

/**
 * Every job of the product: name, payload (checked when sent and when run) and retry policy. The media
 * jobs share the worker's main lane (WORKER_CONCURRENCY jobs at once per process).
 */

export const sendMailJob = defineJob({
  name: 'send-mail',
  schema: z.object({
    to: z.string().min(3),
    subject: z.string().min(1),
    html: z.string(),
    text: z.string(),
    replyTo: z.string().optional(),
  }),
  retryLimit: 8,
  retryDelaySeconds: 30,
  retryBackoff: true,
  expireInSeconds: 120,
  // Its own lane: a slow mail server never holds back renders, nor renders e-mail.
  concurrency: 2,
});

/** Turns an uploaded answer into an H.264/AAC MP4 with faststart and a poster image. */
export const transcodeAnswerJob = defineJob({
  name: 'transcode-answer',
  schema: z.object({ responseId: z.uuid() }),
  retryLimit: 4,
  retryDelaySeconds: 15,
  retryBackoff: true,
  expireInSeconds: 600,
});

/** Renders one studio output (intro, merge, export…); state lives with the response or testimonial. */
export const renderOutputJob = defineJob({
  name: 'render-output',
  schema: z.object({
    kind: z.enum(['intro', 'regenerate', 'merge', 'regenerate_merged', 'export', 'subtitles', 'merge_subtitles']),
    jobKey: z.uuid(),
    companyId: z.uuid(),
    requestId: z.uuid(),
    responseId: z.uuid().optional(),
    language: z.enum(['en', 'fr']),
    export: z
      .object({
        platform: z.enum(['shorts', 'linkedin']),
        videoType: z.enum(['original', 'modified']),
        cropArea: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
      })
      .optional(),
  }),
  retryLimit: 3,
  retryDelaySeconds: 10,
  retryBackoff: true,
  expireInSeconds: 900,
});

/** Transcribes every answer of a testimonial for the merged review. */
export const transcribeMergedJob = defineJob({
  name: 'transcribe-merged',
  schema: z.object({ jobId: z.uuid(), companyId: z.uuid() }),
  retryLimit: 2,
  retryDelaySeconds: 10,
  retryBackoff: true,
  expireInSeconds: 900,
});

/**
 * Transcribes one answer (its review, or a forced new run): the API only queues it, so no engine runs
 * in an API process. Its failure is recorded with its transcription_jobs row, not retried; the one
 * retry is for a job lost with its worker.
 */
export const transcribeResponseJob = defineJob({
  name: 'transcribe-response',
  schema: z.object({ jobId: z.uuid(), companyId: z.uuid() }),
  retryLimit: 1,
  retryDelaySeconds: 10,
  retryBackoff: true,
  expireInSeconds: 900,
});

export const ALL_JOB_DEFINITIONS = [sendMailJob, transcodeAnswerJob, renderOutputJob, transcribeMergedJob, transcribeResponseJob];
