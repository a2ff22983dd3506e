import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from '../config.js';
import { currentContext } from './request-context.js';

/**
 * JSON logs in production, pretty ones in development, none in tests unless LOG_LEVEL asks. Lines of
 * the root logger written while a request or a job runs carry its request id (and the job's name and
 * id); a request's own logger already has it bound, so it gets nothing twice.
 */
export function createLogger(config: Pick<Config, 'env' | 'logLevel'>, destination?: DestinationStream): Logger {
  const options = {
    level: config.logLevel,
    // A copy: pino merges each line's fields into the object the mixin returns, which would otherwise
    // change the context's bindings for every later line.
    mixin: (_object: object, _level: number, logger: Logger) => (logger === root ? { ...currentContext()?.bindings } : {}),
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-refresh-token"]', 'req.headers.cookie', '*.password', '*.new_password'],
      censor: '[redacted]',
    },
    ...(config.env === 'development'
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } }
      : {}),
  };
  const root: Logger = destination ? pino(options, destination) : pino(options);
  return root;
}
