import { pino, type Logger } from 'pino';
import type { Config } from '../config.js';

/** JSON logs in production, pretty ones in development, none in tests unless LOG_LEVEL asks. */
export function createLogger(config: Pick<Config, 'env' | 'logLevel'>): Logger {
  return pino({
    level: config.logLevel,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-refresh-token"]', 'req.headers.cookie', '*.password', '*.new_password'],
      censor: '[redacted]',
    },
    ...(config.env === 'development'
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } }
      : {}),
  });
}
