import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZIdParams } from '../../../contract/api/common.js';
import { API } from '../../../contract/api/paths.js';
import { ZV1ListQuery, ZV1Testimonial, ZV1TestimonialList } from '../../../contract/api/v1.schema.js';
import type { AppContext } from '../../context.js';
import { limits } from '../../http/rate-limit.js';
import { notFound } from '../../lib/errors.js';
import { companyTestimonial, companyTestimonials } from '../testimonials/testimonials.service.js';
import { keyCompany, requireApiKey } from './api-key-guard.js';
import { toV1Testimonial } from './v1.service.js';

/**
 * The versioned API (issue 32, decision 209): every call carries an API key, is limited per key in the
 * shared (database) counters so the limit holds across API processes, and goes through the dashboard's
 * services, scoped to the key's company.
 */
export function v1Routes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.decorateRequest('apiKey', null);
    app.addHook('onRequest', requireApiKey(ctx));
    app.addHook('onRequest', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });
    const perKey = limits(app, [
      { name: 'api-v1-key', max: ctx.config.apiKeyRatePerMinute, timeWindow: '1 minute', key: (request) => `key:${request.apiKey?.keyId ?? ''}` },
    ]);
    app.addHook('preHandler', perKey);

    app.get(API.v1.listTestimonials.route, { schema: { querystring: ZV1ListQuery, response: { 200: ZV1TestimonialList } } }, async (request) => {
      const { page, per_page } = request.query;
      const found = await companyTestimonials(ctx, keyCompany(request), { page, perPage: per_page });
      return { data: found.testimonials.map(toV1Testimonial), page, per_page, total: found.total };
    });

    app.get(API.v1.getTestimonial.route, { schema: { params: ZIdParams, response: { 200: ZV1Testimonial } } }, async (request) => {
      const testimonial = await companyTestimonial(ctx, keyCompany(request), request.params.id);
      if (!testimonial) throw notFound('This testimonial does not exist.');
      return toV1Testimonial(testimonial);
    });

    // Any other /api/v1 call passes the same key check, scope check and limit before its 404: a caller
    // without a valid key learns nothing of which calls exist, and a read key is told it cannot write.
    app.route({
      method: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'],
      url: '/api/v1/*',
      handler: async (request) => {
        throw notFound(`No such API call: ${request.method} ${request.url.split('?')[0]}.`);
      },
    });
  };
}
