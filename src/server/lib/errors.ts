import { ERROR_STATUS, type TAuthErrorKey, type TErrorCode } from '../../contract/errors.js';

/** The one error type of the server; the error handler turns it into `{ error, code, errorKey? }`. */
export class AppError extends Error {
  readonly status: number;
  readonly errorKey: TAuthErrorKey | undefined;
  readonly field: string | undefined;

  constructor(
    readonly code: TErrorCode,
    options: { message: string; status?: number; errorKey?: TAuthErrorKey; field?: string; cause?: unknown },
  ) {
    super(options.message, { cause: options.cause });
    this.name = 'AppError';
    this.status = options.status ?? ERROR_STATUS[code];
    this.errorKey = options.errorKey;
    this.field = options.field;
  }
}

export const notFound = (message: string) => new AppError('not_found', { message });
export const noPermission = (message = 'You do not have permission to do this.') =>
  new AppError('no_permission', { message });
export const invalidData = (message: string, field?: string) =>
  new AppError('invalid_data', { message, ...(field ? { field } : {}) });
