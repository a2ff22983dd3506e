import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API } from '../../../contract/api/paths.js';
import { ZReminderSettings, ZReminderSettingsBody } from '../../../contract/api/reminders.schema.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-guard.js';
import { callerCompany } from '../../http/company-scope.js';
import { getReminderSettings, updateReminderSettings } from './reminders.service.js';

/** The company's automatic reminders (issue 30): GET and PUT /api/user/reminder-settings. */
export function remindersRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.addHook('onRequest', requireAuth(ctx));

    app.get(API.reminders.get.route, { schema: { response: { 200: ZReminderSettings } } }, async (request) => getReminderSettings(ctx, callerCompany(request)));

    app.put(API.reminders.update.route, { schema: { body: ZReminderSettingsBody, response: { 200: ZReminderSettings } } }, async (request) =>
      updateReminderSettings(ctx, { companyId: callerCompany(request), body: request.body }),
    );
  };
}
