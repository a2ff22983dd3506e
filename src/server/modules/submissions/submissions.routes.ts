import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
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
import { byIp, limits } from '../../http/rate-limit.js';
import { AppError } from '../../lib/errors.js';
import { saveSubmission, validateToken, type UploadedAnswer } from './submissions.service.js';

/** The customer's calls: no credentials, limited per address against token guessing and abuse. */
export function submissionsRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

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

    app.post(
      API.public.save.route,
      {
        preHandler: [limits(app, [{ name: 'save', max: 20, timeWindow: '10 minutes', key: byIp }])],
        schema: { response: { 200: ZSaveTestimonialResponse } },
      },
      async (request) => {
        if (!request.isMultipart()) {
          throw new AppError('unsupported_media_type', { message: 'This call expects a multipart/form-data upload.' });
        }
        const tmpDir = path.join(ctx.tmpDir, `upload-${randomUUID()}`);
        await mkdir(tmpDir, { recursive: true });
        const files: UploadedAnswer[] = [];
        const fields: Record<string, string> = {};
        try {
          // Files stream to disk while their hash is computed: never whole in memory.
          for await (const part of request.parts()) {
            if (part.type === 'field') {
              fields[part.fieldname] = String(part.value);
              continue;
            }
            if (part.fieldname !== SAVE_VIDEO_FIELD) {
              part.file.resume();
              throw new AppError('invalid_data', { message: `Unexpected file field '${part.fieldname}'.` });
            }
            const index = videoFileIndex(part.filename) ?? files.length;
            const file = path.join(tmpDir, `answer-${files.length}`);
            const hash = createHash('sha256');
            let size = 0;
            await pipeline(
              part.file,
              new Transform({
                transform(chunk: Buffer, _enc, done) {
                  hash.update(chunk);
                  size += chunk.length;
                  done(null, chunk);
                },
              }),
              createWriteStream(file),
            );
            if (part.file.truncated) {
              throw new AppError('payload_too_large', {
                message: `Answer ${index + 1} is larger than ${Math.round(ctx.config.uploadMaxBytes / 1048576)} MB.`,
              });
            }
            files.push({ index, path: file, size, sha256: hash.digest('hex') });
          }
          return await saveSubmission(ctx, { fields, files, ip: request.ip, userAgent: request.headers['user-agent'] });
        } finally {
          await rm(tmpDir, { recursive: true, force: true });
        }
      },
    );
  };
}
