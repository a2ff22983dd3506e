import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { NO_CREDITS_MESSAGE } from '../../../contract/api/testimonials.schema.js';
import type { AppContext } from '../../context.js';
import { companies, creditTransactions, testimonialRequests } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { refuseWithdrawn } from '../consent/control.js';
import { recordEvent, type EventOptions } from '../events/events.service.js';
import type { Tx } from '../jobs/jobs.service.js';

/**
 * Spends one credit to unlock a completed testimonial, in the caller's transaction, by conditional
 * updates: the testimonial flips to paid only if it was unpaid, the balance drops only if it is at least
 * one (the column's check forbids going below zero anyway), and the ledger row is unique per testimonial.
 * Paying again for a paid testimonial charges nothing. No credit left throws 402 after the flip: the
 * caller's transaction (or savepoint) must roll back. The pay call and the payment on arrival (issue 31,
 * studio/drafts.service.ts) both go through here.
 */
export async function payInTransaction(
  ctx: Pick<AppContext, 'queue'>,
  { tx, executeSql }: Tx,
  companyId: string,
  id: string,
  actor: EventOptions = {},
): Promise<{ credits: number }> {
  const [flipped] = await tx
    .update(testimonialRequests)
    .set({ paid: true, paidAt: new Date(), updatedAt: new Date() })
    .where(
      and(
        eq(testimonialRequests.id, id),
        eq(testimonialRequests.companyId, companyId),
        eq(testimonialRequests.status, 'completed'),
        eq(testimonialRequests.paid, false),
        isNull(testimonialRequests.consentWithdrawnAt),
      ),
    )
    .returning({ id: testimonialRequests.id });
  if (!flipped) {
    const [row] = await tx.select().from(testimonialRequests).where(and(eq(testimonialRequests.id, id), eq(testimonialRequests.companyId, companyId)));
    if (!row) throw new AppError('not_found', { message: 'This testimonial does not exist or was deleted.' });
    // The customer withdrew before it was unlocked: no credit is spent on it (issue 29).
    if (!row.paid) refuseWithdrawn(row);
    if (row.status !== 'completed') {
      throw new AppError('conflict', { reason: 'nothing_to_unlock' });
    }
    const [company] = await tx.select({ credits: companies.credits }).from(companies).where(eq(companies.id, companyId));
    return { credits: company?.credits ?? 0 };
  }
  const [charged] = await tx
    .update(companies)
    .set({ credits: sql`${companies.credits} - 1`, updatedAt: new Date() })
    .where(and(eq(companies.id, companyId), gt(companies.credits, 0)))
    .returning({ credits: companies.credits });
  if (!charged) throw new AppError('invalid_data', { status: 402, message: NO_CREDITS_MESSAGE });
  await tx.insert(creditTransactions).values({ companyId, transactionType: 'testimonial_payment', credits: -1, amount: 1, currency: 'credit', requestId: id });
  await recordEvent(ctx, { tx, executeSql }, companyId, 'testimonial.paid', { testimonial_id: id }, actor);
  return { credits: charged.credits };
}
