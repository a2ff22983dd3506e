import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZIdParams } from '../../../contract/api/common.js';
import { API } from '../../../contract/api/paths.js';
import {
  ZTranscribeBody,
  ZTranscribeMergedResponse,
  ZTranscribeResponse,
  ZTranscriptionJobParams,
  ZTranscriptionJobStatusResponse,
} from '../../../contract/api/transcription.schema.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-guard.js';
import { callerCompany } from '../../http/company-scope.js';
import { getTranscriptionJob, startMergedTranscription, transcribeResponse } from './transcription.service.js';

export function transcriptionRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.addHook('onRequest', requireAuth(ctx.secrets.jwt));

    app.post(API.transcription.transcribe.route, { schema: { params: ZIdParams, body: ZTranscribeBody, response: { 200: ZTranscribeResponse } } }, async (request) => ({
      transcription: await transcribeResponse(ctx, { companyId: callerCompany(request), responseId: request.params.id, force: request.body?.force ?? false }),
    }));

    app.post(API.transcription.transcribeMerged.route, { schema: { params: ZIdParams, response: { 202: ZTranscribeMergedResponse } } }, async (request, reply) =>
      reply.status(202).send(await startMergedTranscription(ctx, { companyId: callerCompany(request), requestId: request.params.id })),
    );

    app.get(API.transcription.jobStatus.route, { schema: { params: ZTranscriptionJobParams, response: { 200: ZTranscriptionJobStatusResponse } } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return getTranscriptionJob(ctx, { companyId: callerCompany(request), jobId: request.params.jobId });
    });
  };
}
