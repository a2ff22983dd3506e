import type { AppContext } from './context.js';
import type { Db, ExecuteSql } from './db/client.js';
import { failJobsOfLostWorker, latestAnswerJob } from './modules/jobs/jobs.service.js';
import { runMediaDeletion } from './modules/consent/retention.service.js';
import { transcodeAnswer } from './modules/submissions/transcode.service.js';
import { normaliseUploadedLogo } from './modules/settings/logo.job.js';
import { sendMailAndRecord } from './modules/funnel/mail-outcome.js';
import { sendReadyMail } from './modules/studio/ready-mail.js';
import { renderOutput } from './modules/studio/render.job.js';
import { runMergedTranscription, runResponseTranscription } from './modules/transcription/transcription.service.js';
import {
  deleteWithdrawnMediaJob,
  normaliseLogoJob,
  readyMailJob,
  REMINDER_SWEEP_CRON,
  renderOutputJob,
  sendMailJob,
  sendRemindersJob,
  deliverWebhookJob,
  webhookSweepJob,
  WEBHOOK_SWEEP_CRON,
  transcodeAnswerJob,
  transcribeMergedJob,
  transcribeResponseJob,
} from './queue/definitions.js';
import { runReminderSweep } from './modules/reminders/reminders.service.js';
import { attemptDelivery, releaseDeliveriesOfLostWorker, sweepDueDeliveries } from './modules/webhooks/delivery.service.js';
import { registerJob, type Queue, type RecoveredJob, type RegisteredJob } from './queue/queue.js';

/**
 * The worker's composition root: the only file that imports every job. The queue adapter (queue/)
 * knows queues and leases, never what a job means; the jobs service (modules/jobs) is the one writer of
 * a job's phase, progress and result; each module's `.job.ts` does the work.
 */

/** The handlers of every job, run by the worker role. Handlers call services, never HTTP. */
export function jobRegistry(ctx: AppContext): RegisteredJob[] {
  return [
    registerJob(sendMailJob, async (message, { jobId }) => {
      // Delivered or bounced joins the request's funnel; a permanent refusal is not retried.
      await sendMailAndRecord(ctx, message, { id: jobId });
    }),
    registerJob(transcodeAnswerJob, async (payload, meta) => {
      // A message sent before issue 16 names the answer: its latest transcode job (carried over by migration 0009).
      const jobId = 'jobId' in payload ? payload.jobId : await latestAnswerJob(ctx.db, payload.responseId, 'transcode');
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
    registerJob(deleteWithdrawnMediaJob, async ({ requestId, sweep }) => {
      await runMediaDeletion(ctx, requestId, new Date(), { sweep: sweep ?? false });
    }),
    registerJob(sendRemindersJob, async () => {
      await runReminderSweep(ctx, new Date());
    }),
    registerJob(deliverWebhookJob, async ({ deliveryId }) => {
      await attemptDelivery(ctx, deliveryId);
    }),
    registerJob(webhookSweepJob, async () => {
      await sweepDueDeliveries(ctx);
    }),
  ];
}

/**
 * The recurring jobs, put on pg-boss's schedule (its cron, kept in its own table: one schedule per
 * name whatever the number of processes, each minute's job sent once). Called by a working process.
 */
export async function scheduleRecurringJobs(queue: Pick<Queue, 'boss'>): Promise<void> {
  await queue.boss.schedule(sendRemindersJob.name, REMINDER_SWEEP_CRON, {});
  await queue.boss.schedule(webhookSweepJob.name, WEBHOOK_SWEEP_CRON, {});
}

/**
 * Presence's recovery of a dead process's jobs (the 'all' and 'worker' roles), in the transaction that
 * buried it: the queue hands the jobs back, and a media job the queue gave up on (no attempt left) is
 * recorded failed by the jobs service, as its handler would have done (a render's `render.failed` event
 * with it). A webhook delivery the dead process was sending is released at once and sent again
 * (decision 221), rather than waiting for its hold to expire and the minute's sweep.
 */
export function recoverLostJobs(queue: Pick<Queue, 'recover' | 'send'>) {
  return async (executeSql: ExecuteSql, tx: Db): Promise<RecoveredJob[]> => {
    const recovered = await queue.recover(executeSql);
    const t = { tx, executeSql };
    const given = recovered.filter((job) => job.state === 'failed' && job.name !== deliverWebhookJob.name).map((job) => (job.data as { jobId?: unknown } | null)?.jobId);
    await failJobsOfLostWorker({ queue }, t, given.filter((id): id is string => typeof id === 'string'));
    await releaseDeliveriesOfLostWorker({ queue }, t, recovered.filter((job) => job.name === deliverWebhookJob.name));
    return recovered;
  };
}
