import { readFile } from 'node:fs/promises';
import { and, eq, inArray } from 'drizzle-orm';
import { jobs, testimonialRequests, testimonialResponses, transcriptions } from '../db/schema.js';
import type { signedInCompany } from './accounts.js';
import { makeClip, multipart } from './clips.js';
import type { TestApp } from './harness.js';

let n = 0;

/**
 * A request of `me`'s company answered by a customer through the real save call (one WebM answer).
 * `over.question`: the question's texts (`{ text_en, text_fr }`); `over.language`: the request's.
 */
export async function completedTestimonial(
  t: TestApp,
  me: Awaited<ReturnType<typeof signedInCompany>>,
  over: { question?: { text_en?: string | null; text_fr?: string | null }; language?: 'english' | 'french' } = {},
) {
  n += 1;
  const texts = over.question ?? { text: `Question ${n}?` };
  const q = (await me.post('/api/questions/add', { company_id: me.companyId, ...texts, order_position: 1 })).json();
  const { testimonial } = (
    await me.post('/api/testimonials/request', { customer_email: `c${n}@client.test`, customer_name: `Customer ${n}`, question_ids: [q.id], language: over.language ?? 'english' })
  ).json();
  const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, testimonial.id));
  const clip = await readFile(await makeClip({ format: 'webm', seconds: 2, tone: 300 + n }));
  // The fields first, as the recording page sends them: the server reads no file before the token.
  const form = multipart([
    { name: 'questionIds[0]', value: q.id },
    { name: 'bgColors[0]', value: '#000000' },
    { name: 'name', value: `Customer ${n}` },
    { name: 'testimonialId', value: testimonial.id },
    { name: 'token', value: row!.token },
    { name: 'consentVersion', value: 'image-rights-v1' },
    { name: 'videos', filename: 'video0.webm', content: clip, type: 'video/webm' },
  ]);
  const res = await t.app.inject({ method: 'POST', url: '/api/public/testimonial/save', remoteAddress: `10.8.${n % 250}.1`, ...form });
  if (res.statusCode !== 200) throw new Error(`save failed: ${res.body}`);
  return { id: testimonial.id as string, questionId: q.id as string };
}

/**
 * Issue 31: waits for the draft a paid testimonial gets once its answers are prepared (if it has one) to
 * finish, and takes it out of the 'video ready' e-mails and the answers' transcriptions: tests of other
 * renders then see only their own work, on a machine no longer busy with the draft. Call it once the answers are prepared.
 */
export async function settleDraft(t: TestApp, requestId: string): Promise<void> {
  const draft = and(eq(jobs.requestId, requestId), eq(jobs.kind, 'draft'));
  // A loop rather than expect.poll: setups (beforeAll) call it too.
  for (const deadline = Date.now() + 90_000; ; ) {
    const unfinished = await t.ctx.db.select({ phase: jobs.phase }).from(jobs).where(and(draft, inArray(jobs.phase, ['queued', 'running'])));
    if (!unfinished.length) break;
    if (Date.now() > deadline) throw new Error(`the draft of ${requestId} did not finish within 90 s`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  await t.ctx.db.update(jobs).set({ notifyPending: false }).where(draft);
  // Its e-mail may have gone already: the next render's is not held back by it.
  await t.ctx.db.update(testimonialRequests).set({ readyMailSentAt: null }).where(eq(testimonialRequests.id, requestId));
  // And the answers are as they were before it: without the transcriptions it made.
  const answers = await t.ctx.db.select({ id: testimonialResponses.id }).from(testimonialResponses).where(eq(testimonialResponses.requestId, requestId));
  if (answers.length) await t.ctx.db.delete(transcriptions).where(inArray(transcriptions.responseId, answers.map((a) => a.id)));
}
