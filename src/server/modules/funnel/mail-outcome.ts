import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { testimonialRequests } from '../../db/schema.js';
import type { MailMessage, SendMailOptions } from '../../mail/mailer.js';
import { recordRequestEvent } from './events.js';

/**
 * The SMTP reply code of a permanent refusal of this message or its recipient (RFC 5321 §4.2.1: a 5yz
 * reply, which the client "SHOULD NOT" repeat as is), or null for anything worth retrying: a 4yz
 * deferral, a network failure, or a refusal of our own account or connection (EAUTH, a greeting
 * refused), which a fixed configuration cures and which no recipient caused (decision 197).
 */
export function permanentRefusalCode(error: unknown): number | null {
  if (typeof error !== 'object' || error === null) return null;
  const { responseCode, code } = error as { responseCode?: unknown; code?: unknown };
  if (typeof responseCode !== 'number' || responseCode < 500 || responseCode > 599) return null;
  return code === 'EENVELOPE' || code === 'EMESSAGE' ? responseCode : null;
}

async function recordOutcome(ctx: AppContext, requestId: string, kind: 'delivered' | 'bounced', detail: Record<string, unknown>): Promise<void> {
  try {
    const [request] = await ctx.db
      .select({ companyId: testimonialRequests.companyId, language: testimonialRequests.language })
      .from(testimonialRequests)
      .where(eq(testimonialRequests.id, requestId))
      .limit(1);
    // A request deleted since the e-mail was queued has no funnel left to join.
    if (!request) return;
    await recordRequestEvent(ctx.db, { companyId: request.companyId, requestId, kind, language: request.language, detail });
  } catch (error) {
    // The e-mail went (or was refused for good): a step not written must not send it again.
    ctx.logger.warn({ err: error, requestId, kind }, 'funnel: the e-mail outcome was not recorded');
  }
}

/**
 * The send-mail job's work: sends the e-mail, and when it is about a request, records what the SMTP
 * server answered: 'delivered' when it accepted the message, 'bounced' when it refused it for good. A
 * permanent refusal ends the job without retries (whatever the e-mail); anything else is thrown, and
 * the queue retries it.
 */
export async function sendMailAndRecord(ctx: AppContext, message: MailMessage, options: SendMailOptions = {}): Promise<'delivered' | 'bounced'> {
  try {
    await ctx.mailer.send(message, options);
  } catch (error) {
    const smtpCode = permanentRefusalCode(error);
    if (smtpCode === null) throw error;
    ctx.logger.warn({ smtpCode, requestId: message.requestId, mailId: options.id }, 'e-mail refused for good by the SMTP server; not retried');
    if (message.requestId) await recordOutcome(ctx, message.requestId, 'bounced', { smtpCode });
    return 'bounced';
  }
  if (message.requestId) await recordOutcome(ctx, message.requestId, 'delivered', {});
  return 'delivered';
}
