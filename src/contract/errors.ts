import { z } from 'zod';

/** The backend error codes of the spec's catalogue (both documents, section 8). */
export const ERROR_CODES = [
  'unknown',
  'duplicate_record',
  'missing_relation',
  'missing_fields',
  'invalid_data',
  'invalid_format',
  'no_permission',
  'invalid_field',
  'server_error',
  'unexpected_db',
  'name_exists',
  'not_found',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'unauthorized',
  /** The service cannot answer for a moment (its database is unreachable): try again shortly. */
  'unavailable',
  /** This installation sells no credits (production without Stripe keys): the payment screen says so. */
  'payments_disabled',
  /** The call conflicts with work in progress or with the row's state (409): wait, or do the step it names first. */
  'conflict',
] as const;
export const ZErrorCode = z.enum(ERROR_CODES);
export type TErrorCode = z.infer<typeof ZErrorCode>;

/**
 * The auth error keys, translated by the client under `auth.errors.<key>`
 * (spec: public pages §8, catalogue of translated auth messages).
 */
export const AUTH_ERROR_KEYS = [
  'incorrectCredentials',
  'userNotFound',
  'signupFailed',
  'emailExists',
  'invalidEmail',
  'passwordTooShort',
  'tokenExpired',
  'sessionExpired',
  'emailUnconfirmed',
  'providerConflict',
  'unauthorized',
  'invalidRequest',
  'rateLimited',
  'unknownAuthError',
  'generic',
] as const;
export const ZAuthErrorKey = z.enum(AUTH_ERROR_KEYS);
export type TAuthErrorKey = z.infer<typeof ZAuthErrorKey>;

/** The one JSON shape of every error the API returns. */
export const ZApiError = z.object({
  error: z.string(),
  code: ZErrorCode,
  errorKey: ZAuthErrorKey.optional(),
  /** For validation failures: the field that failed, as a dotted path. */
  field: z.string().optional(),
  /**
   * Why, as a stable key of ERROR_REASON_MESSAGES (error-reasons.ts), when the server names one: the
   * web shows its own translation (`errors.reasons.<reason>`) rather than the English `error`. Any
   * string is read, so that a client older than the server still reads the rest of the error
   * (`isErrorReason` tells the known ones).
   */
  reason: z.string().min(1).max(80).optional(),
  /** The reason's parameters ({{name}} in its message). */
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type TApiError = z.infer<typeof ZApiError>;

/** HTTP status of each code, used by the server's one error handler. */
export const ERROR_STATUS: Record<TErrorCode, number> = {
  unknown: 500,
  duplicate_record: 409,
  missing_relation: 404,
  missing_fields: 400,
  invalid_data: 400,
  invalid_format: 400,
  no_permission: 403,
  invalid_field: 400,
  server_error: 500,
  unexpected_db: 500,
  name_exists: 409,
  not_found: 404,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  unauthorized: 401,
  unavailable: 503,
  payments_disabled: 403,
  conflict: 409,
};
