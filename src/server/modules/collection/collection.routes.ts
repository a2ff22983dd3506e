import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZCodeResponse,
  ZCollectionLink,
  ZCollectionLinkBody,
  ZCollectionLinkList,
  ZCollectStartBody,
  ZCollectStartResponse,
  ZConfirmCodeBody,
  ZPublicCollectionLink,
  ZQrQuery,
  ZResendCodeBody,
  ZSlugParams,
} from '../../../contract/api/collection.schema.js';
import { ZIdParams } from '../../../contract/api/common.js';
import { API } from '../../../contract/api/paths.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-guard.js';
import { callerCompany } from '../../http/company-scope.js';
import { byBodyEmail, byIp, limits } from '../../http/rate-limit.js';
import * as service from './collection.service.js';
import { qrFile } from './qr-files.js';

const bySlug = (request: FastifyRequest) => `link:${(request.params as { slug?: string }).slug ?? ''}`;
const byBodyToken = (request: FastifyRequest) => `token:${String((request.body as { token?: unknown } | undefined)?.token ?? request.ip)}`;

/** The company's links (signed in) and the customer's public calls on a link (no credentials, limited). */
export function collectionRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    await fastify.register(async (scope) => {
      const app = scope.withTypeProvider<ZodTypeProvider>();
      app.addHook('onRequest', requireAuth(ctx));

      app.get(API.collection.list.route, { schema: { response: { 200: ZCollectionLinkList } } }, async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return service.listLinks(ctx, callerCompany(request));
      });

      app.post(API.collection.create.route, { schema: { body: ZCollectionLinkBody, response: { 201: ZCollectionLink } } }, async (request, reply) => {
        return reply.status(201).send(await service.createLink(ctx, callerCompany(request), request.body));
      });

      app.put(API.collection.update.route, { schema: { params: ZIdParams, body: ZCollectionLinkBody, response: { 200: ZCollectionLink } } }, async (request) => {
        return service.updateLink(ctx, callerCompany(request), request.params.id, request.body);
      });

      app.delete(API.collection.remove.route, { schema: { params: ZIdParams } }, async (request, reply) => {
        await service.deleteLink(ctx, callerCompany(request), request.params.id);
        return reply.status(204).send();
      });

      app.get(API.collection.qr.route, { schema: { params: ZIdParams, querystring: ZQrQuery } }, async (request, reply) => {
        const file = await qrFile(ctx, callerCompany(request), request.params.id, request.query.format);
        return reply
          .header('content-type', file.contentType)
          .header('content-disposition', `attachment; filename="${file.filename}"`)
          .header('cache-control', 'private, no-store')
          .send(file.body);
      });
    });

    await fastify.register(async (scope) => {
      const app = scope.withTypeProvider<ZodTypeProvider>();
      const noStore = async (_request: FastifyRequest, reply: { header: (k: string, v: string) => unknown }) => {
        reply.header('cache-control', 'no-store');
      };
      app.addHook('onRequest', noStore);

      app.get(
        API.collection.publicLink.route,
        {
          preHandler: [limits(app, [{ name: 'collect-open', max: 60, timeWindow: '10 minutes', key: byIp }])],
          schema: { params: ZSlugParams, response: { 200: ZPublicCollectionLink } },
        },
        async (request) => service.publicLink(ctx, { slug: request.params.slug, ip: request.ip, userAgent: request.headers['user-agent'] ?? '' }),
      );

      app.post(
        API.collection.start.route,
        {
          // Per client address, per e-mail address and per link: one visitor cannot flood a link, nor
          // many visitors one inbox, nor a link posted somewhere hostile the company.
          preHandler: [
            limits(app, [
              { name: 'collect-start-ip', max: 10, timeWindow: '1 hour', key: byIp },
              { name: 'collect-start-email', max: 5, timeWindow: '1 hour', key: byBodyEmail },
              { name: 'collect-start-link', max: 120, timeWindow: '1 hour', key: bySlug },
            ]),
          ],
          schema: { params: ZSlugParams, body: ZCollectStartBody, response: { 201: ZCollectStartResponse } },
        },
        async (request, reply) => reply.status(201).send(await service.startFromLink(ctx, { slug: request.params.slug, body: request.body })),
      );

      app.post(
        API.collection.confirmCode.route,
        {
          preHandler: [limits(app, [{ name: 'collect-code-ip', max: 30, timeWindow: '10 minutes', key: byIp }])],
          schema: { body: ZConfirmCodeBody, response: { 200: ZCodeResponse } },
        },
        async (request) => {
          await service.confirmCode(ctx, request.body);
          return { success: true as const };
        },
      );

      app.post(
        API.collection.resendCode.route,
        {
          preHandler: [
            limits(app, [
              { name: 'collect-resend-ip', max: 10, timeWindow: '1 hour', key: byIp },
              { name: 'collect-resend-token', max: 3, timeWindow: '1 hour', key: byBodyToken },
            ]),
          ],
          schema: { body: ZResendCodeBody, response: { 200: ZCodeResponse } },
        },
        async (request) => {
          await service.resendCode(ctx, request.body);
          return { success: true as const };
        },
      );
    });
  };
}
