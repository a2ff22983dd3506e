import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZHealthResponse } from '../../../contract/api/health.schema.js';
import { API } from '../../../contract/api/paths.js';
import type { AppContext } from '../../context.js';
import { getHealth } from './health.service.js';

export function healthRoutes(ctx: AppContext, version: string) {
  return async (app: FastifyInstance) => {
    app.withTypeProvider<ZodTypeProvider>().get(
      API.health.check.route,
      { logLevel: 'warn', schema: { response: { 200: ZHealthResponse, 503: ZHealthResponse } } },
      async (_request, reply) => {
        const report = await getHealth(ctx, version);
        return reply
          .status(report.status === 'ok' ? 200 : 503)
          .header('cache-control', 'no-store')
          .send(report);
      },
    );
  };
}
