import PgBoss from 'pg-boss';
import type { z } from 'zod';
import type { Database } from '../db/client.js';

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
  /** Jobs of this queue run at most this many at a time in one worker process. */
  concurrency: number;
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

export interface Queue {
  boss: PgBoss;
  send<TSchema extends z.ZodType>(def: JobDefinition<TSchema>, data: z.infer<TSchema>, options?: { singletonKey?: string; startAfter?: number }): Promise<string | null>;
  /** Starts the workers of the given jobs (the worker role). */
  work(jobs: RegisteredJob[]): Promise<void>;
  ping(): Promise<void>;
  stop(): Promise<void>;
}

export interface QueueLogger {
  error(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export async function openQueue(database: Database, options: { logger: QueueLogger; definitions: JobDefinition<z.ZodType>[]; schema?: string }): Promise<Queue> {
  const schema = options.schema ?? 'pgboss';
  // On PostgreSQL pg-boss keeps its own small pool; on PGlite it shares the single embedded connection.
  const boss = database.url
    ? new PgBoss({ connectionString: database.url, schema, max: 4 })
    : new PgBoss({ db: { executeSql: database.executeSql }, schema });
  boss.on('error', (error) => options.logger.error({ err: error }, 'queue error'));
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

  return {
    boss,
    async send(def, data, sendOptions) {
      const payload = def.schema.parse(data) as object;
      return boss.send(def.name, payload, {
        retryLimit: def.retryLimit,
        retryDelay: def.retryDelaySeconds,
        retryBackoff: def.retryBackoff,
        expireInSeconds: def.expireInSeconds,
        ...(sendOptions?.singletonKey ? { singletonKey: sendOptions.singletonKey } : {}),
        ...(sendOptions?.startAfter ? { startAfter: sendOptions.startAfter } : {}),
      });
    },
    async work(jobs) {
      for (const { definition, handler } of jobs) {
        for (let i = 0; i < definition.concurrency; i++) {
          await boss.work(definition.name, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) => {
            if (!job) return;
            const data = definition.schema.parse(job.data);
            try {
              await handler(data, { jobId: job.id, attempt: 0 });
            } catch (error) {
              options.logger.error({ err: error, job: definition.name, jobId: job.id }, 'job failed');
              throw error;
            }
          });
        }
      }
    },
    async ping() {
      await boss.getQueueSize(options.definitions[0]?.name ?? '__none__').catch((error: unknown) => {
        // getQueueSize of an unknown queue is fine; only a database failure matters here.
        if (options.definitions.length) throw error;
      });
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 10_000, close: Boolean(database.url), wait: true });
    },
  };
}
