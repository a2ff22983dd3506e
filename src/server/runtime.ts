import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { openDatabase, type Database } from './db/client.js';
import { ALL_JOB_DEFINITIONS } from './jobs/definitions.js';
import { openQueue } from './jobs/queue.js';
import { jobRegistry } from './jobs/registry.js';
import { resolveSecrets } from './lib/secrets.js';
import { createMailer } from './mail/mailer.js';
import { createLocalStorage } from './storage/local-storage.js';
import { configureMediaTools, killAllFfmpeg, setFfmpegConcurrency } from './media/ffmpeg.js';

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
  configureMediaTools({ ffmpeg: config.ffmpegPath, ffprobe: config.ffprobePath });
  setFfmpegConcurrency(config.ffmpegConcurrency);
  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      pgliteDataDir: path.join(config.dataDir, 'pgdata'),
      poolSize: config.databasePoolSize,
    }));
  try {
    if (!options.database) {
      const started = Date.now();
      await database.migrate();
      logger.info({ driver: database.driver, ms: Date.now() - started }, 'database ready');
    }
    const queue = await openQueue(database, { logger, definitions: ALL_JOB_DEFINITIONS });
    const storage = createLocalStorage(config.mediaDir);
    const mailer = createMailer({ smtpUrl: config.smtpUrl, outboxDir: config.outboxDir, from: config.mailFrom });
    const ctx: AppContext = { config, secrets, database, db: database.db, queue, storage, mailer, logger, startedAt: Date.now() };
    if (options.work) await queue.work(jobRegistry(ctx));
    return {
      ctx,
      close: async () => {
        await queue.stop();
        killAllFfmpeg();
        mailer.close();
        if (!options.database) await database.close();
      },
    };
  } catch (error) {
    if (!options.database) await database.close().catch(() => undefined);
    throw error;
  }
}
