import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZClientErrorReport, ZClientErrorReportResponse } from '../../../contract/api/client-errors.schema.js';
import { API } from '../../../contract/api/paths.js';
import { byIp, localLimits } from '../../http/rate-limit.js';

/**
 * POST /api/client-errors: the web app's error boundaries report crashes here so that they reach the
 * server logs (the user only sees 'Unexpected Application Error!'). Small, validated, rate-limited.
 */
export function clientErrorRoutes() {
  return async (app: FastifyInstance) => {
    app.withTypeProvider<ZodTypeProvider>().post(
      API.clientErrors.report.route,
      {
        bodyLimit: 16_384,
        preHandler: [localLimits(app, [{ name: 'client-errors', max: 20, timeWindow: '1 minute', key: byIp }])],
        schema: { body: ZClientErrorReport, response: { 202: ZClientErrorReportResponse } },
      },
      async (request, reply) => {
        request.log.warn({ clientError: request.body }, 'client error reported');
        return reply.status(202).send({ received: true as const });
      },
    );
  };
}
