import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZIdParams } from '../../../contract/api/common.js';
import { API } from '../../../contract/api/paths.js';
import {
  ZRemindBody,
  ZRemindResponse,
  ZRequestSafeQuery,
  ZRequestSafeResponse,
  ZRequestsListQuery,
  ZRequestsListResponse,
  ZSendRequestBody,
  ZSendRequestResponse,
} from '../../../contract/api/requests.schema.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-guard.js';
import { callerCompany, callerUser } from '../../http/company-scope.js';
import { sendJsonText } from '../../http/json-text.js';
import { limits } from '../../http/rate-limit.js';
import * as service from './requests.service.js';

export function requestsRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.addHook('onRequest', requireAuth(ctx));
    // Sending e-mails to arbitrary addresses: limited per company so an account cannot be used to spam.
    const sendLimit = limits(app, [{ name: 'send-request', max: 100, timeWindow: '1 hour', key: (r) => `company:${r.auth?.companyId ?? r.ip}` }]);

    app.get(API.testimonials.requests.route, { schema: { querystring: ZRequestsListQuery, response: { 200: ZRequestsListResponse } } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return sendJsonText(reply, await service.listRequests(ctx, callerCompany(request, request.query.company_id)));
    });

    app.post(
      API.testimonials.sendRequest.route,
      { preHandler: [sendLimit], schema: { body: ZSendRequestBody, response: { 201: ZSendRequestResponse } } },
      async (request, reply) => {
        const b = request.body;
        const testimonial = await service.sendRequest(ctx, {
          companyId: callerCompany(request),
          actorUserId: callerUser(request),
          delivery: b.delivery ?? 'email',
          customerEmail: b.customer_email,
          customerName: b.customer_name,
          customerPosition: b.customer_position,
          questionIds: b.question_ids,
          language: b.language,
          gift: b.gift,
          expiresInDays: b.expires_in_days,
        });
        return reply.status(201).send({ testimonial });
      },
    );

    app.post(
      API.testimonials.remind.route,
      { schema: { params: ZIdParams, body: ZRemindBody, response: { 200: ZRemindResponse } } },
      async (request) => {
        const companyId = callerCompany(request, request.body.company_id);
        const { lastReminderSent } = await service.remindRequest(ctx, { companyId, id: request.params.id });
        return { success: true as const, last_reminder_sent: lastReminderSent.toISOString() };
      },
    );

    app.get(
      API.testimonials.requestSafe.route,
      { schema: { params: ZIdParams, querystring: ZRequestSafeQuery, response: { 200: ZRequestSafeResponse } } },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return { testimonial: await service.getRequestSafe(ctx, callerCompany(request, request.query.company_id), request.params.id) };
      },
    );
  };
}
