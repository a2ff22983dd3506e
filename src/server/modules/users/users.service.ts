import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { users } from '../../db/schema.js';

/** Marks the onboarding tour as done for the signed-in user (finishing or leaving it). */
export async function completeOnboarding(ctx: AppContext, userId: string): Promise<void> {
  await ctx.db.update(users).set({ onboardingCompleted: true, updatedAt: new Date() }).where(eq(users.id, userId));
}
