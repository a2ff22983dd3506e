import { errorReasonMessage, type TErrorParams, type TErrorReason } from '../../contract/error-reasons.js';
import { ERROR_STATUS, type TAuthErrorKey, type TErrorCode } from '../../contract/errors.js';

export type AppErrorOptions = {
  status?: number;
  errorKey?: TAuthErrorKey;
  field?: string;
  cause?: unknown;
  /** The stable reason key (contract/error-reasons.ts): the web translates it. */
  reason?: TErrorReason;
  /** The reason's parameters. */
  params?: TErrorParams;
} & (
  | { message: string }
  /** Without a message, the reason's English message (with its parameters) is the error's text. */
  | { message?: undefined; reason: TErrorReason }
);

/** The one error type of the server; the error handler turns it into `{ error, code, errorKey?, field?, reason?, params? }`. */
export class AppError extends Error {
  readonly status: number;
  readonly errorKey: TAuthErrorKey | undefined;
  readonly field: string | undefined;
  readonly reason: TErrorReason | undefined;
  readonly params: TErrorParams | undefined;

  constructor(
    readonly code: TErrorCode,
    options: AppErrorOptions,
  ) {
    super(options.message ?? errorReasonMessage(options.reason!, options.params), { cause: options.cause });
    this.name = 'AppError';
    this.status = options.status ?? ERROR_STATUS[code];
    this.errorKey = options.errorKey;
    this.field = options.field;
    this.reason = options.reason;
    this.params = options.reason ? options.params : undefined;
  }
}

export const notFound = (message: string) => new AppError('not_found', { message });
export const noPermission = (message = 'You do not have permission to do this.') =>
  new AppError('no_permission', { message });
export const invalidData = (message: string, field?: string) =>
  new AppError('invalid_data', { message, ...(field ? { field } : {}) });
