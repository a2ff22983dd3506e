import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZIdParams } from '../../../contract/api/common.js';
import { API } from '../../../contract/api/paths.js';
import {
  ZWebhookDeliveriesQuery,
  ZWebhookDelivery,
  ZWebhookDeliveryList,
  ZWebhookDeliveryParams,
  ZWebhookEndpoint,
  ZWebhookEndpointBody,
  ZWebhookEndpointList,
  ZWebhookEndpointPatch,
  ZWebhookEndpointWithSecret,
} from '../../../contract/api/webhooks.schema.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-guard.js';
import { callerCompany } from '../../http/company-scope.js';
import * as service from './webhooks.service.js';

/** The company's webhook endpoints, managed from the dashboard (its session; owners only once roles exist). */
export function webhooksRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.addHook('onRequest', requireAuth(ctx));
    app.addHook('onRequest', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get(API.webhooks.list.route, { schema: { response: { 200: ZWebhookEndpointList } } }, async (request) => ({
      endpoints: await service.listEndpoints(ctx, callerCompany(request)),
    }));

    app.post(
      API.webhooks.create.route,
      {
        schema: {
          body: ZWebhookEndpointBody,
          response: { 201: ZWebhookEndpointWithSecret },
        },
      },
      async (request, reply) => reply.status(201).send(await service.createEndpoint(ctx, callerCompany(request), request.body)),
    );

    app.put(
      API.webhooks.update.route,
      {
        schema: {
          params: ZIdParams,
          body: ZWebhookEndpointPatch,
          response: { 200: ZWebhookEndpoint },
        },
      },
      async (request) => service.updateEndpoint(ctx, callerCompany(request), request.params.id, request.body),
    );

    app.delete(API.webhooks.remove.route, { schema: { params: ZIdParams } }, async (request, reply) => {
      await service.deleteEndpoint(ctx, callerCompany(request), request.params.id);
      return reply.status(204).send();
    });

    app.post(
      API.webhooks.rotateSecret.route,
      {
        schema: {
          params: ZIdParams,
          response: { 200: ZWebhookEndpointWithSecret },
        },
      },
      async (request) => service.rotateSecret(ctx, callerCompany(request), request.params.id),
    );

    app.get(
      API.webhooks.deliveries.route,
      {
        schema: {
          params: ZIdParams,
          querystring: ZWebhookDeliveriesQuery,
          response: { 200: ZWebhookDeliveryList },
        },
      },
      async (request) => service.listDeliveries(ctx, callerCompany(request), request.params.id, request.query),
    );

    app.post(
      API.webhooks.redeliver.route,
      {
        schema: {
          params: ZWebhookDeliveryParams,
          response: { 202: ZWebhookDelivery },
        },
      },
      async (request, reply) => reply.status(202).send(await service.redeliver(ctx, callerCompany(request), request.params.id, request.params.deliveryId)),
    );

    app.post(API.webhooks.test.route, { schema: { params: ZIdParams, response: { 202: ZWebhookDelivery } } }, async (request, reply) =>
      reply.status(202).send(await service.sendTestEvent(ctx, callerCompany(request), request.params.id)),
    );
  };
}
