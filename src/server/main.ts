import { ConfigError, loadConfig } from './config.js';
import { buildApp } from './app.js';
import { createLogger } from './lib/logger.js';
import { openRuntime } from './runtime.js';

/** Reads the configuration, opens the database and queue, and serves (and/or works) until SIGTERM. */
async function main() {
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
  const { ctx, close } = await openRuntime({ config, logger, work: config.role !== 'api' });

  const app = config.role === 'worker' ? null : await buildApp(ctx);
  if (app) {
    await app.listen({ port: config.port, host: config.host });
    logger.info(`${config.brandName} is ready at ${config.appUrl} (database: ${ctx.database.driver}, mail: ${ctx.mailer.transport})`);
    if (!config.isProduction && ctx.mailer.transport === 'outbox') logger.info(`outgoing e-mail: ${config.appUrl}/dev/outbox`);
  } else {
    logger.info('worker started');
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, 25_000);
    force.unref();
    try {
      await app?.close();
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
