import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZApiKeyBody, ZApiKeyList, ZCreatedApiKey } from '../../../contract/api/api-keys.schema.js';
import { ZIdParams } from '../../../contract/api/common.js';
import { API } from '../../../contract/api/paths.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-guard.js';
import { callerCompany, callerUser } from '../../http/company-scope.js';
import * as service from './api-keys.service.js';

/** The company's API keys, managed from the dashboard (signed in with its session, never with a key). */
export function apiKeysRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.addHook('onRequest', requireAuth(ctx));
    app.addHook('onRequest', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get(API.apiKeys.list.route, { schema: { response: { 200: ZApiKeyList } } }, async (request) => ({
      keys: await service.listApiKeys(ctx, callerCompany(request)),
    }));

    app.post(API.apiKeys.create.route, { schema: { body: ZApiKeyBody, response: { 201: ZCreatedApiKey } } }, async (request, reply) => {
      return reply.status(201).send(await service.createApiKey(ctx, callerCompany(request), request.body, callerUser(request)));
    });

    app.delete(API.apiKeys.revoke.route, { schema: { params: ZIdParams } }, async (request, reply) => {
      await service.revokeApiKey(ctx, callerCompany(request), request.params.id, callerUser(request));
      return reply.status(204).send();
    });
  };
}
