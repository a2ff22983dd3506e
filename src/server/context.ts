import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Database, Db } from './db/client.js';
import type { ReadCache } from './lib/read-cache.js';
import type { Secrets } from './lib/secrets.js';
import type { Queue } from './queue/queue.js';
import type { Mailer } from './mail/mailer.js';
import type { MediaToolkit } from './media/ffmpeg.js';
import type { Metrics } from './modules/observability/metrics.js';
import type { Storage } from './storage/storage.js';

/** What services, routes and job handlers share: built once at start, passed explicitly. */
export interface AppContext {
  config: Config;
  secrets: Secrets;
  database: Database;
  db: Db;
  queue: Queue;
  storage: Storage;
  mailer: Mailer;
  logger: FastifyBaseLogger;
  /** Prometheus metrics of this process (GET /metrics). */
  metrics: Metrics;
  /** Company reads cached in this process, dropped on the database's change announcements. */
  reads: ReadCache;
  /** This process's id: its row in `workers`, the holder of its jobs and of the objects it is writing. */
  processId: string;
  /**
   * This process's own temporary folder (DATA_DIR/tmp/<process id>): create it on use; what a killed
   * process leaves in its folder is removed once another process finds it dead.
   */
  tmpDir: string;
  startedAt: number;
  /** ffmpeg and ffprobe of this process: paths, the concurrency cap and the running children. */
  media: MediaToolkit;
}
