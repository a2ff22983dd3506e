import type { AppContext } from '../context.js';
import { sendMailJob } from '../jobs/definitions.js';
import type { MailMessage } from './mailer.js';

/**
 * Queues an e-mail: it is sent by the worker with retries, so a slow or failing SMTP server never
 * fails the call that caused it. Pass `tx`-free: queue after the data it describes is committed.
 */
export async function queueMail(ctx: Pick<AppContext, 'queue'>, message: MailMessage): Promise<void> {
  await ctx.queue.send(sendMailJob, message);
}
