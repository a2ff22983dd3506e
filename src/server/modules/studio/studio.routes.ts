import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZIdParams } from '../../../contract/api/common.js';
import { API } from '../../../contract/api/paths.js';
import { ZExportV2Body, ZExportV2Response, ZRenderJobResponse, ZStudioLanguageBody } from '../../../contract/api/studio.schema.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-guard.js';
import { callerCompany } from '../../http/company-scope.js';
import { awaitExport, saveCues, startRequestRender, startResponseRender } from './studio.service.js';
import { ZGenerateMergedSubtitlesBody, ZGenerateSubtitlesBody } from '../../../contract/api/transcription.schema.js';

/** Start calls answer at once (export-v2 waits up to a minute for the short render to finish). */
const EXPORT_WAIT_MS = 60_000;

export function studioRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.addHook('onRequest', requireAuth(ctx));
    const schema = { params: ZIdParams, body: ZStudioLanguageBody, response: { 202: ZRenderJobResponse } };

    for (const [route, kind] of [
      [API.studio.generateIntro.route, 'intro'],
      [API.studio.regenerate.route, 'regenerate'],
    ] as const) {
      app.post(route, { schema }, async (request, reply) =>
        reply.status(202).send(await startResponseRender(ctx, { companyId: callerCompany(request), responseId: request.params.id, kind, language: request.body.language })),
      );
    }
    for (const [route, kind] of [
      [API.studio.merge.route, 'merge'],
      [API.studio.regenerateMerged.route, 'regenerate_merged'],
    ] as const) {
      app.post(route, { schema }, async (request, reply) =>
        reply.status(202).send(await startRequestRender(ctx, { companyId: callerCompany(request), requestId: request.params.id, kind, language: request.body.language })),
      );
    }

    app.post(
      API.transcription.generateSubtitles.route,
      { schema: { params: ZIdParams, body: ZGenerateSubtitlesBody, response: { 202: ZRenderJobResponse } } },
      async (request, reply) => {
        const companyId = callerCompany(request);
        await saveCues(ctx, { companyId, items: [{ responseId: request.params.id, cues: request.body.transcription }] });
        return reply.status(202).send(await startResponseRender(ctx, { companyId, responseId: request.params.id, kind: 'subtitles', language: request.body.language }));
      },
    );

    app.post(
      API.transcription.generateMergedSubtitles.route,
      { schema: { params: ZIdParams, body: ZGenerateMergedSubtitlesBody, response: { 202: ZRenderJobResponse } } },
      async (request, reply) => {
        const companyId = callerCompany(request);
        await saveCues(ctx, { companyId, items: request.body.transcriptions.map((t) => ({ responseId: t.responseId, cues: t.transcription })) });
        return reply.status(202).send(await startRequestRender(ctx, { companyId, requestId: request.params.id, kind: 'merge_subtitles', language: request.body.language }));
      },
    );

    app.post(
      API.studio.exportResponse.route,
      { schema: { params: ZIdParams, body: ZExportV2Body, response: { 200: ZExportV2Response } } },
      async (request) => {
        const { platform, videoType, cropArea, language } = request.body;
        const started = await startResponseRender(ctx, {
          companyId: callerCompany(request),
          responseId: request.params.id,
          kind: 'export',
          language,
          export: { platform, videoType, cropArea },
        });
        const [row] = await ctx.db.query.testimonialResponses.findMany({ where: (r, { eq }) => eq(r.id, request.params.id), columns: { requestId: true } });
        const result = await awaitExport(ctx, { requestId: row!.requestId, responseId: request.params.id, jobKey: started.jobId, timeoutMs: EXPORT_WAIT_MS });
        return { ...result, jobId: started.jobId };
      },
    );

    app.post(
      API.studio.exportTestimonial.route,
      { schema: { params: ZIdParams, body: ZExportV2Body, response: { 200: ZExportV2Response } } },
      async (request) => {
        const { platform, videoType, cropArea, language } = request.body;
        const started = await startRequestRender(ctx, {
          companyId: callerCompany(request),
          requestId: request.params.id,
          kind: 'export',
          language,
          export: { platform, videoType, cropArea },
        });
        const result = await awaitExport(ctx, { requestId: request.params.id, jobKey: started.jobId, timeoutMs: EXPORT_WAIT_MS });
        return { ...result, jobId: started.jobId };
      },
    );
  };
}
