import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, testimonialResponses } from '../../db/schema.js';
import { probe } from '../../media/ffmpeg.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { completedTestimonial } from '../../test/testimonials.js';
import { renderOutput } from './studio.service.js';

describe('video studio', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ work: true });
  });
  afterAll(async () => {
    await t.close();
  });

  async function paidTestimonial() {
    const me = await signedInCompany(t);
    await t.ctx.db.update(companies).set({ credits: 5 }).where(eq(companies.id, me.companyId));
    const tm = await completedTestimonial(t, me);
    await me.post(`/api/testimonials/pay/${tm.id}`);
    await expect
      .poll(async () => (await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id)))[0]?.videoKey, { timeout: 60_000, interval: 300 })
      .toBeTruthy();
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));
    const detail = async () => (await me.get(`/api/testimonials/request/${tm.id}?company_id=${me.companyId}`)).json().testimonial;
    return { me, tm, response: response!, detail };
  }
  const fileOf = (url: string) => path.join(t.config.mediaDir, decodeURIComponent(new URL(url).pathname.replace('/files/', '')));

  it('generates an intro (card + answer), merges the answers, and exports 9:16 with a signed address', async () => {
    const { me, tm, response, detail } = await paidTestimonial();
    const start = await me.post(`/api/testimonials/response/${response.id}/generate-modified/intro`, { language: 'en' });
    expect(start.statusCode, start.body).toBe(202);
    expect(start.json()).toMatchObject({ jobId: expect.any(String), state: { phase: 'queued', progress: 0 } });
    // A second start while it runs is refused.
    expect((await me.post(`/api/testimonials/response/${response.id}/generate-modified/intro`, { language: 'en' })).statusCode).toBe(409);

    await expect.poll(async () => (await detail()).testimonial_responses[0].modified_video_url, { timeout: 90_000, interval: 500 }).toBeTruthy();
    const d = await detail();
    expect(d.testimonial_responses[0]).toMatchObject({ intro_generated: true, render_state: { output: 'intro', phase: 'ready', progress: 100 } });
    const intro = await probe(fileOf(d.testimonial_responses[0].modified_video_url));
    const answer = await probe(fileOf(d.testimonial_responses[0].video_url));
    expect(Math.abs(intro.durationSeconds - (3 + answer.durationSeconds))).toBeLessThan(0.3);
    expect(intro.audio?.codec).toBe('aac');
    expect(intro.video).toMatchObject({ width: answer.video?.width, height: answer.video?.height });

    const merge = await me.post(`/api/testimonials/${tm.id}/merge`, { language: 'en' });
    expect(merge.statusCode, merge.body).toBe(202);
    await expect.poll(async () => (await detail()).video_url, { timeout: 90_000, interval: 500 }).toBeTruthy();
    const merged = await probe(fileOf((await detail()).video_url));
    expect(Math.abs(merged.durationSeconds - intro.durationSeconds)).toBeLessThan(0.4);

    const exp = await me.post(`/api/testimonials/response/${response.id}/export-v2`, {
      platform: 'shorts',
      videoType: 'modified',
      cropArea: { x: 0.3, y: 0, width: 0.42, height: 1 },
      language: 'en',
    });
    expect(exp.statusCode, exp.body).toBe(200);
    expect(exp.json()).toMatchObject({ status: 'done', exportedUrl: expect.stringMatching(/\/files\/.+export-shorts-/) });
    const short = await probe(fileOf(exp.json().exportedUrl));
    expect(short.video).toMatchObject({ width: 1080, height: 1920 });

    const mails = (await t.app.inject({ method: 'GET', url: `/dev/outbox/messages.json?to=${me.email}` })).json() as { subject: string }[];
    expect(mails.some((m) => /Your video is ready/.test(m.subject))).toBe(true);
  }, 240_000);

  it('refuses a bad crop area, an unknown platform, an unpaid testimonial and another company', async () => {
    const { me, tm, response } = await paidTestimonial();
    const bad = await me.post(`/api/testimonials/response/${response.id}/export-v2`, { platform: 'shorts', videoType: 'original', cropArea: { x: 0.7, y: 0, width: 0.5, height: 1 }, language: 'en' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/must fit inside the frame/);
    const platform = await me.post(`/api/testimonials/response/${response.id}/export-v2`, { platform: 'myspace', videoType: 'original', cropArea: { x: 0, y: 0, width: 1, height: 1 }, language: 'en' });
    expect(platform.statusCode).toBe(400);
    expect(platform.json().error).toMatch(/Unsupported platform: myspace/);
    const noModified = await me.post(`/api/testimonials/response/${response.id}/export-v2`, { platform: 'linkedin', videoType: 'modified', cropArea: { x: 0, y: 0, width: 1, height: 1 }, language: 'en' });
    expect(noModified.statusCode).toBe(400);

    const other = await signedInCompany(t);
    expect((await other.post(`/api/testimonials/response/${response.id}/generate-modified/intro`, { language: 'en' })).statusCode).toBe(404);
    expect((await other.post(`/api/testimonials/${tm.id}/merge`, { language: 'en' })).statusCode).toBe(404);

    const unpaid = await completedTestimonial(t, me);
    expect((await me.post(`/api/testimonials/${unpaid.id}/merge`, { language: 'en' })).statusCode).toBe(403);
  }, 120_000);

  it('finishes a job whose first worker died with a single output', async () => {
    const { me, tm, response } = await paidTestimonial();
    const payload = { kind: 'intro' as const, jobKey: '7d6f1a8e-1b2c-4d3e-8f90-123456789abc', companyId: me.companyId, requestId: tm.id, responseId: response.id, language: 'en' as const };
    // The state a killed worker leaves behind: 'rendering', no output recorded.
    await t.ctx.db.update(testimonialResponses).set({ renderState: { intro: { phase: 'rendering', progress: 40, error: null, jobId: payload.jobKey, updatedAt: new Date().toISOString() } } }).where(eq(testimonialResponses.id, response.id));
    await renderOutput(t.ctx, payload);
    await renderOutput(t.ctx, payload); // a duplicate delivery does nothing more
    const dir = path.join(t.config.mediaDir, 'companies', me.companyId, 'requests', tm.id, 'answers', response.id);
    expect((await readdir(dir)).filter((f) => f.startsWith('intro-') && f.endsWith('.mp4'))).toEqual([`intro-${payload.jobKey}.mp4`]);
    const [row] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, response.id));
    expect(row?.renderState.intro?.phase).toBe('ready');
  }, 120_000);
});

describe('burned-in subtitles', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ work: true });
  });
  afterAll(async () => {
    await t.close();
  });

  it('burns edited cues into the answer and into the merged video', async () => {
    const me = await signedInCompany(t);
    await t.ctx.db.update(companies).set({ credits: 2 }).where(eq(companies.id, me.companyId));
    const tm = await completedTestimonial(t, me);
    await me.post(`/api/testimonials/pay/${tm.id}`);
    await expect.poll(async () => (await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id)))[0]?.videoKey, { timeout: 60_000 }).toBeTruthy();
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));
    const detail = async () => (await me.get(`/api/testimonials/request/${tm.id}?company_id=${me.companyId}`)).json().testimonial;

    const none = await me.post(`/api/testimonials/response/${response!.id}/generate-modified/subtitles`, { transcription: [], language: 'en' });
    expect(none.statusCode).toBe(400);
    const cues = [{ start: 0.2, end: 1.6, text: 'An edited word here' }];
    const res = await me.post(`/api/testimonials/response/${response!.id}/generate-modified/subtitles`, { transcription: cues, language: 'en' });
    expect(res.statusCode, res.body).toBe(202);
    await expect.poll(async () => (await detail()).testimonial_responses[0].has_subtitles, { timeout: 90_000, interval: 500 }).toBe(true);
    const d = await detail();
    expect(d.testimonial_responses[0]).toMatchObject({ intro_generated: false, has_subtitles: true, modified_video_url: expect.stringMatching(/subtitles-/) });
    // The stored cues are the edited ones, returned by transcribe without running the engine.
    expect((await me.post(`/api/testimonials/response/${response!.id}/transcribe`)).json()).toEqual({ transcription: cues });

    const merged = await me.post(`/api/testimonials/${tm.id}/generate-merged-with-all-subtitles`, { transcriptions: [{ responseId: response!.id, transcription: cues }], language: 'en' });
    expect(merged.statusCode, merged.body).toBe(202);
    await expect.poll(async () => (await detail()).has_subtitles, { timeout: 90_000, interval: 500 }).toBe(true);
    expect((await detail()).video_url_subtitles).toMatch(/merged-subtitles-/);
  }, 240_000);
});
