import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildAppOptions } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import type { AppContext } from '../context.js';
import { createLogger } from '../lib/logger.js';
import { openRuntime } from '../runtime.js';
import { resetDatabase, workerDatabase } from './database.js';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  config: Config;
  close: () => Promise<void>;
}

/**
 * The app on the worker's database with emptied tables, a temporary DATA_DIR and the given environment
 * (drafts off unless `DRAFTS: 'on'` is given).
 * `work: true` also runs the job workers in-process.
 */
export async function createTestApp(
  options: { env?: Record<string, string>; work?: boolean; app?: BuildAppOptions } = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'vouchreel-test-'));
  // Drafts (issue 31) are off unless a test asks for them: a draft is a transcription and a render per paid
  // testimonial, which tests of other things would wait for.
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, APP_URL: 'http://app.test', DRAFTS: 'off', ...options.env });
  const database = await workerDatabase();
  await resetDatabase(database);
  const logger = createLogger(config);
  const runtime = await openRuntime({ config, logger, database, work: options.work ?? false });
  const app = await buildApp(runtime.ctx, { webDir: path.join(dataDir, 'no-web'), ...options.app });
  await app.ready();
  return {
    app,
    ctx: runtime.ctx,
    config,
    close: async () => {
      await app.close();
      await runtime.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
