import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZIdParams } from '../../../contract/api/common.js';
import { API } from '../../../contract/api/paths.js';
import {
  ZTranscribeBody,
  ZTranscribeMergedResponse,
  ZSaveTranscriptionBody,
  ZSaveTranscriptionResponse,
  ZTranscribeResponse,
  ZTranscriptionJobParams,
  ZTranscriptionJobStatusResponse,
} from '../../../contract/api/transcription.schema.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-guard.js';
import { callerCompany } from '../../http/company-scope.js';
import { AppError } from '../../lib/errors.js';
import { getTranscriptionJob, saveTranscription, startMergedTranscription, transcribeResponse } from './transcription.service.js';

/** A company over its transcription limits (429) is told when to ask again: the window is a minute. */
async function withRetryAfter<T>(reply: FastifyReply, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError && error.code === 'rate_limited') reply.header('retry-after', 60);
    throw error;
  }
}

export function transcriptionRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.addHook('onRequest', requireAuth(ctx));

    // 200 with the stored cues, or 202 with the worker's job to follow (the engine never runs here).
    app.post(
      API.transcription.transcribe.route,
      { schema: { params: ZIdParams, body: ZTranscribeBody, response: { 200: ZTranscribeResponse, 202: ZTranscribeResponse } } },
      async (request, reply) => {
        const input = { companyId: callerCompany(request), responseId: request.params.id, force: request.body?.force ?? false };
        const result = await withRetryAfter(reply, () => transcribeResponse(ctx, input));
        return reply.status(result.jobId ? 202 : 200).send(result);
      },
    );

    app.put(
      API.transcription.save.route,
      { schema: { params: ZIdParams, body: ZSaveTranscriptionBody, response: { 200: ZSaveTranscriptionResponse } } },
      async (request) => saveTranscription(ctx, { companyId: callerCompany(request), responseId: request.params.id, transcription: request.body.transcription }),
    );

    app.post(API.transcription.transcribeMerged.route, { schema: { params: ZIdParams, response: { 202: ZTranscribeMergedResponse } } }, async (request, reply) =>
      reply.status(202).send(await withRetryAfter(reply, () => startMergedTranscription(ctx, { companyId: callerCompany(request), requestId: request.params.id }))),
    );

    app.get(API.transcription.jobStatus.route, { schema: { params: ZTranscriptionJobParams, response: { 200: ZTranscriptionJobStatusResponse } } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return getTranscriptionJob(ctx, { companyId: callerCompany(request), jobId: request.params.jobId });
    });
  };
}
