import { eq } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { companies, users } from '../db/schema.js';
import { sendMailJob } from '../jobs/definitions.js';
import type { MailMessage } from './mailer.js';

/**
 * Queues an e-mail: it is sent by the worker with retries, so a slow or failing SMTP server never
 * fails the call that caused it. Pass `tx`-free: queue after the data it describes is committed.
 */
export async function queueMail(ctx: Pick<AppContext, 'queue'>, message: MailMessage): Promise<void> {
  await ctx.queue.send(sendMailJob, message);
}

/** Queues one e-mail per user of a company, each built for that user, in the company's mail language. */
export async function queueCompanyMail(
  ctx: Pick<AppContext, 'queue' | 'db'>,
  companyId: string,
  build: (recipient: { email: string; firstname: string; lang: 'en' | 'fr' }) => MailMessage,
): Promise<void> {
  const [company] = await ctx.db.select({ mailLanguage: companies.mailLanguage }).from(companies).where(eq(companies.id, companyId));
  const lang = company?.mailLanguage === 'fr' ? 'fr' : 'en';
  const owners = await ctx.db.select({ email: users.email, firstname: users.firstname }).from(users).where(eq(users.companyId, companyId));
  for (const owner of owners) await queueMail(ctx, build({ ...owner, lang }));
}
