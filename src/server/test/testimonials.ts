import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { testimonialRequests } from '../db/schema.js';
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
