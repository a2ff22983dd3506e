import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API } from '../../../contract/api/paths.js';
import {
  SAVE_VIDEO_FIELD,
  ZSaveTestimonialResponse,
  ZValidateTokenParams,
  ZValidateTokenResponse,
  videoFileIndex,
} from '../../../contract/api/public.schema.js';
import type { AppContext } from '../../context.js';
import { sendJsonText } from '../../http/json-text.js';
import { addressGroup, byIp, limits } from '../../http/rate-limit.js';
import { AppError } from '../../lib/errors.js';
import { invalidLink, openUpload, saveSubmission, validateToken, type UploadedAnswer, type UploadLink } from './submissions.service.js';
import { UploadBudget } from './upload-budget.js';

/** Where a client may send the link's token outside the form (the form's 'token' field still works). */
const TOKEN_HEADER = 'x-request-token';

/** The token from the X-Request-Token header or the `?token=` query; the two must agree when both are sent. */
function tokenOutsideForm(request: FastifyRequest): string | undefined {
  const header = request.headers[TOKEN_HEADER];
  const fromHeader = typeof header === 'string' && header !== '' ? header : undefined;
  const query = (request.query as Record<string, unknown> | undefined)?.token;
  const fromQuery = typeof query === 'string' && query !== '' ? query : undefined;
  if (fromHeader !== undefined && fromQuery !== undefined && fromHeader !== fromQuery) throw invalidLink();
  return fromHeader ?? fromQuery;
}

/** 429 once an address has sent its hour's worth of bytes (the page retries after Retry-After). */
function overBudget(reply: FastifyReply, retryAfterSeconds: number): AppError {
  reply.header('retry-after', retryAfterSeconds);
  return new AppError('rate_limited', { reason: 'upload_budget_exhausted', errorKey: 'rateLimited' });
}

/** The customer's calls: no credentials, limited per address against token guessing and abuse. */
export function submissionsRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tooLarge = (index: number) =>
      new AppError('payload_too_large', {
        reason: 'answer_too_large',
        params: { answer: index + 1, megabytes: Math.round(ctx.config.uploadMaxBytes / 1048576) },
      });

    app.get(
      API.public.validate.route,
      {
        preHandler: [limits(app, [{ name: 'validate', max: 60, timeWindow: '10 minutes', key: byIp }])],
        schema: { params: ZValidateTokenParams, response: { 200: ZValidateTokenResponse } },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return sendJsonText(reply, await validateToken(ctx, request.params.token));
      },
    );

    // Bytes written per client address an hour: see upload-budget.ts and the default in config.ts.
    const budget = new UploadBudget(app.sharedLimits, ctx.config.uploadBudgetBytesPerHour);

    app.post(
      API.public.save.route,
      {
        preHandler: [limits(app, [{ name: 'save', max: 20, timeWindow: '10 minutes', key: byIp }])],
        schema: { response: { 200: ZSaveTestimonialResponse } },
      },
      async (request, reply) => {
        if (!request.isMultipart()) {
          throw new AppError('unsupported_media_type', { reason: 'multipart_expected' });
        }
        // The token may come in a header or the address as well as in the form (the spec's field).
        const outside = tokenOutsideForm(request);
        // The byte budget's client: an address, or an IPv6 client's /64.
        const client = addressGroup(request.ip);
        const meter = budget.meter(client);
        const tmpDir = path.join(ctx.tmpDir, `upload-${randomUUID()}`);
        const files: UploadedAnswer[] = [];
        const fields: Record<string, string> = {};
        let link: UploadLink | undefined;
        try {
          // Nothing reaches the disk before the link is known: a file part must come after the token
          // (the recording page sends every field first), the link must take answers, and only as many
          // files as it has questions are read. Files stream to disk while their hash is computed.
          for await (const part of request.parts()) {
            if (part.type === 'field') {
              const value = String(part.value);
              // One token per call: a second one, in the form or outside it, that differs is refused.
              const known = outside ?? fields.token;
              if (part.fieldname === 'token' && known !== undefined && value !== known) throw invalidLink();
              fields[part.fieldname] = value;
              continue;
            }
            if (part.fieldname !== SAVE_VIDEO_FIELD) {
              throw new AppError('invalid_data', { reason: 'unexpected_file_field', params: { field: part.fieldname.slice(0, 100) } });
            }
            const token = fields.token ?? outside;
            if (token === undefined) {
              throw new AppError('missing_fields', { reason: 'token_before_videos', field: 'token' });
            }
            link ??= await openUpload(ctx, token, fields.testimonialId);
            if (link.token !== token) throw invalidLink();
            if (files.length >= link.questionCount) {
              throw new AppError('invalid_data', { reason: 'too_many_recordings' });
            }
            const index = videoFileIndex(part.filename) ?? files.length;
            if (index >= link.questionCount || files.some((f) => f.index === index)) {
              throw new AppError('invalid_data', { reason: 'recording_unmatched' });
            }
            const wait = await budget.exhausted(client);
            if (wait !== null) throw overBudget(reply, wait);
            if (files.length === 0) await mkdir(tmpDir, { recursive: true });
            const file = path.join(tmpDir, `answer-${files.length}`);
            const hash = createHash('sha256');
            let size = 0;
            await pipeline(
              part.file,
              new Transform({
                transform(chunk: Buffer, _enc, done) {
                  meter.take(chunk.length).then((retryAfter) => {
                    if (retryAfter !== null) return done(overBudget(reply, retryAfter));
                    hash.update(chunk);
                    size += chunk.length;
                    done(null, chunk);
                  }, done);
                },
                flush(done) {
                  // The rest of the file's bytes, before it counts as written.
                  meter.flush().then((retryAfter) => done(retryAfter === null ? null : overBudget(reply, retryAfter)), done);
                },
              }),
              createWriteStream(file),
            ).catch((error: unknown) => {
              // The multipart reader stops a file at the size limit: the customer learns which answer.
              throw (error as { code?: unknown } | null)?.code === 'FST_REQ_FILE_TOO_LARGE' ? tooLarge(index) : error;
            });
            if (part.file.truncated) throw tooLarge(index);
            files.push({ index, path: file, size, sha256: hash.digest('hex') });
          }
          if (outside !== undefined) fields.token ??= outside;
          return await saveSubmission(ctx, { fields, files, ip: request.ip, userAgent: request.headers['user-agent'] });
        } catch (error) {
          // Refused before the body was read to its end: what is left of it is discarded, never
          // written, and the connection closes after the answer rather than wait for more parts.
          if (!request.raw.readableEnded) {
            reply.header('connection', 'close');
            request.raw.unpipe();
            request.raw.resume();
          }
          throw error;
        } finally {
          await rm(tmpDir, { recursive: true, force: true });
        }
      },
    );
  };
}
