import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API } from '../../../contract/api/paths.js';
import { ZCompleteOnboardingResponse } from '../../../contract/api/settings.schema.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-guard.js';
import * as service from './users.service.js';

export function usersRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.addHook('onRequest', requireAuth(ctx));
    app.put(API.settings.completeOnboarding.route, { schema: { response: { 200: ZCompleteOnboardingResponse } } }, async (request) => {
      await service.completeOnboarding(ctx, request.auth!.userId);
      return { success: true as const, onboarding_completed: true as const };
    });
  };
}
