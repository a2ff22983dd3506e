import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZIdParams } from '../../../contract/api/common.js';
import { ZFunnel, ZFunnelQuery, ZProgressBody, ZRequestTimeline } from '../../../contract/api/funnel.schema.js';
import { API } from '../../../contract/api/paths.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-guard.js';
import { callerCompany } from '../../http/company-scope.js';
import { byIp, limits } from '../../http/rate-limit.js';
import { AppError } from '../../lib/errors.js';
import { getFunnel, getRequestTimeline, recordProgress } from './funnel.service.js';

/** Progress beacons per address in 10 minutes: an honest page sends two per request; a family on one router, a few dozen. */
export const PROGRESS_BEACONS_PER_ADDRESS = 30;

/** The request funnel (issue 30): the company's funnel and timelines, and the customer page's progress beacon. */
export function funnelRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    await fastify.register(companyFunnelRoutes(ctx));
    await fastify.register(progressBeaconRoute(ctx));
  };
}

function companyFunnelRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.addHook('onRequest', requireAuth(ctx));

    app.get(API.funnel.get.route, { schema: { querystring: ZFunnelQuery, response: { 200: ZFunnel } } }, async (request) =>
      getFunnel(ctx, {
        companyId: callerCompany(request),
        from: request.query.from,
        to: request.query.to,
        linkId: request.query.link_id || undefined,
        language: request.query.language || undefined,
      }),
    );

    app.get(API.funnel.timeline.route, { schema: { params: ZIdParams, response: { 200: ZRequestTimeline } } }, async (request) =>
      getRequestTimeline(ctx, { companyId: callerCompany(request), requestId: request.params.id }),
    );
  };
}

function progressBeaconRoute(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const appOrigin = new URL(ctx.config.appUrl).origin;

    /**
     * The customer's page reports camera granted / first answer: 204 whatever the token (an unknown or
     * finished request records nothing, and the answer does not say so). No cookie is read or set. Only
     * a foreign Origin is refused: the recording page is ours (decision 197).
     */
    app.post(
      API.funnel.progress.route,
      {
        bodyLimit: 1024,
        logLevel: 'warn',
        preHandler: [limits(app, [{ name: 'progress-beacon', max: PROGRESS_BEACONS_PER_ADDRESS, timeWindow: '10 minutes', key: byIp }])],
        schema: { body: ZProgressBody },
      },
      async (request, reply) => {
        const origin = request.headers.origin;
        if (origin !== undefined && origin !== appOrigin) {
          throw new AppError('no_permission', { reason: 'progress_foreign_origin' });
        }
        await recordProgress(ctx, { token: request.body.token, step: request.body.step });
        return reply.header('cache-control', 'no-store').status(204).send();
      },
    );
  };
}
