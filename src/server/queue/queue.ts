import PgBoss from 'pg-boss';
import type { z } from 'zod';
import type { Database, ExecuteSql } from '../db/client.js';
import { currentContext, runWithContext } from '../lib/request-context.js';
import { requeueNow } from './pgboss-private.js';

/**
 * A job is a definition (queue name, zod payload checked when sent and when run, retry policy) plus a
 * handler. The worker root (worker.ts) lists every handler; handlers call services, never HTTP.
 */
export interface JobDefinition<TSchema extends z.ZodType> {
  name: string;
  schema: TSchema;
  retryLimit: number;
  retryDelaySeconds: number;
  retryBackoff: boolean;
  expireInSeconds: number;
  /**
   * A lane of its own with at most this many jobs of this queue at a time in one process (e-mail: slow
   * servers must not hold back renders, nor renders e-mail). Absent: the queue shares the process's
   * main lane of WORKER_CONCURRENCY jobs with the other queues without a lane of their own.
   */
  concurrency?: number;
}

export function defineJob<TSchema extends z.ZodType>(def: JobDefinition<TSchema>): JobDefinition<TSchema> {
  return def;
}

export type JobHandler<TSchema extends z.ZodType> = (data: z.infer<TSchema>, meta: { jobId: string; attempt: number }) => Promise<void>;

export interface RegisteredJob {
  // A registry holds definitions of different payloads side by side.
  definition: JobDefinition<z.ZodType>;
  handler: JobHandler<z.ZodType>;
}

export function registerJob<TSchema extends z.ZodType>(definition: JobDefinition<TSchema>, handler: JobHandler<TSchema>): RegisteredJob {
  return { definition, handler: handler as JobHandler<z.ZodType> };
}

export type JobOutcome = 'completed' | 'failed' | 'handed_back';

export interface WorkOptions {
  /** Jobs of the main lane (queues without a lane of their own) running at once in this process. */
  concurrency: number;
  /** How often an idle lane asks the database for work. */
  pollIntervalMs?: number;
  /** Told when each job ends here (metrics). */
  onJobEnd?: (queue: string, outcome: JobOutcome, seconds: number) => void;
}

export interface StopOptions {
  /** How long jobs in flight may run on before they are interrupted and handed back. */
  drainMs?: number;
  /** Stops what the jobs in flight are doing (ffmpeg), once the drain time is over. */
  interrupt?: () => void;
}

export interface SendOptions {
  singletonKey?: string;
  startAfter?: number;
  /** Taken before the queue's other waiting jobs of lower priority (pg-boss: higher first; default 0). */
  priority?: number;
  /** Sends inside this transaction (Database.transaction): the job exists only if it commits. */
  executeSql?: ExecuteSql;
}

export interface Queue {
  boss: PgBoss;
  /** The process id that leases record (the `workers` row of this process). */
  workerId: string;
  /** Sends a job; a request id of the current request or job travels with it (payload `_meta`). */
  send<TSchema extends z.ZodType>(def: JobDefinition<TSchema>, data: z.infer<TSchema>, options?: SendOptions): Promise<string | null>;
  /** Starts taking jobs of the given kinds in this process (the 'all' and 'worker' roles). */
  work(jobs: RegisteredJob[], options: WorkOptions): Promise<void>;
  /** Jobs running in this process now. */
  running(): number;
  /** Jobs of each queue in the shared queue: waiting (created or retry) and active (pg-boss's getQueueSize). */
  depth(): Promise<{ queue: string; waiting: number; active: number }[]>;
  ping(): Promise<void>;
  /**
   * Inside the transaction that removed dead processes from `workers`: the jobs leased by a process
   * that no longer has a row go back to the queue as a failed attempt (state 'retry', startable at
   * once; 'failed' when no attempt is left), and their leases are deleted. Returns those jobs with their
   * payloads: what they mean to the product (a `jobs` row to record failed) is the caller's to record.
   */
  recover(executeSql: ExecuteSql): Promise<RecoveredJob[]>;
  /**
   * Takes no new job, lets the running ones finish for `drainMs`, then interrupts the rest and hands
   * them back to the queue (waiting again, the attempt not counted) for another worker.
   */
  stop(options?: StopOptions): Promise<void>;
}

/** A job handed back to the queue after its process died: its queue state now ('retry' or 'failed'). */
export interface RecoveredJob {
  id: string;
  name: string;
  state: string;
  data: unknown;
}

export interface QueueLogger {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** The request id a job was sent with, if any. */
export const JOB_META_FIELD = '_meta';
const requestIdOf = (data: unknown): string | undefined => {
  const meta = (data as Record<string, unknown> | null)?.[JOB_META_FIELD] as { requestId?: unknown } | undefined;
  return typeof meta?.requestId === 'string' ? meta.requestId.slice(0, 100) : undefined;
};

interface Lane {
  jobs: RegisteredJob[];
  size: number;
  running: number;
  next: number;
  wake: () => void;
}

interface InFlight {
  queue: string;
  id: string;
  interrupted: boolean;
  settled: Promise<void>;
}

const sleep = (ms: number, signal: { wake?: () => void }) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });

/** Why a job recovered from a dead process failed its attempt (kept in pg-boss's `output`). */
export const LOST_WORKER_MESSAGE = 'The process running this job stopped without finishing it.';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function openQueue(
  database: Database,
  options: { logger: QueueLogger; definitions: JobDefinition<z.ZodType>[]; workerId: string; schema?: string },
): Promise<Queue> {
  const schema = options.schema ?? 'pgboss';
  const { logger, workerId } = options;
  // On PostgreSQL pg-boss keeps its own small pool; on PGlite it shares the single embedded connection.
  const boss = database.url
    ? new PgBoss({ connectionString: database.url, schema, max: 4 })
    : new PgBoss({ db: { executeSql: database.executeSql }, schema });
  boss.on('error', (error) => logger.error({ err: error }, 'queue error'));
  await boss.start();
  for (const def of options.definitions) {
    await boss.createQueue(def.name, {
      name: def.name,
      retryLimit: def.retryLimit,
      retryDelay: def.retryDelaySeconds,
      retryBackoff: def.retryBackoff,
      expireInSeconds: def.expireInSeconds,
    });
  }

  let stopping = false;
  const lanes: Lane[] = [];
  const pumps: Promise<void>[] = [];
  const inFlight = new Set<InFlight>();
  let lastFetchError = 0;

  const asDb = (executeSql: ExecuteSql) => ({ executeSql: executeSql as (text: string, values: unknown[]) => Promise<{ rows: unknown[] }> });

  /**
   * Takes the next job of a queue and records this process as its holder, in one transaction: a job is
   * never active without a holder whose death someone can notice.
   */
  const take = (name: string) =>
    database.transaction(async (executeSql) => {
      const [job] = await boss.fetch<object>(name, { batchSize: 1, includeMetadata: true, db: asDb(executeSql) });
      if (job) await executeSql('insert into job_leases (job_id, queue, worker_id) values ($1, $2, $3)', [job.id, name, workerId]);
      return job;
    });

  /**
   * Ends this process's hold on a job and records what happened, in one transaction. Without the lease
   * (this process was presumed dead meanwhile and the job requeued), nothing is recorded: the job
   * belongs to whoever runs it now. Returns whether the lease was still ours.
   */
  const release = (job: { id: string; queue: string }, record: (executeSql: ExecuteSql) => Promise<unknown>) =>
    database.transaction(async (executeSql) => {
      const { rows } = await executeSql('delete from job_leases where job_id = $1 and worker_id = $2 returning job_id', [job.id, workerId]);
      if (!rows.length) return false;
      await record(executeSql);
      return true;
    });

  /** Back to waiting, as if never started: the next fetch does not count it as a retry. */
  const handBack = (job: { id: string; queue: string }) => release(job, (executeSql) => requeueNow(executeSql, schema, job.queue, [job.id]));

  /**
   * Records an outcome, retrying while the database is unreachable (a job that finished during an
   * outage is not left active until its expiry). Gives up after about a minute.
   */
  const settle = async (what: () => Promise<boolean>): Promise<boolean> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await what();
      } catch (error) {
        if (attempt >= 12) throw error;
        await pause(Math.min(5000, 500 * 2 ** attempt));
      }
    }
  };

  const runJob = (lane: Lane, registered: RegisteredJob, job: PgBoss.JobWithMetadata, work: WorkOptions) => {
    const { definition, handler } = registered;
    const requestId = requestIdOf(job.data);
    const bindings = { ...(requestId ? { reqId: requestId } : {}), job: definition.name, jobId: job.id };
    const entry: InFlight = { queue: definition.name, id: job.id, interrupted: false, settled: Promise.resolve() };
    const started = performance.now();
    lane.running += 1;
    inFlight.add(entry);
    entry.settled = runWithContext({ requestId: requestId ?? `job-${job.id}`, bindings }, async () => {
      let outcome: JobOutcome;
      let ran = false;
      let failure: unknown;
      try {
        const data = definition.schema.parse(job.data);
        await handler(data, { jobId: job.id, attempt: job.retryCount });
        ran = true;
      } catch (error) {
        failure = error;
      }
      const ms = () => Math.round(performance.now() - started);
      const ours = { id: job.id, queue: definition.name };
      if (ran) {
        const kept = await settle(() =>
          release(ours, (executeSql) => boss.complete(definition.name, job.id, { worker: workerId }, { db: asDb(executeSql) })),
        );
        outcome = 'completed';
        if (kept) logger.info({ ms: ms(), attempt: job.retryCount }, 'job completed');
        else logger.warn({ ms: ms() }, 'job finished after its lease was lost (this process was presumed dead): its outcome belongs to the new holder');
      } else if (entry.interrupted) {
        await settle(() => handBack(ours));
        outcome = 'handed_back';
        logger.warn({ ms: ms() }, 'job interrupted by shutdown: handed back');
      } else {
        outcome = 'failed';
        logger.error({ err: failure, attempt: job.retryCount, retryLimit: job.retryLimit }, 'job failed');
        const message = failure instanceof Error ? failure.message.slice(0, 500) : String(failure);
        await settle(() => release(ours, (executeSql) => boss.fail(definition.name, job.id, { message, worker: workerId }, { db: asDb(executeSql) })));
      }
      work.onJobEnd?.(definition.name, outcome, (performance.now() - started) / 1000);
    })
      .catch((error: unknown) => {
        // Recording the outcome failed for a minute (database gone): the job expires and pg-boss retries it.
        logger.error({ err: error, job: definition.name, jobId: job.id }, 'could not record the outcome of a job');
      })
      .finally(() => {
        lane.running -= 1;
        inFlight.delete(entry);
        lane.wake();
      });
  };

  const pump = async (lane: Lane, work: WorkOptions) => {
    const signal: { wake?: () => void } = {};
    lane.wake = () => signal.wake?.();
    const idleMs = work.pollIntervalMs ?? 1000;
    while (!stopping) {
      if (lane.running >= lane.size) {
        await sleep(60_000, signal);
        continue;
      }
      let found: { registered: RegisteredJob; job: PgBoss.JobWithMetadata } | undefined;
      try {
        for (let i = 0; i < lane.jobs.length && !found && !stopping; i++) {
          const index = (lane.next + i) % lane.jobs.length;
          const registered = lane.jobs[index]!;
          const job = await take(registered.definition.name);
          if (job) {
            found = { registered, job };
            lane.next = index + 1;
          }
        }
      } catch (error) {
        if (Date.now() - lastFetchError > 30_000) logger.error({ err: error }, 'cannot fetch jobs');
        lastFetchError = Date.now();
      }
      if (found && stopping) {
        // Taken while stopping began: give it straight back.
        await handBack({ queue: found.registered.definition.name, id: found.job.id }).catch(() => undefined);
      } else if (found) {
        runJob(lane, found.registered, found.job, work);
      } else {
        await sleep(idleMs, signal);
      }
    }
  };

  const wakeQueue = (name: string) => {
    for (const lane of lanes) if (lane.jobs.some((j) => j.definition.name === name)) lane.wake();
  };

  return {
    boss,
    workerId,
    async send(def, data, sendOptions) {
      const payload = def.schema.parse(data) as object;
      const requestId = currentContext()?.requestId;
      const id = await boss.send(def.name, requestId ? { ...payload, [JOB_META_FIELD]: { requestId } } : payload, {
        retryLimit: def.retryLimit,
        retryDelay: def.retryDelaySeconds,
        retryBackoff: def.retryBackoff,
        expireInSeconds: def.expireInSeconds,
        ...(sendOptions?.singletonKey ? { singletonKey: sendOptions.singletonKey } : {}),
        ...(sendOptions?.startAfter ? { startAfter: sendOptions.startAfter } : {}),
        ...(sendOptions?.priority ? { priority: sendOptions.priority } : {}),
        ...(sendOptions?.executeSql ? { db: asDb(sendOptions.executeSql) } : {}),
      });
      // A job sent from a process that works it starts without waiting for the next poll.
      if (id && !sendOptions?.startAfter) wakeQueue(def.name);
      return id;
    },
    async work(jobs, work) {
      const main: Lane = { jobs: [], size: Math.max(1, work.concurrency), running: 0, next: 0, wake: () => undefined };
      for (const registered of jobs) {
        const own = registered.definition.concurrency;
        if (own) lanes.push({ jobs: [registered], size: own, running: 0, next: 0, wake: () => undefined });
        else main.jobs.push(registered);
      }
      if (main.jobs.length) lanes.push(main);
      for (const lane of lanes) pumps.push(pump(lane, work));
    },
    running: () => inFlight.size,
    async depth() {
      const depths = [];
      for (const { name } of options.definitions) {
        const waiting = await boss.getQueueSize(name, { before: 'active' });
        const active = (await boss.getQueueSize(name, { before: 'completed' })) - waiting;
        depths.push({ queue: name, waiting, active });
      }
      return depths;
    },
    async recover(executeSql) {
      // Leases whose holder has no row: it was just found dead (or stopped with a job it could not record).
      const { rows: lost } = await executeSql(
        `delete from job_leases l where l.worker_id <> $1 and not exists (select 1 from workers w where w.id = l.worker_id) returning job_id, queue`,
        [workerId],
      );
      const db = asDb(executeSql);
      const recovered: { id: string; name: string }[] = [];
      for (const lease of lost as { job_id: string; queue: string }[]) {
        // The lease row is ours now (deleted in this transaction): its holder's release finds nothing to record.
        const job = await boss.getJobById(lease.queue, lease.job_id, { db, includeArchive: false });
        if (job?.state !== 'active') continue;
        // pg-boss's own failure path: the attempt counts (a job that kills its worker must not loop forever),
        // 'failed' once the retry limit is reached.
        await boss.fail(lease.queue, lease.job_id, { message: LOST_WORKER_MESSAGE }, { db });
        recovered.push({ id: lease.job_id, name: lease.queue });
      }
      if (!recovered.length) return [];
      const names = [...new Set(recovered.map((j) => j.name))];
      // A retry may start at once, not after the retry delay: its worker is known dead.
      for (const name of names) await requeueNow(executeSql, schema, name, recovered.filter((j) => j.name === name).map((j) => j.id));
      const after: RecoveredJob[] = [];
      for (const { id, name } of recovered) {
        const job = await boss.getJobById(name, id, { db, includeArchive: false });
        if (job) after.push({ id, name, state: job.state, data: job.data });
      }
      // This process may take them at its next poll (the transaction commits first).
      for (const name of names) wakeQueue(name);
      return after;
    },
    async ping() {
      await boss.getQueueSize(options.definitions[0]?.name ?? '__none__').catch((error: unknown) => {
        // getQueueSize of an unknown queue is fine; only a database failure matters here.
        if (options.definitions.length) throw error;
      });
    },
    async stop(stopOptions = {}) {
      stopping = true;
      for (const lane of lanes) lane.wake();
      const settledAll = () => Promise.all([...inFlight].map((job) => job.settled));
      const within = (ms: number) => new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms).unref());
      if (inFlight.size) {
        logger.info({ running: inFlight.size }, 'letting the jobs in flight finish');
        if ((await Promise.race([settledAll(), within(stopOptions.drainMs ?? 10_000)])) === 'timeout') {
          for (const job of inFlight) job.interrupted = true;
          stopOptions.interrupt?.();
          // Interrupted handlers fail fast and hand themselves back; any still stuck is handed back here.
          if ((await Promise.race([settledAll(), within(3_000)])) === 'timeout') {
            await Promise.all([...inFlight].map((job) => handBack(job).catch(() => undefined)));
          }
        }
      }
      await Promise.all(pumps);
      await boss.stop({ graceful: false, close: Boolean(database.url), wait: true });
    },
  };
}
