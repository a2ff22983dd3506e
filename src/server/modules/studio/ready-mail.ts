import { and, asc, eq, inArray, min, ne, sql } from 'drizzle-orm';
import type { TExportPlatform, TExportVideoType } from '../../../contract/api/studio.schema.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/client.js';
import { jobs, testimonialRequests, testimonialResponses } from '../../db/schema.js';
import { readyMailJob } from '../../queue/definitions.js';
import { companyMailRecipients, queueMail } from '../../mail/send.js';
import type { JobRow, Tx } from '../jobs/jobs.service.js';
import { readyVideosEmail, type ReadyItem, type ReadyOutput } from './studio.emails.js';

/**
 * The 'video ready' e-mails (issue 17): worth opening, so few of them.
 *
 * - A render is worth telling about when it ran for at least READY_MAIL_SLOW_RENDER_SECONDS (from its
 *   start to its completion), or when nobody was on the page: the web app follows a running job through
 *   GET /api/jobs/{id}, which marks the job's `watched_at` (jobs.service.ts followJob); a mark older than
 *   PRESENCE_WINDOW_SECONDS at completion means the owner left. Such a render is marked `notify_pending`
 *   in the transaction that completes it; the others are never mentioned.
 * - One e-mail per testimonial gathers what became ready: the first pending render queues a `ready-mail`
 *   message (same transaction: the transactional outbox) for READY_MAIL_GATHER_SECONDS later. When it
 *   runs, it waits on while renders keep finishing (each one restarts the gathering time, within one
 *   interval of the oldest), and never sends within READY_MAIL_INTERVAL_SECONDS of the testimonial's
 *   previous e-mail: it sends itself again for the right time instead.
 * - The message locks the testimonial's row, lists its pending renders, queues one e-mail per company
 *   user in that transaction, marks them notified and records `ready_mail_sent_at`. A duplicate or a
 *   redelivered message finds nothing pending and does nothing.
 */

/**
 * A render whose `watched_at` is older than this at its completion was not being followed. The web app
 * reads a running job every 2 s (JOB_POLL_MS) and the mark is written at most every 5 s
 * (WATCH_WRITE_EVERY_SECONDS), so a followed job's mark is at most ~7 s old; 20 s also covers a few
 * failed or slow reads (the follower retries at the same pace), while a tab the browser throttles in
 * the background (timers once a minute) counts as away.
 */
export const PRESENCE_WINDOW_SECONDS = 20;

/**
 * A pending render older than the interval, the gathering time and this margin, with no e-mail sent,
 * means the message that should tell about it was lost (its retries exhausted): the next render queues
 * a new one.
 */
const LOST_MESSAGE_MARGIN_SECONDS = 300;

/** A question in an e-mail's list is cut to about this many characters. */
const QUESTION_CHARS = 60;

interface RenderParams {
  platform?: TExportPlatform;
  videoType?: TExportVideoType;
}

/** What a finished render's output is, read in its completing transaction (after its rows were updated). */
async function readyOutputOf(tx: Db, job: JobRow): Promise<ReadyOutput> {
  if (job.kind === 'export') return `export_${(job.params as RenderParams).platform ?? 'shorts'}`;
  if (job.kind === 'merge' || job.kind === 'merged_subtitles' || job.kind === 'draft') return job.kind;
  // An answer's enhanced version holds what the answer has after this render: its intro and/or subtitles.
  const [answer] = job.responseId
    ? await tx
        .select({ intro: testimonialResponses.introGenerated, subtitles: testimonialResponses.hasSubtitles })
        .from(testimonialResponses)
        .where(eq(testimonialResponses.id, job.responseId))
    : [];
  const intro = answer ? answer.intro : job.kind === 'intro';
  const subtitles = answer ? answer.subtitles : job.kind === 'subtitles';
  return intro && subtitles ? 'intro_subtitles' : intro ? 'intro' : 'subtitles';
}

const seconds = (n: number) => sql`${n} * interval '1 second'`;

/**
 * Called in the transaction that completes a render (render.job.ts renderOutput), after its job is
 * marked ready: records what the output is and whether the company is to be told, and for the first
 * render waiting to be told, queues the testimonial's 'ready-mail' message in the same transaction.
 */
export async function noteRenderReady(ctx: AppContext, { tx, executeSql }: Tx, job: JobRow): Promise<void> {
  const readyOutput = await readyOutputOf(tx, job);
  // The testimonial's row is the lock the e-mail's message takes too: a render finishing while the
  // e-mail is being sent is either in it or sees it sent (and starts the next one).
  const [request] = await tx
    .select({ readyMailSentAt: testimonialRequests.readyMailSentAt })
    .from(testimonialRequests)
    .where(eq(testimonialRequests.id, job.requestId))
    .for('no key update');
  if (!request) return;
  const { slowRenderSeconds, gatherSeconds, intervalSeconds } = ctx.config.readyMail;
  // Times on the database's clock: the start (runJob) and the watch marks (followJob) were written with it.
  const [marked] = await tx
    .update(jobs)
    .set({
      readyOutput,
      notifyPending: sql`(coalesce(${jobs.startedAt}, ${jobs.createdAt}) <= now() - ${seconds(slowRenderSeconds)}
        or ${jobs.watchedAt} is null or ${jobs.watchedAt} < now() - ${seconds(PRESENCE_WINDOW_SECONDS)})`,
    })
    .where(eq(jobs.id, job.id))
    .returning({ pending: jobs.notifyPending });
  if (!marked?.pending) return;

  // Another render already waiting has its message on the way (unless that message was lost).
  const [waiting] = await tx
    .select({ oldest: min(jobs.finishedAt) })
    .from(jobs)
    .where(and(eq(jobs.requestId, job.requestId), eq(jobs.notifyPending, true), ne(jobs.id, job.id)));
  const lostAfterMs = (intervalSeconds + gatherSeconds + LOST_MESSAGE_MARGIN_SECONDS) * 1000;
  if (waiting?.oldest && Date.now() - waiting.oldest.getTime() < lostAfterMs) return;

  const now = Date.now();
  const due = Math.max(now + gatherSeconds * 1000, (request.readyMailSentAt?.getTime() ?? 0) + intervalSeconds * 1000);
  await ctx.queue.send(readyMailJob, { requestId: job.requestId }, { executeSql, startAfter: Math.ceil((due - now) / 1000) });
}

/** A question cut at a word to about QUESTION_CHARS characters, with an ellipsis. */
export function shortQuestion(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= QUESTION_CHARS) return clean;
  const cut = clean.slice(0, QUESTION_CHARS - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > QUESTION_CHARS / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.!?'"’«“-]+$/u, '')}…`;
}

/**
 * The 'ready-mail' message of a testimonial: sends its e-mail when due, with every render waiting to be
 * told about, or sends itself again for when it is due.
 */
export async function sendReadyMail(ctx: AppContext, requestId: string): Promise<void> {
  await ctx.database.transaction(async (executeSql, tx) => {
    const [request] = await tx.select().from(testimonialRequests).where(eq(testimonialRequests.id, requestId)).for('no key update');
    if (!request) return; // deleted with its jobs
    const pending = await tx
      .select({ id: jobs.id, kind: jobs.kind, responseId: jobs.responseId, params: jobs.params, readyOutput: jobs.readyOutput, finishedAt: jobs.finishedAt })
      .from(jobs)
      .where(and(eq(jobs.requestId, requestId), eq(jobs.notifyPending, true)))
      .orderBy(asc(jobs.finishedAt), asc(jobs.createdAt));
    if (!pending.length) return; // told already (a duplicate message)

    const { gatherSeconds, intervalSeconds } = ctx.config.readyMail;
    const finished = pending.map((p) => p.finishedAt?.getTime() ?? 0);
    // Quiet for the gathering time after the last render, but a burst holds the first no longer than an
    // interval; and never within an interval of the previous e-mail.
    const quiet = Math.min(Math.max(...finished) + gatherSeconds * 1000, Math.min(...finished) + intervalSeconds * 1000);
    const due = Math.max(quiet, (request.readyMailSentAt?.getTime() ?? 0) + intervalSeconds * 1000);
    const now = Date.now();
    if (due > now + 500) {
      await ctx.queue.send(readyMailJob, { requestId }, { executeSql, startAfter: Math.ceil((due - now) / 1000) });
      return;
    }

    const answerIds = [...new Set(pending.map((p) => p.responseId).filter((id): id is string => Boolean(id)))];
    const answers = answerIds.length
      ? await tx.select({ id: testimonialResponses.id, questionText: testimonialResponses.questionText }).from(testimonialResponses).where(inArray(testimonialResponses.id, answerIds))
      : [];
    const questionOf = new Map(answers.map((a) => [a.id, shortQuestion(a.questionText)]));
    // Each output once: a video rendered twice in the window is listed once.
    const items = new Map<string, ReadyItem>();
    for (const p of pending) {
      const params = p.params as RenderParams;
      const output = (p.readyOutput as ReadyOutput | null) ?? (p.kind === 'export' ? `export_${params.platform ?? 'shorts'}` : (p.kind as ReadyOutput));
      const original = p.kind === 'export' && params.videoType === 'original';
      const item: ReadyItem = { output, question: p.responseId ? (questionOf.get(p.responseId) ?? null) : null, original };
      const key = `${p.responseId ?? ''}:${output}:${original}`;
      items.delete(key);
      items.set(key, item);
    }

    const recipients = await companyMailRecipients({ db: tx }, request.companyId);
    for (const owner of recipients) {
      await queueMail(
        ctx,
        readyVideosEmail({
          lang: owner.lang,
          brand: ctx.config.brandName,
          to: owner.email,
          firstname: owner.firstname,
          customerName: request.submitterName ?? request.customerName,
          items: [...items.values()],
          url: `${ctx.config.appUrl}/dashboard/testimonials/${requestId}`,
        }),
        { executeSql },
      );
    }
    const sentAt = new Date(now);
    await tx.update(jobs).set({ notifyPending: false, notifiedAt: sentAt }).where(inArray(jobs.id, pending.map((p) => p.id)));
    await tx.update(testimonialRequests).set({ readyMailSentAt: sentAt }).where(eq(testimonialRequests.id, requestId));
  });
}
