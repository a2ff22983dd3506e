import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { getHealth } from './health.service.js';

export function healthRoutes(ctx: AppContext, version: string) {
  return async (app: FastifyInstance) => {
    app.get('/api/health', { logLevel: 'warn' }, async (_request, reply) => {
      const report = await getHealth(ctx, version);
      return reply
        .status(report.status === 'ok' ? 200 : 503)
        .header('cache-control', 'no-store')
        .send(report);
    });
  };
}
