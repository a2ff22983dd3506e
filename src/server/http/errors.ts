import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { errorReasonMessage, type TErrorReason } from '../../contract/error-reasons.js';
import type { TApiError, TErrorCode } from '../../contract/errors.js';
import { isDatabaseUnavailable } from '../lib/db-errors.js';
import { AppError } from '../lib/errors.js';

/** Seconds a client is asked to wait before trying again while the database is unreachable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

function send(reply: FastifyReply, status: number, body: TApiError) {
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

/** 'customer.email' for the first failing field of a validation error. */
function fieldOf(instancePath: string | undefined, params: unknown): string | undefined {
  let field = (instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const missing = (params as { missingProperty?: string } | undefined)?.missingProperty;
  if (missing) field = field ? `${field}.${missing}` : missing;
  return field || undefined;
}

/** A refusal of the handler's own, with its reason and the reason's English message. */
function refusal(code: TErrorCode, reason: TErrorReason, extra: Partial<TApiError> = {}): TApiError {
  return { error: errorReasonMessage(reason), code, reason, params: {}, ...extra };
}

function sentence(text: string): string {
  const t = text.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/**
 * The one error handler: every error leaves as `{ error, code, errorKey?, field?, reason?, params? }`
 * (`reason`: a stable key the web translates, see contract/error-reasons.ts). 5xx hide their internals
 * and are logged with the request id.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, error.message);
      return send(reply, error.status, {
        error: error.message,
        code: error.code,
        ...(error.errorKey ? { errorKey: error.errorKey } : {}),
        ...(error.field ? { field: error.field } : {}),
        ...(error.reason ? { reason: error.reason, params: error.params ?? {} } : {}),
      });
    }

    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const field = fieldOf(first?.instancePath, first?.params);
      const missing = /received undefined/i.test(first?.message ?? '');
      const code: TErrorCode = missing ? 'missing_fields' : 'invalid_data';
      const what = missing
        ? `${field ?? 'A required field'} is required.`
        : sentence(`${field ? `${field}: ` : ''}${first?.message ?? 'invalid value'}`);
      return send(reply, 400, { error: what, code, ...(field ? { field } : {}) });
    }

    if (error instanceof ZodError) {
      const first = error.issues[0];
      const field = first?.path.join('.') || undefined;
      return send(reply, 400, {
        error: sentence(`${field ? `${field}: ` : ''}${first?.message ?? 'invalid value'}`),
        code: 'invalid_data',
        ...(field ? { field } : {}),
      });
    }

    const fe = error as FastifyError;
    switch (fe.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return send(reply, 413, { error: 'The request is too large.', code: 'payload_too_large' });
      case 'FST_REQ_FILE_TOO_LARGE':
        return send(reply, 413, refusal('payload_too_large', 'file_too_large'));
      case 'FST_FILES_LIMIT':
        return send(reply, 413, refusal('payload_too_large', 'too_many_files'));
      case 'FST_PARTS_LIMIT':
      case 'FST_FIELDS_LIMIT':
        return send(reply, 413, refusal('payload_too_large', 'too_many_parts'));
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return send(reply, 415, {
          error: `Unsupported content type${request.headers['content-type'] ? ` '${request.headers['content-type']}'` : ''}: send JSON (application/json).`,
          code: 'unsupported_media_type',
        });
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return send(reply, 400, { error: 'The request body is empty but JSON was announced.', code: 'invalid_format' });
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return send(reply, 400, { error: 'The request body does not match its Content-Length.', code: 'invalid_format' });
      case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
        return send(reply, 415, refusal('unsupported_media_type', 'multipart_expected'));
      default:
        break;
    }
    if (error instanceof SyntaxError || fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
      return send(reply, 400, { error: 'The request body is not valid JSON.', code: 'invalid_format' });
    }
    if (fe.statusCode === 429) {
      return send(reply, 429, refusal('rate_limited', 'rate_limited', { errorKey: 'rateLimited' }));
    }
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      return send(reply, fe.statusCode, { error: sentence(fe.message), code: 'invalid_data' });
    }

    if (isDatabaseUnavailable(error)) {
      // The database (or a connection to it) is gone for now: a moment later the same call may work.
      request.log.warn({ err: error }, 'service unavailable: database unreachable');
      reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      return send(reply, 503, { error: 'The service is briefly unavailable. Please try again in a moment.', code: 'unavailable' });
    }

    request.log.error({ err: error }, 'unhandled error');
    const fromDb = typeof (error as { severity?: unknown }).severity === 'string';
    return send(reply, 500, {
      error: `Something went wrong on our side. Please try again (reference ${request.id}).`,
      code: fromDb ? 'unexpected_db' : 'server_error',
    });
  });

}

export { send as sendError };
