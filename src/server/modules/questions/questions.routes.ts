import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API } from '../../../contract/api/paths.js';
import {
  ZAddQuestionBody,
  ZAddQuestionResponse,
  ZDeleteQuestionBody,
  ZDeleteQuestionResponse,
  ZEditQuestionBody,
  ZEditQuestionResponse,
  ZQuestionsListQuery,
  ZQuestionsListResponse,
  ZUpdateQuestionPositionBody,
  ZUpdateQuestionPositionResponse,
} from '../../../contract/api/questions.schema.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-guard.js';
import { callerCompany } from '../../http/company-scope.js';
import * as service from './questions.service.js';

export function questionsRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.addHook('onRequest', requireAuth(ctx));

    app.get(API.questions.list.route, { schema: { querystring: ZQuestionsListQuery, response: { 200: ZQuestionsListResponse } } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.listQuestions(ctx, callerCompany(request, request.query.company_id));
    });

    app.post(API.questions.add.route, { schema: { body: ZAddQuestionBody, response: { 201: ZAddQuestionResponse } } }, async (request, reply) => {
      const companyId = callerCompany(request, request.body.company_id);
      const { text, text_en, text_fr, order_position } = request.body;
      return reply.status(201).send(await service.addQuestion(ctx, { companyId, text, text_en, text_fr, orderPosition: order_position }));
    });

    app.post(API.questions.edit.route, { schema: { body: ZEditQuestionBody, response: { 200: ZEditQuestionResponse } } }, async (request) => {
      const companyId = callerCompany(request, request.body.company_id);
      const { id, text, text_en, text_fr } = request.body;
      return service.editQuestion(ctx, { companyId, id, text, text_en, text_fr });
    });

    app.post(API.questions.delete.route, { schema: { body: ZDeleteQuestionBody, response: { 200: ZDeleteQuestionResponse } } }, async (request) => {
      await service.deleteQuestion(ctx, { companyId: callerCompany(request, request.body.company_id), id: request.body.id });
      return { success: true as const };
    });

    app.post(
      API.questions.updatePosition.route,
      { schema: { body: ZUpdateQuestionPositionBody, response: { 200: ZUpdateQuestionPositionResponse } } },
      async (request) => {
        const companyId = callerCompany(request, request.body.company_id);
        await service.moveQuestion(ctx, { companyId, id: request.body.id, newPosition: request.body.new_position });
        return { success: true as const };
      },
    );
  };
}
