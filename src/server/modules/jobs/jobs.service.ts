import { and, desc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { jobReasonMessage, RENDER_JOB_KINDS, type TJob, type TJobKind, type TJobReason } from '../../../contract/api/jobs.schema.js';
import type { AppContext } from '../../context.js';
import type { Db, DbOrTx, ExecuteSql } from '../../db/client.js';
import { jobs, testimonialRequests, testimonialResponses } from '../../db/schema.js';
import { normaliseLogoJob, renderOutputJob, transcodeAnswerJob, transcribeMergedJob, transcribeResponseJob } from '../../queue/definitions.js';
import type { JobDefinition } from '../../queue/queue.js';
import { AppError } from '../../lib/errors.js';
import { signMediaPath } from '../../media/signed-urls.js';
import { assertUsable } from '../consent/control.js';
import { recordEvent } from '../events/events.service.js';

/**
 * Media jobs (issue 16). A service that starts work calls `enqueueJob` inside `ctx.database.transaction`:
 * the `jobs` row and the queue's message commit together or not at all (the transactional outbox), so a
 * process that dies after the commit leaves work that a worker still runs. The worker's handler wraps
 * the work in `runJob`, which moves the row queued → running → ready (or failed, with a reason).
 *
 * This file is the one writer of a job's phase, progress and result: other modules call it (a removed
 * logo cancels its jobs, a dead worker's recovery fails its last attempt), and none updates them itself.
 */

/** A job row as stored: `requestId` is null only for a logo job, whose subject is the company. */
export type AnyJobRow = typeof jobs.$inferSelect;
/** A job about a testimonial or one of its answers (every kind but 'logo'). */
export type JobRow = AnyJobRow & { requestId: string };

/** The transaction a service enqueues in: Drizzle's handle and the raw executor pg-boss needs. */
export interface Tx {
  tx: Db;
  executeSql: ExecuteSql;
}

/** Which queue runs each kind (their retry policies differ). */
const QUEUE_OF: Record<TJobKind, JobDefinition<z.ZodType>> = {
  transcode: transcodeAnswerJob,
  intro: renderOutputJob,
  subtitles: renderOutputJob,
  merge: renderOutputJob,
  merged_subtitles: renderOutputJob,
  export: renderOutputJob,
  transcription: transcribeResponseJob,
  merged_transcription: transcribeMergedJob,
  logo: normaliseLogoJob,
  draft: renderOutputJob,
};

/** A render queued or running for longer than this was lost with its worker: it no longer blocks a new one. */
export const STALE_RENDER_MS = 20 * 60_000;

/** A deterministic failure: recorded with its reason and not retried. */
export class JobFailure extends Error {
  constructor(
    readonly reason: TJobReason,
    readonly params: Record<string, string | number> = {},
    detail?: string,
  ) {
    super(detail ?? jobReasonMessage(reason, params));
    this.name = 'JobFailure';
  }
}

/**
 * The job was cancelled while it ran (the customer withdrew their consent, asked for an answer's removal,
 * the logo was removed): `completeJob` throws it so that the caller's transaction records nothing, and
 * `runAnyJob` ends the delivery quietly, leaving the job cancelled (decision 188).
 */
export class JobCancelled extends Error {
  constructor(readonly jobId: string) {
    super(`job ${jobId} was cancelled before it completed`);
    this.name = 'JobCancelled';
  }
}

/** The default reason of a kind's unexpected failure. */
const defaultReason = (kind: TJobKind): TJobReason =>
  kind === 'transcode'
    ? 'transcode_failed'
    : kind === 'transcription' || kind === 'merged_transcription'
      ? 'transcription_failed'
      : kind === 'logo'
        ? 'logo_failed'
        : 'render_failed';

const isUniqueViolation = (error: unknown) => {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: string }).code === '23505') return true;
  }
  return false;
};

/**
 * Inserts a job and sends its queue message in the caller's transaction. A studio render while another
 * render of the same answer (or testimonial) is queued or running is refused with 409 `conflict` (renders that stalled past STALE_RENDER_MS are marked interrupted first).
 */
export interface JobInput {
  companyId: string;
  kind: Exclude<TJobKind, 'logo'>;
  requestId: string;
  responseId?: string | null;
  params?: Record<string, unknown>;
  /** Its place among the queue's waiting jobs: higher first (0 by default; a testimonial's later answers lower). */
  priority?: number;
  /** The member who asked for it (the session's user); absent for work the product starts itself. */
  requestedBy?: string | null;
}
/** A job whose subject is the company itself (the logo): no testimonial. */
export interface CompanyJobInput {
  companyId: string;
  kind: 'logo';
  requestId?: null;
  responseId?: null;
  params?: Record<string, unknown>;
}
export async function enqueueJob(ctx: AppContext, tx: Tx, input: JobInput): Promise<JobRow>;
export async function enqueueJob(ctx: AppContext, tx: Tx, input: CompanyJobInput): Promise<AnyJobRow>;
export async function enqueueJob(ctx: AppContext, { tx, executeSql }: Tx, input: JobInput | CompanyJobInput): Promise<AnyJobRow> {
  const isRender = (RENDER_JOB_KINDS as readonly TJobKind[]).includes(input.kind);
  if (isRender) {
    const subject = input.responseId ? eq(jobs.responseId, input.responseId) : and(eq(jobs.requestId, input.requestId!), sql`${jobs.responseId} is null`);
    await tx
      .update(jobs)
      .set({ phase: 'failed', errorReason: 'interrupted', finishedAt: new Date(), updatedAt: new Date() })
      .where(
        and(
          subject,
          inArray(jobs.kind, [...RENDER_JOB_KINDS]),
          inArray(jobs.phase, ['queued', 'running']),
          lt(jobs.updatedAt, new Date(Date.now() - STALE_RENDER_MS)),
        ),
      );
  }
  // A savepoint, so that a refused insert leaves the caller's transaction usable for its answer.
  let row: AnyJobRow | undefined;
  try {
    [row] = await tx.transaction(async (savepoint) =>
      savepoint
        .insert(jobs)
        .values({
          companyId: input.companyId,
          kind: input.kind,
          requestId: input.requestId ?? null,
          responseId: input.responseId ?? null,
          params: input.params ?? {},
          requestedBy: ('requestedBy' in input ? input.requestedBy : null) ?? null,
        })
        .returning(),
    );
  } catch (error) {
    if (isRender && isUniqueViolation(error)) {
      throw new AppError('conflict', {
        message: input.responseId
          ? 'A video of this answer is already being generated. Please wait for it to finish.'
          : 'A video of this testimonial is already being generated. Please wait for it to finish.',
      });
    }
    throw error;
  }
  await ctx.queue.send(QUEUE_OF[input.kind], { jobId: row!.id }, { executeSql, ...('priority' in input && input.priority ? { priority: input.priority } : {}) });
  return row!;
}

/** Starts work in one short transaction (the row and its message), for callers with nothing else to write. */
export function startJob(ctx: AppContext, input: JobInput): Promise<JobRow> {
  return ctx.database.transaction((executeSql, tx) => enqueueJob(ctx, { tx, executeSql }, input));
}

/** Progress of a running job (0–100). */
export async function reportProgress(ctx: AppContext, jobId: string, progress: number): Promise<void> {
  await ctx.db
    .update(jobs)
    .set({ progress: Math.max(0, Math.min(99, Math.round(progress))), updatedAt: new Date() })
    .where(and(eq(jobs.id, jobId), eq(jobs.phase, 'running')));
}

/**
 * Marks a running job ready with its output. Pass the transaction when other rows (the answer's pointer to
 * its output, the 'ready' e-mail) must commit with it. A job no longer running (cancelled meanwhile) is
 * never turned ready: `JobCancelled` is thrown, which rolls the caller's transaction back.
 */
export async function completeJob(db: Db, jobId: string, output: { outputKey?: string | null; result?: unknown } = {}): Promise<void> {
  const done = await db
    .update(jobs)
    .set({
      phase: 'ready',
      progress: 100,
      outputKey: output.outputKey ?? null,
      ...(output.result !== undefined ? { result: output.result } : {}),
      errorReason: null,
      errorParams: null,
      errorDetail: null,
      finishedAt: new Date(),
      updatedAt: new Date(),
    })
    .where(and(eq(jobs.id, jobId), eq(jobs.phase, 'running')))
    .returning({ id: jobs.id });
  if (!done.length) throw new JobCancelled(jobId);
}

/** One job cancelled if still queued or running: whatever it was doing records nothing afterwards. */
export async function cancelJob(db: DbOrTx, jobId: string): Promise<void> {
  await db
    .update(jobs)
    .set({ phase: 'cancelled', finishedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(jobs.id, jobId), inArray(jobs.phase, ['queued', 'running'])));
}

/**
 * The queued or running jobs of a testimonial cancelled, in the caller's transaction (issue 29): every
 * one (consent withdrawn), or, for one answer whose removal the customer asked, that answer's jobs and
 * the testimonial's jobs over all its answers (merges, merged transcription), which would contain it.
 * A render or transcode finishing afterwards records nothing (completeJob), and no 'ready' e-mail waits.
 */
export async function cancelTestimonialJobs(db: DbOrTx, subject: { requestId: string; responseId?: string | undefined }): Promise<string[]> {
  const now = new Date();
  const rows = await db
    .update(jobs)
    .set({ phase: 'cancelled', finishedAt: now, updatedAt: now, notifyPending: false })
    .where(
      and(
        eq(jobs.requestId, subject.requestId),
        subject.responseId ? or(eq(jobs.responseId, subject.responseId), isNull(jobs.responseId)) : undefined,
        inArray(jobs.phase, ['queued', 'running']),
      ),
    )
    .returning({ id: jobs.id });
  return rows.map((r) => r.id);
}

/**
 * Media jobs whose worker died on their last attempt: the queue gave up on them (presence's recovery,
 * in the transaction that buried the worker), and the handler that would have recorded the failure never
 * ran. Recorded failed with the reason 'interrupted'; a render among them is a `render.failed` event
 * (and its webhook deliveries), in the same transaction, as the handler's failure path records it
 * (decision 221). Ids that are not a job row's are ignored.
 */
export async function failJobsOfLostWorker(ctx: { queue: Pick<AppContext['queue'], 'send'> }, t: Tx, jobIds: string[]): Promise<void> {
  const ids = jobIds.filter((id) => UUID.test(id));
  if (!ids.length) return;
  const failed = await t.tx
    .update(jobs)
    .set({ phase: 'failed', errorReason: 'interrupted', finishedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(inArray(jobs.id, ids), inArray(jobs.phase, ['queued', 'running'])))
    .returning();
  for (const job of failed) {
    if (QUEUE_OF[job.kind] !== renderOutputJob) continue;
    await recordEvent(
      ctx,
      t,
      job.companyId,
      'render.failed',
      { job_id: job.id, testimonial_id: job.requestId, response_id: job.responseId, kind: job.kind, reason: 'interrupted' },
      { actorUserId: job.requestedBy },
    );
  }
}

/** A company's logo jobs still queued or running, cancelled (the logo was removed): they record nothing once cancelled. */
export async function cancelLogoJobs(db: DbOrTx, companyId: string): Promise<void> {
  await db
    .update(jobs)
    .set({ phase: 'cancelled', finishedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(jobs.companyId, companyId), eq(jobs.kind, 'logo'), inArray(jobs.phase, ['queued', 'running'])));
}

/** The company's latest logo job while it is queued or running (a later upload wins), else null. */
export async function pendingLogoJob(db: DbOrTx, companyId: string): Promise<{ id: string; params: unknown } | null> {
  const [latest] = await db
    .select({ id: jobs.id, phase: jobs.phase, params: jobs.params })
    .from(jobs)
    .where(and(eq(jobs.companyId, companyId), eq(jobs.kind, 'logo')))
    .orderBy(desc(jobs.createdAt), desc(jobs.id))
    .limit(1);
  if (!latest || (latest.phase !== 'queued' && latest.phase !== 'running')) return null;
  return { id: latest.id, params: latest.params };
}

/** The latest job of a kind about one answer (a queue message sent before issue 16 names only the answer). */
export async function latestAnswerJob(db: DbOrTx, responseId: string, kind: TJobKind): Promise<string | undefined> {
  const [row] = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.responseId, responseId), eq(jobs.kind, kind)))
    .orderBy(desc(jobs.createdAt))
    .limit(1);
  return row?.id;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface RunMeta {
  /** pg-boss's retry count of this delivery (0 on the first). */
  attempt: number;
}

/**
 * The worker's wrapper of one job's work. Runs `work` once per delivery of a job that is not final yet
 * (a job delivered twice after it finished does nothing), records the attempt, and on failure either
 * leaves the job queued for the queue's retry or, on the last attempt or a JobFailure, records it
 * failed with its reason. `work` receives the row and must call `completeJob` (in its own transaction
 * with what else it records).
 */
export async function runJob(ctx: AppContext, jobId: string, meta: RunMeta, work: (job: JobRow) => Promise<void>): Promise<void> {
  await runAnyJob(ctx, jobId, meta, async (job) => {
    if (job.requestId === null) throw new JobFailure('source_missing', {}, `a ${job.kind} job without its testimonial`);
    await work(job as JobRow);
  });
}

/** runJob for a job of any kind, including those whose subject is the company (the logo). */
export async function runAnyJob(ctx: AppContext, jobId: string, meta: RunMeta, work: (job: AnyJobRow) => Promise<void>): Promise<void> {
  const [job] = await ctx.db
    .update(jobs)
    .set({ phase: 'running', attempts: sql`${jobs.attempts} + 1`, startedAt: sql`coalesce(${jobs.startedAt}, now())`, updatedAt: new Date() })
    .where(and(eq(jobs.id, jobId), inArray(jobs.phase, ['queued', 'running'])))
    .returning();
  if (!job) return; // done (or cancelled) already, or deleted with its testimonial
  const retryLimit = QUEUE_OF[job.kind].retryLimit;
  try {
    await work(job);
  } catch (error) {
    if (error instanceof JobCancelled) {
      ctx.logger.info({ jobId, kind: job.kind }, 'media job cancelled while it ran: nothing recorded');
      return;
    }
    const detail = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
    const final = error instanceof JobFailure || meta.attempt >= retryLimit;
    await ctx.database.transaction(async (executeSql, tx) => {
      const [settled] = await tx
        .update(jobs)
        .set(
          final
            ? {
                phase: 'failed',
                errorReason: error instanceof JobFailure ? error.reason : defaultReason(job.kind),
                errorParams: error instanceof JobFailure ? error.params : {},
                errorDetail: detail,
                finishedAt: new Date(),
                updatedAt: new Date(),
              }
            : { phase: 'queued', progress: 0, errorDetail: detail, updatedAt: new Date() },
        )
        // A job cancelled meanwhile stays cancelled.
        .where(and(eq(jobs.id, jobId), inArray(jobs.phase, ['queued', 'running'])))
        .returning({ phase: jobs.phase });
      // A render that failed for good is an event (issue 32), recorded with its failure.
      if (final && settled?.phase === 'failed' && QUEUE_OF[job.kind] === renderOutputJob) {
        const reason = error instanceof JobFailure ? error.reason : defaultReason(job.kind);
        await recordEvent(
          ctx,
          { tx, executeSql },
          job.companyId,
          'render.failed',
          { job_id: job.id, testimonial_id: job.requestId, response_id: job.responseId, kind: job.kind, reason },
          { actorUserId: job.requestedBy },
        );
      }
    });
    ctx.logger.warn({ err: error, jobId, kind: job.kind, final }, 'media job failed');
    // A deterministic failure is recorded and not retried; anything else goes back to the queue.
    if (!(error instanceof JobFailure)) throw error;
  }
}

/** The contract's view of a job. `media: false` (a withdrawn testimonial's job) gives no output address. */
export function toJob(ctx: AppContext, row: AnyJobRow, options: { media?: boolean } = {}): TJob {
  return {
    id: row.id,
    kind: row.kind,
    testimonialId: row.requestId,
    responseId: row.responseId,
    params: row.params,
    phase: row.phase,
    progress: row.progress,
    error:
      row.phase === 'failed'
        ? { reason: row.errorReason ?? defaultReason(row.kind), params: row.errorParams ?? {}, message: jobReasonMessage(row.errorReason ?? defaultReason(row.kind), row.errorParams ?? {}) }
        : null,
    outputUrl: options.media !== false && row.phase === 'ready' && row.outputKey ? `${ctx.config.appUrl}${signMediaPath(ctx.secrets.jwt, row.outputKey)}` : null,
    attempts: row.attempts,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** One job of the company; another company's id is a 404. */
export async function getJob(ctx: AppContext, companyId: string, id: string): Promise<AnyJobRow> {
  const [row] = await ctx.db.select().from(jobs).where(and(eq(jobs.id, id), eq(jobs.companyId, companyId)));
  if (!row) throw new AppError('not_found', { message: 'This job does not exist.' });
  return row;
}

/** A followed job's `watched_at` is written at most this often (the web reads it every 2 s: JOB_POLL_MS). */
export const WATCH_WRITE_EVERY_SECONDS = 5;

/**
 * One job of the company, read by the web app following it (GET /api/jobs/{id}): records that someone is
 * on the page (`watched_at`, which decides whether its 'ready' e-mail is worth sending: studio/ready-mail.ts).
 * Most reads write nothing: the conditional update (a primary-key lookup) changes the row only while the
 * job runs and when its mark is older than WATCH_WRITE_EVERY_SECONDS.
 */
export async function followJob(ctx: AppContext, companyId: string, id: string): Promise<AnyJobRow> {
  const row = await getJob(ctx, companyId, id);
  if (row.phase === 'queued' || row.phase === 'running') {
    // Both times on the database's clock, as at the job's completion. Matching no row writes nothing.
    await ctx.db
      .update(jobs)
      .set({ watchedAt: sql`now()` })
      .where(
        and(
          eq(jobs.id, id),
          eq(jobs.companyId, companyId),
          inArray(jobs.phase, ['queued', 'running']),
          or(isNull(jobs.watchedAt), lt(jobs.watchedAt, sql`now() - ${WATCH_WRITE_EVERY_SECONDS} * interval '1 second'`)),
        ),
      );
  }
  return row;
}

/**
 * Which testimonials among these have had their consent withdrawn, or hold removed answers among these
 * answers: their jobs' output addresses are not given (GET /api/jobs/{id}, the job list).
 */
export async function mediaRefused(db: DbOrTx, rows: AnyJobRow[]): Promise<(row: AnyJobRow) => boolean> {
  const requestIds = [...new Set(rows.flatMap((r) => (r.requestId && r.outputKey ? [r.requestId] : [])))];
  if (!requestIds.length) return () => false;
  const withdrawn = new Set(
    (await db.select({ id: testimonialRequests.id }).from(testimonialRequests).where(and(inArray(testimonialRequests.id, requestIds), isNotNull(testimonialRequests.consentWithdrawnAt)))).map((r) => r.id),
  );
  const responseIds = [...new Set(rows.flatMap((r) => (r.responseId && r.outputKey ? [r.responseId] : [])))];
  const removed = new Set(
    responseIds.length
      ? (await db.select({ id: testimonialResponses.id }).from(testimonialResponses).where(and(inArray(testimonialResponses.id, responseIds), isNotNull(testimonialResponses.removalRequestedAt)))).map((r) => r.id)
      : [],
  );
  return (row) => Boolean((row.requestId && withdrawn.has(row.requestId)) || (row.responseId && removed.has(row.responseId)));
}

/** The contract's view of the company's jobs, without output addresses for what the customer withdrew or removed. */
export async function toJobs(ctx: AppContext, rows: AnyJobRow[]): Promise<TJob[]> {
  const refused = await mediaRefused(ctx.db, rows);
  return rows.map((row) => toJob(ctx, row, { media: !refused(row) }));
}

/** The jobs of one testimonial (or of one of its answers), newest first. */
export async function listJobs(ctx: AppContext, companyId: string, subject: { requestId: string; responseId?: string | undefined }): Promise<JobRow[]> {
  return (await ctx.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.companyId, companyId), eq(jobs.requestId, subject.requestId), subject.responseId ? eq(jobs.responseId, subject.responseId) : undefined))
    .orderBy(desc(jobs.createdAt))
    .limit(200)) as JobRow[]; // of one testimonial: its id is set
}

/**
 * The latest job of each given kind for each answer of a testimonial and for the testimonial itself
 * (for the testimonial's view: its answers' transcode and render states). Keys: `${responseId ?? ''}:${kind}`.
 */
export async function latestJobs(db: Db, requestId: string): Promise<Map<string, JobRow>> {
  const rows = await db.select().from(jobs).where(eq(jobs.requestId, requestId)).orderBy(desc(jobs.createdAt));
  const latest = new Map<string, JobRow>();
  for (const row of rows as JobRow[]) {
    const key = `${row.responseId ?? ''}:${row.kind}`;
    if (!latest.has(key)) latest.set(key, row);
  }
  return latest;
}

/** A failed job again: a new job of the same kind, subject and parameters (the worker checks again what it needs). */
export async function retryJob(ctx: AppContext, companyId: string, id: string, requestedBy: string | null = null): Promise<JobRow> {
  const failed = await getJob(ctx, companyId, id);
  if (failed.phase !== 'failed') throw new AppError('conflict', { message: 'Only a failed job can be tried again.' });
  // A logo job's upload is gone once it failed: the company picks the file again.
  if (failed.kind === 'logo' || failed.requestId === null) throw new AppError('conflict', { message: 'Please upload the logo again.' });
  await assertUsable(ctx.db, { companyId, requestId: failed.requestId, responseIds: [failed.responseId] });
  return startJob(ctx, { companyId, kind: failed.kind, requestId: failed.requestId, responseId: failed.responseId, params: failed.params, requestedBy });
}
