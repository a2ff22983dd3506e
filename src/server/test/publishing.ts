import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { companies, testimonialResponses } from '../db/schema.js';
import { signedInCompany } from './accounts.js';
import type { TestApp } from './harness.js';
import { completedTestimonial, settleDraft } from './testimonials.js';

export type SignedInCompany = Awaited<ReturnType<typeof signedInCompany>>;

/** A paid testimonial of a company (a new one unless given) whose answer is transcoded (played from its own MP4 and poster). */
export async function paidTestimonial(t: TestApp, me?: SignedInCompany) {
  me ??= await signedInCompany(t);
  await t.ctx.db.update(companies).set({ credits: 5 }).where(eq(companies.id, me.companyId));
  const tm = await completedTestimonial(t, me);
  expect((await me.post(`/api/testimonials/pay/${tm.id}`)).statusCode).toBe(200);
  await expect
    .poll(async () => (await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id)))[0]?.videoKey, { timeout: 60_000, interval: 300 })
    .toBeTruthy();
  await settleDraft(t, tm.id);
  const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));
  return { me, tm, response: response! };
}
