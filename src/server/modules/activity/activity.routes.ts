import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZActivityPage, ZActivityQuery } from '../../../contract/api/activity.schema.js';
import { API } from '../../../contract/api/paths.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-guard.js';
import { callerCompany } from '../../http/company-scope.js';
import { AppError } from '../../lib/errors.js';
import { listActivity } from './activity.service.js';

/** The company's activity log (issue 32, decision 220): every member reads it (route-roles.ts). */
export function activityRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.addHook('onRequest', requireAuth(ctx));

    app.get(API.activity.list.route, { schema: { response: { 200: ZActivityPage } } }, async (request, reply) => {
      // Parsed here rather than by the route's schema, so that a bad filter answers a reason the web translates.
      const parsed = ZActivityQuery.safeParse(request.query);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = String(issue?.path[0] ?? 'query');
        throw new AppError('invalid_data', {
          reason: field === 'cursor' ? 'activity_cursor_invalid' : 'activity_filter_invalid',
          params: { field },
          field,
        });
      }
      reply.header('cache-control', 'no-store');
      return listActivity(ctx, {
        companyId: callerCompany(request, parsed.data.company_id),
        query: parsed.data,
      });
    });
  };
}
