import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, jobs, publications, testimonialRequests, testimonialResponses } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { makeClip, multipart } from '../../test/clips.js';
import { createTestApp, type TestApp } from '../../test/harness.js';

/**
 * Issue 29: an answer the customer asked to remove is left out of a real merged render (ffmpeg), and a
 * merge rendered with it before the removal can no longer be published (the answers a render holds are
 * recorded with its job and checked at publish time, decision 188).
 */
describe('removed answers and merged renders', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ work: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A paid testimonial of two answers (2 s each) saved through the real save call, both prepared. */
  async function twoAnswers() {
    const me = await signedInCompany(t);
    await t.ctx.db.update(companies).set({ credits: 5 }).where(eq(companies.id, me.companyId));
    const q1 = (await me.post('/api/questions/add', { company_id: me.companyId, text: 'First?', order_position: 1 })).json().id as string;
    const q2 = (await me.post('/api/questions/add', { company_id: me.companyId, text: 'Second?', order_position: 2 })).json().id as string;
    const { testimonial } = (await me.post('/api/testimonials/request', { customer_email: 'two@client.test', customer_name: 'Two', question_ids: [q1, q2], language: 'english' })).json();
    const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, testimonial.id));
    const clip = await readFile(await makeClip({ format: 'webm', seconds: 2, tone: 500 }));
    const form = multipart([
      { name: 'questionIds[0]', value: q1 },
      { name: 'bgColors[0]', value: '#000000' },
      { name: 'questionIds[1]', value: q2 },
      { name: 'bgColors[1]', value: '#000000' },
      { name: 'name', value: 'Two' },
      { name: 'testimonialId', value: testimonial.id },
      { name: 'token', value: row!.token },
      { name: 'consentVersion', value: 'image-rights-v1' },
      { name: 'videos', filename: 'video0.webm', content: clip, type: 'video/webm' },
      { name: 'videos', filename: 'video1.webm', content: clip, type: 'video/webm' },
    ]);
    const saved = await t.app.inject({ method: 'POST', url: '/api/public/testimonial/save', remoteAddress: '10.9.0.1', ...form });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await me.post(`/api/testimonials/pay/${testimonial.id}`)).statusCode).toBe(200);
    const answers = () => t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, testimonial.id)).orderBy(asc(testimonialResponses.orderPosition));
    await expect.poll(async () => (await answers()).every((a) => a.videoKey), { timeout: 60_000, interval: 300 }).toBe(true);
    return { me, id: testimonial.id as string, answers: await answers() };
  }

  const mergeReady = async (me: Awaited<ReturnType<typeof signedInCompany>>, id: string) => {
    const started = await me.post(`/api/testimonials/${id}/merge`, { language: 'en' });
    expect(started.statusCode, started.body).toBe(202);
    const jobId = started.json().jobId as string;
    await expect.poll(async () => (await me.get(`/api/jobs/${jobId}`)).json().phase, { timeout: 90_000, interval: 300 }).toBe('ready');
    const [job] = await t.ctx.db.select().from(jobs).where(eq(jobs.id, jobId));
    return job!;
  };

  it('leaves a removed answer out of the merge, and refuses publishing a merge made before the removal', async () => {
    const { me, id, answers } = await twoAnswers();
    const [a1, a2] = answers;
    const both = await mergeReady(me, id);
    expect(both.result).toEqual({ responseIds: [a1!.id, a2!.id] });
    const bothFile = await t.ctx.media.probe(path.join(t.config.mediaDir, both.outputKey!));

    // The customer asks for the second answer's removal (their page writes this).
    await t.ctx.db.update(testimonialResponses).set({ removalRequestedAt: new Date() }).where(eq(testimonialResponses.id, a2!.id));
    const stale = await me.post('/api/publications', { testimonialId: id, jobId: both.id });
    expect(stale.json()).toMatchObject({ code: 'conflict', reason: 'answer_removed' });

    const one = await mergeReady(me, id);
    expect(one.result).toEqual({ responseIds: [a1!.id] });
    const oneFile = await t.ctx.media.probe(path.join(t.config.mediaDir, one.outputKey!));
    // One card (3 s) and one answer fewer.
    expect(bothFile.durationSeconds - oneFile.durationSeconds).toBeGreaterThan(3 + (a2!.durationSeconds ?? 0) - 0.6);
    const published = await me.post('/api/publications', { testimonialId: id, jobId: one.id });
    expect(published.statusCode, published.body).toBe(201);
    const [pub] = await t.ctx.db.select().from(publications).where(eq(publications.id, published.json().id));
    expect(pub!.captionParts.map((p) => p.responseId)).toEqual([a1!.id]);
    expect(pub!.durationSeconds).toBeCloseTo(3 + (a1!.durationSeconds ?? 0), 1);
    // Two transcodes and two merges in real ffmpeg: as long as the polls above may wait, on a busy machine.
  }, 240_000);
});
