import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZIdParams } from '../../../contract/api/common.js';
import { ZConsentRecord } from '../../../contract/api/consent.schema.js';
import { API } from '../../../contract/api/paths.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-guard.js';
import { callerCompany } from '../../http/company-scope.js';
import { getConsentRecord } from './record.service.js';

/** GET /api/testimonials/{id}/consent-record: the consent given and everything after it (issue 29). */
export function consentRecordRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.addHook('onRequest', requireAuth(ctx));
    app.get(API.consent.record.route, { schema: { params: ZIdParams, response: { 200: ZConsentRecord } } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return getConsentRecord(ctx, { companyId: callerCompany(request), testimonialId: request.params.id });
    });
  };
}
