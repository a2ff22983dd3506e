import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZReminderSweepBody, ZReminderSweepResult } from '../../../contract/api/reminders.schema.js';
import type { AppContext } from '../../context.js';
import { sendError } from '../../http/errors.js';
import { runReminderSweep } from '../reminders/reminders.service.js';
import { isLoopback } from './outbox.routes.js';

/**
 * Development and tests only (registered outside production, like the outbox, and answering this machine
 * alone): `POST /dev/reminders/run { now }` runs the automatic reminders' sweep, the very function the
 * scheduled job runs, as if the clock read `now` (decision 194). The end-to-end journey drives the
 * schedule with it in the running server.
 */
export function devRemindersRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.addHook('onRequest', async (request, reply) => {
      if (!isLoopback(request.socket.remoteAddress)) {
        return sendError(reply, 404, { error: `Nothing here: ${request.method} ${request.url.split('?')[0]}.`, code: 'not_found' });
      }
    });
    app.post('/dev/reminders/run', { schema: { body: ZReminderSweepBody, response: { 200: ZReminderSweepResult } } }, async (request) => ({
      reminded: await runReminderSweep(ctx, new Date(request.body.now)),
    }));
  };
}
