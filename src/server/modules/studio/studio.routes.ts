import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZIdParams } from '../../../contract/api/common.js';
import { API } from '../../../contract/api/paths.js';
import {
  ZCropFocusResponse,
  ZExportV2Body,
  ZExportV2Response,
  ZRenderJobResponse,
  ZStudioLanguageBody,
  type TExportV2Response,
  type TRenderJobResponse,
} from '../../../contract/api/studio.schema.js';
import { ZGenerateMergedSubtitlesBody, ZGenerateSubtitlesBody } from '../../../contract/api/transcription.schema.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-guard.js';
import { callerCompany, callerUser } from '../../http/company-scope.js';
import { cropFocus } from './crop-focus.js';
import { startRequestRender, startResponseRender } from './studio.service.js';
import { ZTrimBody, ZTrimResponse } from '../../../contract/api/trim.schema.js';
import { saveTrim } from './trim.service.js';

/** export-v2 keeps the spec's `{ status, exportedUrl }`: it answers at once, queued, with the job to follow. */
const queuedExport = (started: TRenderJobResponse): TExportV2Response => ({ status: 'queued', exportedUrl: null, ...started });

/** Every start call answers at once with its job (`{ jobId, state }`); the client follows GET /api/jobs/{jobId}. */
export function studioRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.addHook('onRequest', requireAuth(ctx));
    const schema = { params: ZIdParams, body: ZStudioLanguageBody, response: { 202: ZRenderJobResponse } };

    // 'regenerate' renders the intro again: the same job kind.
    for (const route of [API.studio.generateIntro.route, API.studio.regenerate.route]) {
      app.post(route, { schema }, async (request, reply) =>
        reply
          .status(202)
          .send(
            await startResponseRender(ctx, {
              companyId: callerCompany(request),
              requestedBy: callerUser(request),
              responseId: request.params.id,
              kind: 'intro',
              language: request.body.language,
            }),
          ),
      );
    }
    for (const route of [API.studio.merge.route, API.studio.regenerateMerged.route]) {
      app.post(route, { schema }, async (request, reply) =>
        reply
          .status(202)
          .send(
            await startRequestRender(ctx, {
              companyId: callerCompany(request),
              requestedBy: callerUser(request),
              requestId: request.params.id,
              kind: 'merge',
              language: request.body.language,
            }),
          ),
      );
    }

    app.post(
      API.transcription.generateSubtitles.route,
      { schema: { params: ZIdParams, body: ZGenerateSubtitlesBody, response: { 202: ZRenderJobResponse } } },
      async (request, reply) =>
        reply
          .status(202)
          .send(
            await startResponseRender(ctx, {
              companyId: callerCompany(request),
              requestedBy: callerUser(request),
              responseId: request.params.id,
              kind: 'subtitles',
              language: request.body.language,
              cues: request.body.transcription,
            }),
          ),
    );

    app.post(
      API.transcription.generateMergedSubtitles.route,
      { schema: { params: ZIdParams, body: ZGenerateMergedSubtitlesBody, response: { 202: ZRenderJobResponse } } },
      async (request, reply) =>
        reply.status(202).send(
          await startRequestRender(ctx, {
            companyId: callerCompany(request),
            requestedBy: callerUser(request),
            requestId: request.params.id,
            kind: 'merged_subtitles',
            language: request.body.language,
            cues: request.body.transcriptions.map((t) => ({ responseId: t.responseId, cues: t.transcription })),
          }),
        ),
    );

    app.post(API.studio.exportResponse.route, { schema: { params: ZIdParams, body: ZExportV2Body, response: { 200: ZExportV2Response } } }, async (request) => {
      const { platform, videoType, cropArea, language, platforms } = request.body;
      return queuedExport(
        await startResponseRender(ctx, {
          companyId: callerCompany(request),
          requestedBy: callerUser(request),
          responseId: request.params.id,
          kind: 'export',
          language,
          export: { platform, videoType, cropArea, platforms },
        }),
      );
    });

    app.post(
      API.studio.exportTestimonial.route,
      { schema: { params: ZIdParams, body: ZExportV2Body, response: { 200: ZExportV2Response } } },
      async (request) => {
        const { platform, videoType, cropArea, language, platforms } = request.body;
        return queuedExport(
          await startRequestRender(ctx, {
            companyId: callerCompany(request),
            requestedBy: callerUser(request),
            requestId: request.params.id,
            kind: 'export',
            language,
            export: { platform, videoType, cropArea, platforms },
          }),
        );
      },
    );

    // The part of an answer every output uses (issue 31, decision 201).
    app.put(API.studio.trim.route, { schema: { params: ZIdParams, body: ZTrimBody, response: { 200: ZTrimResponse } } }, async (request) =>
      saveTrim(ctx, { companyId: callerCompany(request), responseId: request.params.id, trim: request.body }),
    );
    app.get(API.studio.cropFocus.route, { schema: { params: ZIdParams, response: { 200: ZCropFocusResponse } } }, async (request) =>
      cropFocus(ctx, callerCompany(request), request.params.id),
    );
  };
}
