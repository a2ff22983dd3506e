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
    headers: z.record(z.string(), z.string()).optional(),
    requestId: z.string().uuid().optional(),
  }),
  retryLimit: 8,
  retryDelaySeconds: 30,
  retryBackoff: true,
  expireInSeconds: 120,
  // Its own lane: a slow mail server never holds back renders, nor renders e-mail.
  concurrency: 2,
});

/**
 * The media jobs carry only the id of their `jobs` row (inserted in the same transaction): the row holds
 * the kind, the subject and the parameters. Payloads sent before that row existed are still accepted
 * (`legacy`), so an upgrade loses no queued work.
 */
const ZMediaJobPayload = z.object({ jobId: z.uuid() });

/** Turns an uploaded answer into an H.264/AAC MP4 with faststart and a poster image. */
export const transcodeAnswerJob = defineJob({
  name: 'transcode-answer',
  // legacy: { responseId } (before issue 16), run as the answer's latest transcode job.
  schema: z.union([ZMediaJobPayload, z.object({ responseId: z.uuid() })]),
  retryLimit: 4,
  retryDelaySeconds: 15,
  retryBackoff: true,
  expireInSeconds: 600,
});

/** Renders one studio output (intro, subtitles, merge, merged subtitles, export). */
export const renderOutputJob = defineJob({
  name: 'render-output',
  // legacy: { jobKey, … } (before issue 16): the job key became the row's id.
  schema: z.union([ZMediaJobPayload, z.object({ jobKey: z.uuid() }).loose()]),
  retryLimit: 3,
  retryDelaySeconds: 10,
  retryBackoff: true,
  expireInSeconds: 900,
});

/** Transcribes every answer of a testimonial for the merged review. */
export const transcribeMergedJob = defineJob({
  name: 'transcribe-merged',
  schema: ZMediaJobPayload.loose(),
  retryLimit: 2,
  retryDelaySeconds: 10,
  retryBackoff: true,
  expireInSeconds: 900,
});

/** Transcribes one answer (its review, or a forced new run): the API only queues it. */
export const transcribeResponseJob = defineJob({
  name: 'transcribe-response',
  schema: ZMediaJobPayload.loose(),
  retryLimit: 1,
  retryDelaySeconds: 10,
  retryBackoff: true,
  expireInSeconds: 900,
});

/** Makes an uploaded company logo into its normalised PNG (the API only stores the upload and queues this). */
export const normaliseLogoJob = defineJob({
  name: 'normalise-logo',
  schema: ZMediaJobPayload,
  retryLimit: 2,
  retryDelaySeconds: 5,
  retryBackoff: true,
  expireInSeconds: 120,
});

/**
 * Sends the 'video ready' e-mail of a testimonial, gathering the renders that became ready since the
 * last one (studio/ready-mail.ts). Sent with a delay; a message that runs too early sends itself again
 * for the right time, and a duplicate finds nothing left to tell.
 */
export const readyMailJob = defineJob({
  name: 'ready-mail',
  schema: z.object({ requestId: z.uuid() }),
  retryLimit: 5,
  retryDelaySeconds: 30,
  retryBackoff: true,
  expireInSeconds: 120,
  // Its own lane: a long render never holds back the e-mail about the ones already finished.
  concurrency: 1,
});

/**
 * Deletes the media of a testimonial whose consent was withdrawn (issue 29, consent/retention.service.ts),
 * sent in the withdrawal's transaction for the end of CONSENT_WITHDRAWN_RETENTION_DAYS. A message that
 * runs early sends itself again for the right time; one that finds the media deleted does nothing.
 */
export const deleteWithdrawnMediaJob = defineJob({
  name: 'delete-withdrawn-media',
  // sweep: the second pass after a deletion, for an output a job still running at the withdrawal wrote late.
  schema: z.object({ requestId: z.uuid(), sweep: z.boolean().optional() }),
  retryLimit: 10,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 600,
  concurrency: 1,
});

/**
 * Sends the automatic reminders that are due (issue 30, reminders/reminders.service.ts): sent by
 * pg-boss's schedule every few minutes (REMINDER_SWEEP_CRON); the sweep reads the clock when it runs.
 * Safe with several workers: each request is locked and updated conditionally.
 */
export const sendRemindersJob = defineJob({
  name: 'send-reminders',
  schema: z.object({}).loose(),
  retryLimit: 2,
  retryDelaySeconds: 60,
  retryBackoff: false,
  expireInSeconds: 600,
  concurrency: 1,
});
export const REMINDER_SWEEP_CRON = '*/5 * * * *';

/**
 * Sends one webhook delivery (issue 32, webhooks/delivery.service.ts): sent in the transaction that
 * records its event, and again for each retry with the delay of the schedule (decision 211). The
 * delivery's row decides: a message that runs early, twice, or after a success does nothing.
 */
export const deliverWebhookJob = defineJob({
  name: 'deliver-webhook',
  schema: z.object({ deliveryId: z.uuid() }),
  retryLimit: 2,
  retryDelaySeconds: 30,
  retryBackoff: true,
  expireInSeconds: 120,
  // Its own lane: a slow receiver never holds back renders or e-mail.
  concurrency: 4,
});

/** Every minute: deliveries that are due but whose message was lost (a killed worker's send), sent again. */
export const webhookSweepJob = defineJob({
  name: 'webhook-sweep',
  schema: z.object({}).loose(),
  retryLimit: 1,
  retryDelaySeconds: 30,
  retryBackoff: false,
  expireInSeconds: 300,
  concurrency: 1,
});
export const WEBHOOK_SWEEP_CRON = '* * * * *';

export const ALL_JOB_DEFINITIONS = [
  sendMailJob,
  transcodeAnswerJob,
  renderOutputJob,
  transcribeMergedJob,
  transcribeResponseJob,
  normaliseLogoJob,
  readyMailJob,
  deleteWithdrawnMediaJob,
  sendRemindersJob,
  deliverWebhookJob,
  webhookSweepJob,
];
