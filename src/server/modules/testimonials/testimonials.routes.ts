import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API } from '../../../contract/api/paths.js';
import { ZIdParams } from '../../../contract/api/common.js';
import { ZListTransactionResponse } from '../../../contract/api/payment.schema.js';
import { ZRequestDetailQuery, ZRequestDetailResponse } from '../../../contract/api/requests.schema.js';
import { ZPayResponse, ZStatsQuery, ZStatsResponse } from '../../../contract/api/testimonials.schema.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-guard.js';
import { callerCompany, callerUser } from '../../http/company-scope.js';
import { getStats } from './stats.service.js';
import { getTestimonialDetail, listTransactions, payForTestimonial } from './testimonials.service.js';

export function testimonialsRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.addHook('onRequest', requireAuth(ctx));

    app.get(API.testimonials.stats.route, { schema: { querystring: ZStatsQuery, response: { 200: ZStatsResponse } } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return getStats(ctx, callerCompany(request, request.query.company_id));
    });

    app.get(
      API.testimonials.request.route,
      { schema: { params: ZIdParams, querystring: ZRequestDetailQuery, response: { 200: ZRequestDetailResponse } } },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return getTestimonialDetail(ctx, callerCompany(request, request.query.company_id), request.params.id);
      },
    );

    app.post(API.testimonials.pay.route, { schema: { params: ZIdParams, response: { 200: ZPayResponse } } }, async (request) => {
      const { credits } = await payForTestimonial(ctx, callerCompany(request), request.params.id, callerUser(request));
      return { success: true as const, paid: true as const, credits };
    });

    app.get(API.payment.listTransactions.route, { schema: { response: { 200: ZListTransactionResponse } } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return listTransactions(ctx, callerCompany(request));
    });
  };
}
