import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { V1_OPERATIONS, type V1Operation } from '../../../contract/api/v1.operations.js';
import type { AppContext } from '../../context.js';
import { limits } from '../../http/rate-limit.js';
import { notFound } from '../../lib/errors.js';
import { forgetPublications } from '../consent/customer.caches.js';
import { countPublications, createPublication, listPublications, unpublish } from '../publications/publications.service.js';
import { sendRequest } from '../requests/requests.service.js';
import { companyTestimonial, companyTestimonials } from '../testimonials/testimonials.service.js';
import { keyCompany, requireApiKey } from './api-key-guard.js';
import { IDEMPOTENCY_HEADER, idempotencyKeyOf, runIdempotent } from './idempotency.service.js';
import { toV1Publication, toV1Testimonials } from './v1.service.js';

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;

interface Call<P, Q, B> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  /** The company of the call's key: every row is read and written through it. */
  companyId: string;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** The Fastify schema of an operation: exactly what the OpenAPI document says of it (openapi.ts). */
export function routeSchema(op: V1Operation) {
  return {
    ...(op.params ? { params: op.params } : {}),
    ...(op.query ? { querystring: op.query } : {}),
    ...(op.body ? { body: op.body } : {}),
    ...(op.response ? { response: { [op.status]: op.response } } : {}),
  };
}

/**
 * The versioned API (issue 32, decisions 209 and 213): every call carries an API key, is limited per key
 * in the shared (database) counters so the limit holds across API processes, and goes through the
 * dashboard's services, scoped to the key's company. Each route is registered from its entry of
 * V1_OPERATIONS, the list the OpenAPI document is made of.
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
    // The dashboard's limit of sent requests (requests.routes.ts): the same counter name, so both ways share it.
    const sendLimit = limits(app, [{ name: 'send-request', max: 100, timeWindow: '1 hour', key: (r) => `company:${r.apiKey?.companyId ?? r.ip}` }]);

    /** Registers an operation from its entry: method, path and schemas come from the list, never from here. */
    function register<P extends z.ZodType | undefined, Q extends z.ZodType | undefined, B extends z.ZodType | undefined, R extends z.ZodType | undefined>(
      op: V1Operation<P, Q, B, R>,
      handler: (call: Call<P, Q, B>) => Promise<Out<R>>,
      preHandler: preHandlerAsyncHookHandler[] = [],
    ) {
      app.route({
        method: op.endpoint.method,
        url: op.endpoint.route,
        schema: routeSchema(op),
        preHandler,
        handler: async (request, reply) => {
          // The schema above validated them (fastify-type-provider-zod): their types are the schemas' outputs.
          const result = await handler({
            params: request.params as Out<P>,
            query: request.query as Out<Q>,
            body: request.body as Out<B>,
            companyId: keyCompany(request),
            request,
            reply,
          });
          return op.status === 204 ? reply.status(204).send() : reply.status(op.status).send(result);
        },
      });
    }

    register(V1_OPERATIONS.listTestimonials, async ({ query, companyId }) => {
      const found = await companyTestimonials(ctx, companyId, { page: query.page, perPage: query.per_page });
      return { data: await toV1Testimonials(ctx, companyId, found.testimonials), page: query.page, per_page: query.per_page, total: found.total };
    });

    register(V1_OPERATIONS.getTestimonial, async ({ params, companyId }) => {
      const testimonial = await companyTestimonial(ctx, companyId, params.id);
      if (!testimonial) throw notFound('This testimonial does not exist.');
      const [shaped] = await toV1Testimonials(ctx, companyId, [testimonial]);
      return shaped!;
    });

    register(
      V1_OPERATIONS.sendRequest,
      async ({ body, companyId, request, reply }) => {
        const send = () =>
          sendRequest(ctx, {
            companyId,
            delivery: body.delivery ?? 'email',
            customerEmail: body.customer_email,
            customerName: body.customer_name,
            customerPosition: body.customer_position,
            questionIds: body.question_ids,
            language: body.language,
            gift: body.gift,
            expiresInDays: body.expires_in_days,
          });
        // A retry with the same Idempotency-Key gets the first answer (decision 222).
        const key = idempotencyKeyOf(request.headers[IDEMPOTENCY_HEADER]);
        if (!key) return send();
        const { response, replayed } = await runIdempotent(ctx, { apiKeyId: request.apiKey!.keyId, operation: 'sendRequest', key, body, status: 201, run: send });
        if (replayed) reply.header('idempotent-replayed', 'true');
        return response;
      },
      [sendLimit],
    );

    register(V1_OPERATIONS.listPublications, async ({ query, companyId }) => {
      // The page is read in the database (decision 222), newest first, ties broken by id.
      const filter = { companyId, testimonialId: query.testimonial_id };
      const [{ publications }, total] = await Promise.all([
        listPublications(ctx, { ...filter, page: { limit: query.per_page, offset: (query.page - 1) * query.per_page } }),
        countPublications(ctx, filter),
      ]);
      return { data: publications.map(toV1Publication), page: query.page, per_page: query.per_page, total };
    });

    register(V1_OPERATIONS.publish, async ({ body, companyId }) => {
      const made = await createPublication(ctx, { companyId, testimonialId: body.testimonial_id, jobId: body.job_id, responseId: body.response_id });
      return { id: made.id, slug: made.slug, url: made.url, embed_url: made.embedUrl };
    });

    register(V1_OPERATIONS.unpublish, async ({ params, companyId }) => {
      await unpublish(ctx, { companyId, id: params.id });
      // This process's page caches forget it at once (the others within their TTL), as the dashboard's call does.
      await forgetPublications(ctx, [params.id]);
      return undefined;
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
