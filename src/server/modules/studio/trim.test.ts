import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, testimonialRequests, testimonialResponses } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { completedTestimonial } from '../../test/testimonials.js';

type Company = Awaited<ReturnType<typeof signedInCompany>>;

/** Issue 31, decision 201: PUT /api/testimonials/response/{id}/trim, and the renders that honour it. */
describe('trimming an answer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A paid testimonial whose answer is "prepared" (its upload as the played file) and lasts 5 s. */
  async function answer(me?: Company) {
    me ??= await signedInCompany(t);
    await t.ctx.db.update(companies).set({ credits: 5 }).where(eq(companies.id, me.companyId));
    const tm = await completedTestimonial(t, me);
    expect((await me.post(`/api/testimonials/pay/${tm.id}`)).statusCode).toBe(200);
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));
    await t.ctx.db.update(testimonialResponses).set({ videoKey: response!.originalKey, durationSeconds: 5 }).where(eq(testimonialResponses.id, response!.id));
    const detail = async () => (await me.get(`/api/testimonials/request/${tm.id}?company_id=${me.companyId}`)).json().testimonial.testimonial_responses[0];
    return { me, tm, response: response!, url: `/api/testimonials/response/${response!.id}/trim`, detail };
  }

  it('saves a trim, shows it on the detail, stores untouched sides as null, and resets', async () => {
    const { me, url, detail } = await answer();
    expect(await detail()).toMatchObject({ trim_start: null, trim_end: null });
    const saved = await me.put(url, { start: 1.2, end: 3.5 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ id: expect.any(String), trim_start: 1.2, trim_end: 3.5 });
    const d = await detail();
    expect(d.trim_start).toBeCloseTo(1.2, 5);
    expect(d.trim_end).toBeCloseTo(3.5, 5);
    // A start at 0 and an end at the answer's end are "from the beginning" and "to the end".
    expect((await me.put(url, { start: 0, end: 4.99 })).json()).toMatchObject({ trim_start: null, trim_end: null });
    expect((await me.put(url, { start: 2, end: null })).json()).toMatchObject({ trim_start: 2, trim_end: null });
    expect((await me.put(url, { start: null, end: null })).json()).toMatchObject({ trim_start: null, trim_end: null });
    expect(await detail()).toMatchObject({ trim_start: null, trim_end: null });
  });

  it('refuses a trim outside the answer or shorter than 1 s with a human message and the field, and bad bodies', async () => {
    const { me, url, detail } = await answer();
    const cases: [object, number, object][] = [
      [{ start: 5, end: null }, 400, { code: 'invalid_data', reason: 'trim_start_outside', field: 'start', params: { duration: '0:05.0' }, error: 'The start must be within the answer, between 0:00.0 and 0:05.0.' }],
      [{ start: null, end: 6 }, 400, { code: 'invalid_data', reason: 'trim_end_outside', field: 'end' }],
      [{ start: 2, end: 2.5 }, 400, { code: 'invalid_data', reason: 'trim_too_short', field: 'end', error: 'Keep at least 1 s: the end must come at least 1 s after the start.' }],
      [{ start: 3, end: 2 }, 400, { code: 'invalid_data', reason: 'trim_too_short' }],
      [{ start: -1, end: null }, 400, { code: 'invalid_data', field: 'start', error: expect.stringMatching(/cannot be before the answer starts/) }],
      [{ start: '1', end: null }, 400, { code: 'invalid_data', field: 'start', error: expect.stringMatching(/time in seconds/) }],
      [{ start: 1 }, 400, { field: 'end' }],
      [{ start: 1, end: 3, extra: true }, 400, { code: 'invalid_data' }],
    ];
    for (const [body, status, answerBody] of cases) {
      const res = await me.put(url, body);
      expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(status);
      expect(res.json()).toMatchObject(answerBody);
    }
    expect(await detail()).toMatchObject({ trim_start: null, trim_end: null });
  });

  it("answers 404 for another company's answer and an unknown one, 409 for an answer not prepared yet", async () => {
    const { response, url, me } = await answer();
    const other = await signedInCompany(t);
    const res = await other.put(url, { start: 1, end: 3 });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found', error: expect.any(String) });
    expect((await me.put('/api/testimonials/response/00000000-0000-4000-8000-000000000000/trim', { start: 1, end: 3 })).statusCode).toBe(404);
    const [row] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, response.id));
    expect(row).toMatchObject({ trimStart: null, trimEnd: null });
    await t.ctx.db.update(testimonialResponses).set({ videoKey: null }).where(eq(testimonialResponses.id, response.id));
    expect((await me.put(url, { start: 1, end: 3 })).json()).toMatchObject({ code: 'conflict', reason: 'trim_not_ready' });
    expect((await t.app.inject({ method: 'PUT', url, payload: { start: 1, end: 3 } })).statusCode).toBe(401);
  });

  it('is refused on a withdrawn testimonial and on an answer the customer asked to remove', async () => {
    const a = await answer();
    await t.ctx.db.update(testimonialResponses).set({ removalRequestedAt: new Date() }).where(eq(testimonialResponses.id, a.response.id));
    expect((await a.me.put(a.url, { start: 1, end: 3 })).json()).toMatchObject({ code: 'conflict', reason: 'answer_removed' });
    const b = await answer();
    await t.ctx.db.update(testimonialRequests).set({ consentWithdrawnAt: new Date('2026-03-05T10:00:00Z') }).where(eq(testimonialRequests.id, b.tm.id));
    const res = await b.me.put(b.url, { start: 1, end: 3 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'conflict', reason: 'consent_withdrawn', params: { date: '05/03/2026' } });
    const [row] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, b.response.id));
    expect(row).toMatchObject({ trimStart: null, trimEnd: null });
  });
});

describe('renders of a trimmed answer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ work: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('makes the intro, the original export and the subtitled version of the kept part, publishes its captions shifted to it; the answer file is kept whole', async () => {
    const me = await signedInCompany(t);
    await t.ctx.db.update(companies).set({ credits: 5 }).where(eq(companies.id, me.companyId));
    const tm = await completedTestimonial(t, me);
    await me.post(`/api/testimonials/pay/${tm.id}`);
    const detail = async () => (await me.get(`/api/testimonials/request/${tm.id}?company_id=${me.companyId}`)).json().testimonial.testimonial_responses[0];
    await expect.poll(async () => (await detail()).media?.phase, { timeout: 60_000, interval: 300 }).toBe('ready');
    const fileOf = (url: string) => path.join(t.config.mediaDir, decodeURIComponent(new URL(url).pathname.replace('/files/', '')));
    const { id, video_url: videoUrl } = await detail();
    const whole = (await t.ctx.media.probe(fileOf(videoUrl))).durationSeconds;
    expect((await me.put(`/api/testimonials/response/${id}/trim`, { start: 0.4, end: 1.6 })).statusCode).toBe(200);

    const ready = async (res: { json: () => { jobId: string } }) => {
      const jobId = res.json().jobId;
      await expect.poll(async () => (await me.get(`/api/jobs/${jobId}`)).json().phase, { timeout: 90_000, interval: 300 }).toBe('ready');
      return (await me.get(`/api/jobs/${jobId}`)).json().outputUrl as string;
    };
    const intro = await ready(await me.post(`/api/testimonials/response/${id}/generate-modified/intro`, { language: 'en' }));
    expect(Math.abs((await t.ctx.media.probe(fileOf(intro))).durationSeconds - (3 + 1.2))).toBeLessThan(0.1);
    const exported = await ready(
      await me.post(`/api/testimonials/response/${id}/export-v2`, { platform: 'linkedin', videoType: 'original', cropArea: { x: 0, y: 0, width: 1, height: 1 }, language: 'en' }),
    );
    expect(Math.abs((await t.ctx.media.probe(fileOf(exported))).durationSeconds - 1.2)).toBeLessThan(0.1);
    // Subtitles: the lines are kept in the answer's time, burnt in and published shifted to the kept part.
    const subtitled = await ready(
      await me.post(`/api/testimonials/response/${id}/generate-modified/subtitles`, {
        language: 'en',
        transcription: [
          { start: 0, end: 0.35, text: 'Cut away' },
          { start: 1.0, end: 1.5, text: 'Kept words' },
        ],
      }),
    );
    expect(Math.abs((await t.ctx.media.probe(fileOf(subtitled))).durationSeconds - (3 + 1.2))).toBeLessThan(0.1);
    const jobs = (await me.get(`/api/jobs?testimonialId=${tm.id}&responseId=${id}`)).json().jobs as { id: string; kind: string; result?: unknown }[];
    const subtitlesJob = jobs.find((j) => j.kind === 'subtitles')!;
    const published = await me.post('/api/publications', { testimonialId: tm.id, jobId: subtitlesJob.id });
    expect(published.statusCode, published.body).toBe(201);
    const vtt = await t.app.inject({ method: 'GET', url: `/v/${published.json().slug}/captions.vtt` });
    expect(vtt.statusCode).toBe(200);
    expect(vtt.body).not.toContain('Cut away');
    // 3 s of card, then the answer from 0.4 s: the line said at 1.0 s shows at 3.6 s.
    expect(vtt.body).toMatch(/00:00:03\.600 --> 00:00:04\.100\s+Kept words/);

    // The recording is untouched: the same file, its whole length.
    expect(fileOf((await detail()).video_url)).toBe(fileOf(videoUrl));
    expect(Math.abs((await t.ctx.media.probe(fileOf(videoUrl))).durationSeconds - whole)).toBeLessThan(0.01);
  }, 180_000);
});
