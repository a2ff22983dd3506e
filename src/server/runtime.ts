import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { startChangeFeed } from './db/change-feed.js';
import { openDatabase, type Database } from './db/client.js';
import { seedFromTemplate, writeTemplate } from './db/pglite-template.js';
import { ALL_JOB_DEFINITIONS } from './queue/definitions.js';
import { startPresence } from './queue/presence.js';
import { openQueue } from './queue/queue.js';
import { jobRegistry, recoverLostJobs, scheduleRecurringJobs } from './worker.js';
import { ReadCache } from './lib/read-cache.js';
import { resolveSecrets } from './lib/secrets.js';
import { createMailer } from './mail/mailer.js';
import { createLocalStorage } from './storage/local-storage.js';
import { removeAbandonedObjects } from './storage/pending-objects.js';
import { createMediaTools } from './media/ffmpeg.js';
import { createMetrics } from './modules/observability/metrics.js';

export interface RuntimeOptions {
  config: Config;
  logger: Logger;
  /** An already open database (tests share one per worker). */
  database?: Database;
  /** Start the job workers in this process (the 'all' and 'worker' roles). */
  work?: boolean;
}

/** Opens every part the app needs, in order, and gives back the context and a way to close it all. */
export async function openRuntime(options: RuntimeOptions): Promise<{ ctx: AppContext; close: () => Promise<void> }> {
  const { config, logger } = options;
  await mkdir(config.dataDir, { recursive: true });
  const secrets = await resolveSecrets(config);
  const media = createMediaTools(config);
  const pgliteDataDir = path.join(config.dataDir, 'pgdata');
  // A new embedded database starts as a copy of the build's empty one (decision 181).
  const seeded = !options.database && !config.databaseUrl && (await seedFromTemplate(pgliteDataDir));
  const database =
    options.database ?? (await openDatabase({ databaseUrl: config.databaseUrl, pgliteDataDir, poolSize: config.databasePoolSize }));
  try {
    if (!options.database) {
      const started = Date.now();
      await database.migrate();
      logger.info({ driver: database.driver, ms: Date.now() - started, ...(seeded ? { from: 'template' } : {}) }, 'database ready');
    }
    // This process's id: its row in `workers`, the holder of the jobs it takes, its temporary folder.
    const processId = randomUUID();
    const queue = await openQueue(database, { logger, definitions: ALL_JOB_DEFINITIONS, workerId: processId });
    // The AWS SDK is read only where S3 is configured (decision 181).
    const s3 = config.s3 ? (await import('./storage/s3-storage.js')).createS3Storage(config.s3) : undefined;
    const storage = s3 ?? createLocalStorage(config.mediaDir);
    // Temporary files (uploads being checked, renders) live in DATA_DIR/tmp/<process id> for one request
    // or job; what a killed process leaves there is removed once it is known dead, as are its jobs
    // requeued and the objects it stored for rows it never committed (storage/pending-objects.ts).
    const presence = await startPresence({
      id: processId,
      database,
      role: config.role,
      tmpRoot: path.join(config.dataDir, 'tmp'),
      leaseSeconds: config.workerLeaseSeconds,
      logger,
      removeAbandoned: () => removeAbandonedObjects(database, storage),
      ...(options.work ? { recover: recoverLostJobs(queue) } : {}),
    });
    const mailer = createMailer({ smtpUrl: config.smtpUrl, outboxDir: config.outboxDir, from: config.mailFrom });
    const metrics = createMetrics({
      queue,
      queues: ALL_JOB_DEFINITIONS.map((d) => d.name),
      processMetrics: Boolean(config.metricsToken),
      role: config.role,
    });
    // Processes that answer the API cache company reads, kept exact by the database's change feed.
    const reads = new ReadCache();
    const feed =
      config.role === 'worker'
        ? undefined
        : await startChangeFeed(database, { changed: (id) => reads.changed(id), connected: () => reads.connect(), disconnected: () => reads.disconnect() }, { logger });
    const ctx: AppContext = { config, secrets, database, db: database.db, queue, storage, mailer, logger, metrics, reads, processId, tmpDir: presence.tmpDir, startedAt: Date.now(), media };
    if (options.work) {
      await queue.work(jobRegistry(ctx), {
        concurrency: config.workerConcurrency,
        onJobEnd: (name, outcome, seconds) => {
          metrics.jobDuration.observe({ queue: name, outcome }, seconds);
          if (outcome === 'failed') metrics.jobFailures.inc({ queue: name });
        },
      });
      await scheduleRecurringJobs(queue);
    }
    return {
      ctx,
      close: async () => {
        // Jobs in flight get most of the shutdown time; what still runs then is handed back.
        await queue.stop({ drainMs: Math.max(1000, config.shutdownTimeoutMs - 5000), interrupt: media.killAll });
        media.killAll();
        await presence.stop();
        await feed?.stop();
        mailer.close();
        s3?.close();
        if (!options.database) await database.close();
      },
    };
  } catch (error) {
    if (!options.database) await database.close().catch(() => undefined);
    throw error;
  }
}

/**
 * The build's empty embedded database (decision 181): migrated, with pg-boss's schema and the product's
 * queues, and no row of ours. `scripts/pglite-template.mjs` runs this after compiling the server.
 */
export async function buildPgliteTemplate(logger: Logger): Promise<'written' | 'current'> {
  return writeTemplate(async (pgliteDataDir) => {
    const database = await openDatabase({ pgliteDataDir });
    try {
      await database.migrate();
      const queue = await openQueue(database, { logger, definitions: ALL_JOB_DEFINITIONS, workerId: randomUUID() });
      await queue.stop({ drainMs: 0 });
      // Nothing of one installation may travel in every copy: every table of ours is empty.
      const { rows } = await database.executeSql(
        `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
      );
      for (const { table_name: table } of rows as { table_name: string }[]) {
        const { rows: count } = await database.executeSql(`select count(*)::int as n from "${table}"`);
        if ((count[0] as { n: number }).n !== 0) throw new Error(`the template database has rows in ${table}`);
      }
    } finally {
      await database.close();
    }
  });
}
