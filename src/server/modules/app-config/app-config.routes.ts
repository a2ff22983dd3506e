import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZAppConfigResponse } from '../../../contract/api/app-config.schema.js';
import { API } from '../../../contract/api/paths.js';
import type { AppContext } from '../../context.js';

export function appConfigRoutes(ctx: AppContext) {
  const { config } = ctx;
  return async (fastify: FastifyInstance) => {
    fastify.withTypeProvider<ZodTypeProvider>().get(
      API.public.appConfig.route,
      { schema: { response: { 200: ZAppConfigResponse } } },
      async (_request, reply) => {
        reply.header('cache-control', 'public, max-age=60');
        return {
          brandName: config.brandName,
          supportEmail: config.supportEmail,
          googleEnabled: Boolean(config.google),
          payments: config.payments,
        };
      },
    );
  };
}
