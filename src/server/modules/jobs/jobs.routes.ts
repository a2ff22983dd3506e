import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZJob, ZJobListQuery, ZJobListResponse, ZJobParams } from '../../../contract/api/jobs.schema.js';
import { API } from '../../../contract/api/paths.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-guard.js';
import { callerCompany, callerUser } from '../../http/company-scope.js';
import { followJob, listJobs, retryJob, toJob, toJobs } from './jobs.service.js';

/** GET /api/jobs/{id} and GET /api/jobs?testimonialId=&responseId=: the company's media jobs, never cached. */
export function jobsRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.addHook('onRequest', requireAuth(ctx));

    app.get(API.jobs.get.route, { schema: { params: ZJobParams, response: { 200: ZJob } } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const [job] = await toJobs(ctx, [await followJob(ctx, callerCompany(request), request.params.id)]);
      return job!;
    });

    app.get(API.jobs.list.route, { schema: { querystring: ZJobListQuery, response: { 200: ZJobListResponse } } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const rows = await listJobs(ctx, callerCompany(request), { requestId: request.query.testimonialId, responseId: request.query.responseId });
      return { jobs: await toJobs(ctx, rows) };
    });

    app.post(API.jobs.retry.route, { schema: { params: ZJobParams, response: { 202: ZJob } } }, async (request, reply) =>
      reply.status(202).send(toJob(ctx, await retryJob(ctx, callerCompany(request), request.params.id, callerUser(request)))),
    );
  };
}
