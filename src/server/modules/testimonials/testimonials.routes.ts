import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API } from '../../../contract/api/paths.js';
import { ZStatsQuery, ZStatsResponse } from '../../../contract/api/testimonials.schema.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-guard.js';
import { callerCompany } from '../../http/company-scope.js';
import { getStats } from './stats.service.js';

export function testimonialsRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.addHook('onRequest', requireAuth(ctx.secrets.jwt));

    app.get(API.testimonials.stats.route, { schema: { querystring: ZStatsQuery, response: { 200: ZStatsResponse } } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return getStats(ctx, callerCompany(request, request.query.company_id));
    });
  };
}
