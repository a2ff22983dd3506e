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
        const { status } = await getHealth(ctx, version);
        // Ok or not ok, nothing more: drivers and version would tell an attacker what to try.
        return reply
          .status(status === 'ok' ? 200 : 503)
          .header('cache-control', 'no-store')
          .send({ status });
      },
    );
  };
}
