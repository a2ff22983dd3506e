import v8 from 'node:v8';
import { ConfigError, loadConfig } from './config.js';
import { buildApp } from './app.js';
import { createLogger } from './lib/logger.js';
import { openRuntime } from './runtime.js';
import { buildWorkerApp } from './modules/observability/worker-app.js';
import { describeProblems } from './media/toolchain.js';
import { mediaToolProblems, speechEngineProblem } from './media/toolchain-cache.js';

/** V8's default (1,800,000, "a rough approximation of bytes executed") times a hundred. */
const WASM_TIERING_BUDGET = 180_000_000;

/**
 * Reads the configuration, opens the database and queue, and serves (and/or works) until SIGTERM.
 * ROLE=all (default): the API, the web app and the jobs in one process. ROLE=api: HTTP only, no job
 * runs here. ROLE=worker: jobs only, with HTTP for /api/health, /api/ready and /metrics.
 */
async function main() {
  // V8 optimises a WebAssembly function once it has run a budget of code. Opening PGlite alone spent the
  // default budget of hundreds of PostgreSQL's functions, and optimising them cost about a second of CPU
  // during every start (decision 181). A hundred times the budget: code that stays hot in a busy process
  // is still optimised, after seconds of work. Set before PGlite compiles its module.
  v8.setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
  // Until the server listens, a moment with nothing for the event loop to wait on (only promises that
  // PGlite's WebAssembly resolves) makes Node wait for every background task of V8 first, such as
  // optimising that WebAssembly: seconds of an idle start (decision 181). This timer keeps the loop alive.
  const startingUp = setInterval(() => undefined, 60_000);
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`\n${error.message}\n\nFix the variables above and start again (see the configuration table in README.md).\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config);
  // The tools the media work needs, before anything says "ready" (issue 18), checked once per
  // installed version (decision 170). The speech engine is not needed to start: its check runs
  // meanwhile, and /api/health waits for it (503 while it is missing).
  const runsMediaJobs = config.role !== 'api';
  const speech = runsMediaJobs ? speechEngineProblem(config) : Promise.resolve(null);
  const speechReported = speech.then(
    (problem) => {
      if (problem) process.stderr.write(`\n${describeProblems([problem], 'Transcription will not work until this is installed (everything else does; /api/health reports it):')}\n`);
    },
    (error: unknown) => logger.error({ err: error }, 'the speech engine could not be checked'),
  );
  const missingTools = await mediaToolProblems(config, runsMediaJobs);
  if (missingTools.length > 0) {
    await speechReported;
    process.stderr.write(`\n${describeProblems(missingTools, `${config.brandName} cannot start: the media tools below are missing.`)}\nInstall them and start again (README.md lists every prerequisite).\n`);
    process.exit(1);
  }
  const { ctx, close } = await openRuntime({ config, logger, work: runsMediaJobs });

  const app = config.role === 'worker' ? await buildWorkerApp(ctx) : await buildApp(ctx);
  await app.listen({ port: config.port, host: config.host });
  clearInterval(startingUp);
  if (config.role === 'worker') {
    logger.info({ role: config.role, concurrency: config.workerConcurrency, port: config.port }, 'worker started (HTTP: /api/health, /api/ready, /metrics)');
  } else {
    logger.info(
      { role: config.role, storage: ctx.storage.driver },
      `${config.brandName} is ready at ${config.appUrl} (database: ${ctx.database.driver}, mail: ${ctx.mailer.transport})`,
    );
    if (!config.isProduction && ctx.mailer.transport === 'outbox') logger.info(`outgoing e-mail: ${config.appUrl}/dev/outbox`);
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    try {
      // No new connection; requests in flight finish. Then jobs in flight finish or are handed back.
      // A keep-alive connection that becomes idle meanwhile would hold the close for Fastify's
      // keepAliveTimeout (72 s): close those as they appear.
      const closing = app.close();
      const idle = setInterval(() => app.server.closeIdleConnections(), 100);
      try {
        await closing;
      } finally {
        clearInterval(idle);
      }
      await close();
      logger.info('stopped cleanly');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
