import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, jobs, testimonialResponses, transcriptions } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { completedTestimonial, settleDraft } from '../../test/testimonials.js';

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
    const detail = async () => (await me.get(`/api/testimonials/request/${tm.id}?company_id=${me.companyId}`)).json().testimonial;
    await expect.poll(async () => (await detail()).testimonial_responses[0].media?.phase, { timeout: 60_000, interval: 300 }).toBe('ready');
    await settleDraft(t, tm.id);
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));
    return { me, tm, response: response!, detail };
  }
  const fileOf = (url: string) => path.join(t.config.mediaDir, decodeURIComponent(new URL(url).pathname.replace('/files/', '')));
  const job = async (me: Awaited<ReturnType<typeof signedInCompany>>, id: string) => (await me.get(`/api/jobs/${id}`)).json();

  it('generates an intro (card + answer), merges the answers, and exports 9:16, each start answering at once with its job', async () => {
    const { me, tm, response, detail } = await paidTestimonial();
    const start = await me.post(`/api/testimonials/response/${response.id}/generate-modified/intro`, { language: 'en' });
    expect(start.statusCode, start.body).toBe(202);
    const { jobId } = start.json();
    expect(start.json()).toEqual({ jobId: expect.any(String), state: { output: 'intro', jobId, phase: 'queued', progress: 0, error: null } });
    // A second start while it is in flight is refused, whatever its kind.
    const again = await me.post(`/api/testimonials/response/${response.id}/generate-modified/intro`, { language: 'en' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'conflict', error: expect.stringMatching(/already being generated/) });
    expect((await me.post(`/api/testimonials/response/${response.id}/regenerate`, { language: 'en' })).json().code).toBe('conflict');

    await expect.poll(async () => (await job(me, jobId)).phase, { timeout: 90_000, interval: 300 }).toBe('ready');
    const d = await detail();
    expect(d.testimonial_responses[0]).toMatchObject({ intro_generated: true, render_state: { output: 'intro', jobId, phase: 'ready', progress: 100, error: null } });
    expect(d.testimonial_responses[0].modified_video_url).toMatch(new RegExp(`intro-${jobId}\\.mp4`));
    expect((await job(me, jobId)).params).toEqual({ language: 'en' });
    const intro = await t.ctx.media.probe(fileOf(d.testimonial_responses[0].modified_video_url));
    const answer = await t.ctx.media.probe(fileOf(d.testimonial_responses[0].video_url));
    expect(Math.abs(intro.durationSeconds - (3 + answer.durationSeconds))).toBeLessThan(0.3);
    expect(intro.audio?.codec).toBe('aac');
    expect(intro.video).toMatchObject({ width: answer.video?.width, height: answer.video?.height });

    const merge = await me.post(`/api/testimonials/${tm.id}/merge`, { language: 'fr' });
    expect(merge.statusCode, merge.body).toBe(202);
    await expect.poll(async () => (await job(me, merge.json().jobId)).phase, { timeout: 90_000, interval: 300 }).toBe('ready');
    expect((await detail()).render_state).toMatchObject({ output: 'merge', jobId: merge.json().jobId, phase: 'ready' });
    const merged = await t.ctx.media.probe(fileOf((await detail()).video_url));
    expect(Math.abs(merged.durationSeconds - intro.durationSeconds)).toBeLessThan(0.4);

    // export-v2 never waits: queued at once, followed through its job.
    const body = { platform: 'shorts', videoType: 'modified', cropArea: { x: 0.3, y: 0, width: 0.42, height: 1 }, language: 'en' };
    const exp = await me.post(`/api/testimonials/response/${response.id}/export-v2`, body);
    expect(exp.statusCode, exp.body).toBe(200);
    expect(exp.json()).toEqual({ status: 'queued', exportedUrl: null, jobId: expect.any(String), state: expect.objectContaining({ output: 'export', phase: 'queued', jobId: exp.json().jobId }) });
    await expect.poll(async () => (await job(me, exp.json().jobId)).phase, { timeout: 90_000, interval: 300 }).toBe('ready');
    const done = await job(me, exp.json().jobId);
    expect(done).toMatchObject({ kind: 'export', params: { platform: 'shorts', videoType: 'modified', cropArea: body.cropArea, language: 'en' }, outputUrl: expect.stringMatching(/export-shorts-/) });
    expect((await detail()).testimonial_responses[0].short_video_url).toMatch(new RegExp(`export-shorts-${done.id}`));
    const short = await t.ctx.media.probe(fileOf(done.outputUrl));
    expect(short.video).toMatchObject({ width: 1080, height: 1920 });

    // The owner followed each render on the page (GET /api/jobs/{id}) and each took seconds: no 'ready'
    // e-mail is owed for them (studio/ready-mail.test.ts covers the e-mails).
    const rendered = await t.ctx.db.select().from(jobs).where(eq(jobs.requestId, tm.id));
    expect(rendered.filter((r) => r.kind !== 'transcode').map((r) => [r.kind, r.readyOutput, r.notifyPending, Boolean(r.watchedAt)])).toEqual(
      expect.arrayContaining([
        ['intro', 'intro', false, true],
        ['merge', 'merge', false, true],
        ['export', 'export_shorts', false, true],
      ]),
    );
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
    const noMerged = await me.post(`/api/testimonials/${tm.id}/export-v2`, { platform: 'linkedin', videoType: 'original', cropArea: { x: 0, y: 0, width: 1, height: 1 }, language: 'en' });
    expect(noMerged.statusCode).toBe(409);
    expect(noMerged.json()).toMatchObject({ code: 'conflict', error: expect.stringMatching(/Merge the answers/) });

    const other = await signedInCompany(t);
    expect((await other.post(`/api/testimonials/response/${response.id}/generate-modified/intro`, { language: 'en' })).statusCode).toBe(404);
    expect((await other.post(`/api/testimonials/${tm.id}/merge`, { language: 'en' })).statusCode).toBe(404);
    const cues = [{ start: 0, end: 1, text: 'Not yours' }];
    expect((await other.post(`/api/testimonials/response/${response.id}/generate-modified/subtitles`, { transcription: cues, language: 'en' })).statusCode).toBe(404);

    const unpaid = await completedTestimonial(t, me);
    expect((await me.post(`/api/testimonials/${unpaid.id}/merge`, { language: 'en' })).statusCode).toBe(403);
    // Nothing was enqueued by the refusals: the testimonial has only its answer's transcode.
    expect((await t.ctx.db.select().from(jobs).where(eq(jobs.requestId, tm.id))).map((j) => j.kind)).toEqual(['transcode']);
  }, 120_000);

  it('refuses to render an answer still being prepared, and says so differently when its preparation failed', async () => {
    const { me, tm, response, detail } = await paidTestimonial();
    // The answer as it is before its transcode finished: no playable video yet, a transcode job in the queue.
    const [transcode] = await t.ctx.db.select().from(jobs).where(eq(jobs.responseId, response.id));
    await t.ctx.db.update(testimonialResponses).set({ videoKey: null, posterKey: null }).where(eq(testimonialResponses.id, response.id));
    await t.ctx.db.update(jobs).set({ phase: 'running', progress: 40, finishedAt: null }).where(eq(jobs.id, transcode!.id));
    const preparing = await me.post(`/api/testimonials/response/${response.id}/generate-modified/intro`, { language: 'en' });
    expect(preparing.statusCode).toBe(409);
    expect(preparing.json()).toMatchObject({ code: 'conflict', error: 'This answer is still being prepared. Try again in a minute.' });
    expect((await me.post(`/api/testimonials/${tm.id}/merge`, { language: 'en' })).json().error).toMatch(/still being prepared/);
    // The company sees it preparing, with its progress, and no raw upload to play.
    expect((await detail()).testimonial_responses[0]).toMatchObject({ video_url: null, poster_url: null, media: { jobId: transcode!.id, phase: 'running', progress: 40, error: null } });

    await t.ctx.db.update(jobs).set({ phase: 'failed', errorReason: 'unreadable_upload', finishedAt: new Date() }).where(eq(jobs.id, transcode!.id));
    const failed = await me.post(`/api/testimonials/response/${response.id}/generate-modified/intro`, { language: 'en' });
    expect(failed.statusCode).toBe(409);
    expect(failed.json()).toMatchObject({ code: 'conflict', error: expect.stringMatching(/could not be prepared for playback/) });
    expect((await me.post(`/api/testimonials/${tm.id}/merge`, { language: 'en' })).json().error).toMatch(/could not be prepared for playback/);
    expect((await detail()).testimonial_responses[0].media).toMatchObject({ phase: 'failed', error: { reason: 'unreadable_upload', message: expect.stringMatching(/could not be read/) } });
    expect((await t.ctx.db.select().from(jobs).where(eq(jobs.requestId, tm.id)))).toHaveLength(1);
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

  it('burns edited cues into the answer and into the merged video, saving the cues with the job', async () => {
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
    expect(res.json().state).toMatchObject({ output: 'subtitles', phase: 'queued' });
    // Refused while it runs: the other cues are not saved either (one transaction).
    const refused = await me.post(`/api/testimonials/response/${response!.id}/generate-modified/subtitles`, { transcription: [{ start: 0, end: 1, text: 'Lost edit' }], language: 'en' });
    expect(refused.json().code).toBe('conflict');
    await expect.poll(async () => (await detail()).testimonial_responses[0].has_subtitles, { timeout: 90_000, interval: 500 }).toBe(true);
    const d = await detail();
    expect(d.testimonial_responses[0]).toMatchObject({ intro_generated: false, has_subtitles: true, modified_video_url: expect.stringMatching(/subtitles-/) });
    // The stored cues are the edited ones (the refused call saved nothing).
    const [stored] = await t.ctx.db.select().from(transcriptions).where(eq(transcriptions.responseId, response!.id));
    expect(stored).toMatchObject({ segments: cues, edited: true });

    const merged = await me.post(`/api/testimonials/${tm.id}/generate-merged-with-all-subtitles`, { transcriptions: [{ responseId: response!.id, transcription: cues }], language: 'en' });
    expect(merged.statusCode, merged.body).toBe(202);
    expect(merged.json().state).toMatchObject({ output: 'merged_subtitles', phase: 'queued' });
    await expect.poll(async () => (await detail()).has_subtitles, { timeout: 90_000, interval: 500 }).toBe(true);
    expect((await detail()).video_url_subtitles).toMatch(new RegExp(`merged-subtitles-${merged.json().jobId}`));
  }, 240_000);
});
