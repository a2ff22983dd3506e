import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZIdParams } from '../../../contract/api/common.js';
import { ZDeleteMediaResponse } from '../../../contract/api/consent.schema.js';
import { API } from '../../../contract/api/paths.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-guard.js';
import { callerCompany } from '../../http/company-scope.js';
import { deleteMediaNow } from './retention.service.js';

/** The company deletes a withdrawn testimonial's media before the retention period (issue 29). */
export function retentionRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.post(
      API.consent.deleteMedia.route,
      { onRequest: [requireAuth(ctx)], schema: { params: ZIdParams, response: { 200: ZDeleteMediaResponse } } },
      async (request) => deleteMediaNow(ctx, { companyId: callerCompany(request), requestId: request.params.id }),
    );
  };
}
