import { eq } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { ExecuteSql } from '../db/client.js';
import { companies, memberships, users } from '../db/schema.js';
import { sendMailJob } from '../queue/definitions.js';
import type { MailMessage } from './mailer.js';

export interface QueueMailOptions {
  /** Queues inside this transaction (Database.transaction): the e-mail exists only if it commits. */
  executeSql?: ExecuteSql;
}

/**
 * Queues an e-mail: it is sent by the worker with retries, so a slow or failing SMTP server never
 * fails the call that caused it. Queue after the data it describes is committed, or in its transaction.
 */
export async function queueMail(ctx: Pick<AppContext, 'queue'>, message: MailMessage, options: QueueMailOptions = {}): Promise<void> {
  await ctx.queue.send(sendMailJob, message, options.executeSql ? { executeSql: options.executeSql } : undefined);
}

export interface MailRecipient {
  email: string;
  firstname: string;
  lang: 'en' | 'fr';
}

/** The members of a company (issue 32: whatever their role), each with the company's mail language. */
export async function companyMailRecipients(ctx: Pick<AppContext, 'db'>, companyId: string): Promise<MailRecipient[]> {
  const [company] = await ctx.db.select({ mailLanguage: companies.mailLanguage }).from(companies).where(eq(companies.id, companyId));
  const lang = company?.mailLanguage === 'fr' ? 'fr' : 'en';
  const owners = await ctx.db
    .select({ email: users.email, firstname: users.firstname })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.companyId, companyId))
    .orderBy(memberships.createdAt, users.id);
  return owners.map((owner) => ({ ...owner, lang }));
}

/**
 * Queues one e-mail per user of a company, each built for that user, in the company's mail language.
 * Inside a transaction, pass its Drizzle handle as `ctx.db` and its executor as `options.executeSql`.
 */
export async function queueCompanyMail(
  ctx: Pick<AppContext, 'queue' | 'db'>,
  companyId: string,
  build: (recipient: MailRecipient) => MailMessage,
  options: QueueMailOptions = {},
): Promise<void> {
  for (const recipient of await companyMailRecipients(ctx, companyId)) await queueMail(ctx, build(recipient), options);
}
