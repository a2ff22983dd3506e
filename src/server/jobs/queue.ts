import PgBoss from 'pg-boss';
import type { z } from 'zod';
import type { Database } from '../db/client.js';
import { currentContext, runWithContext } from '../lib/request-context.js';

/**
 * A job is a definition (queue name, zod payload checked when sent and when run, retry policy) plus a
 * handler. The registry lists every definition; handlers call services, never HTTP.
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

export interface Queue {
  boss: PgBoss;
  /** Sends a job; a request id of the current request or job travels with it (payload `_meta`). */
  send<TSchema extends z.ZodType>(def: JobDefinition<TSchema>, data: z.infer<TSchema>, options?: { singletonKey?: string; startAfter?: number }): Promise<string | null>;
  /** Starts taking jobs of the given kinds in this process (the 'all' and 'worker' roles). */
  work(jobs: RegisteredJob[], options: WorkOptions): Promise<void>;
  /** Jobs running in this process now. */
  running(): number;
  ping(): Promise<void>;
  /**
   * Takes no new job, lets the running ones finish for `drainMs`, then interrupts the rest and hands
   * them back to the queue (waiting again, the attempt not counted) for another worker.
   */
  stop(options?: StopOptions): Promise<void>;
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

export async function openQueue(database: Database, options: { logger: QueueLogger; definitions: JobDefinition<z.ZodType>[]; schema?: string }): Promise<Queue> {
  const schema = options.schema ?? 'pgboss';
  const { logger } = options;
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

  /** Back to waiting, as if never started: the next fetch does not count it as a retry. */
  const handBack = async (job: InFlight) => {
    await database.executeSql(
      `update ${schema}.job set state = 'created', started_on = null, start_after = now() where id = $1 and name = $2 and state = 'active'`,
      [job.id, job.queue],
    );
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
      try {
        const data = definition.schema.parse(job.data);
        await handler(data, { jobId: job.id, attempt: job.retryCount });
        await boss.complete(definition.name, job.id);
        outcome = 'completed';
        logger.info({ ms: Math.round(performance.now() - started), attempt: job.retryCount }, 'job completed');
      } catch (error) {
        if (entry.interrupted) {
          await handBack(entry);
          outcome = 'handed_back';
          logger.warn({ ms: Math.round(performance.now() - started) }, 'job interrupted by shutdown: handed back');
        } else {
          outcome = 'failed';
          logger.error({ err: error, attempt: job.retryCount, retryLimit: job.retryLimit }, 'job failed');
          await boss.fail(definition.name, job.id, { message: error instanceof Error ? error.message.slice(0, 500) : String(error) });
        }
      }
      work.onJobEnd?.(definition.name, outcome, (performance.now() - started) / 1000);
    })
      .catch((error: unknown) => {
        // Recording the outcome failed (database gone): the job expires and pg-boss retries it.
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
          const [job] = await boss.fetch<object>(registered.definition.name, { batchSize: 1, includeMetadata: true });
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
        await handBack({ queue: found.registered.definition.name, id: found.job.id, interrupted: true, settled: Promise.resolve() }).catch(() => undefined);
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
