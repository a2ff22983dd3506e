import { and, eq, gt } from 'drizzle-orm';
import type { TStatsResponse } from '../../../contract/api/testimonials.schema.js';
import type { AppContext } from '../../context.js';
import { companies, memberships, questions, testimonialRequests } from '../../db/schema.js';

/** The overview's numbers for one company; 'requested' counts pending requests that have not expired. */
export async function getStats(ctx: AppContext, companyId: string): Promise<TStatsResponse> {
  const now = new Date();
  const [company] = await ctx.db.select({ credits: companies.credits }).from(companies).where(eq(companies.id, companyId));
  const [userCount, questionCount, testimonialCount, completed, requested] = await Promise.all([
    ctx.db.$count(memberships, eq(memberships.companyId, companyId)),
    ctx.db.$count(questions, eq(questions.companyId, companyId)),
    ctx.db.$count(testimonialRequests, eq(testimonialRequests.companyId, companyId)),
    ctx.db.$count(testimonialRequests, and(eq(testimonialRequests.companyId, companyId), eq(testimonialRequests.status, 'completed'))),
    ctx.db.$count(
      testimonialRequests,
      and(eq(testimonialRequests.companyId, companyId), eq(testimonialRequests.status, 'pending'), gt(testimonialRequests.expiresAt, now)),
    ),
  ]);
  return {
    users: userCount,
    questions: questionCount,
    testimonials: testimonialCount,
    completed,
    requested,
    credits: company?.credits ?? 0,
  };
}
