import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_REASON_MESSAGES, ZJob, type TJob, type TJobPhase } from '../../../contract/api/jobs.schema.js';
import en from '../../../web/i18n/en.json' with { type: 'json' };
import fr from '../../../web/i18n/fr.json' with { type: 'json' };
import { companies, jobs, testimonialRequests, testimonialResponses } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { completedTestimonial, settleDraft } from '../../test/testimonials.js';
import { renderOutput } from '../studio/render.job.js';

type Company = Awaited<ReturnType<typeof signedInCompany>>;

describe('media jobs', () => {
  let t: TestApp;
  beforeAll(async () => {
    // 'Ready' e-mails without their gathering time (studio/ready-mail.ts).
    t = await createTestApp({ work: true, env: { READY_MAIL_GATHER_SECONDS: '0' } });
  });
  afterAll(async () => {
    await t.close();
  });

  /** A paid testimonial of a new company whose answer is prepared (its transcode job ready). */
  async function preparedTestimonial() {
    const me = await signedInCompany(t);
    await t.ctx.db.update(companies).set({ credits: 5 }).where(eq(companies.id, me.companyId));
    const tm = await completedTestimonial(t, me);
    await me.post(`/api/testimonials/pay/${tm.id}`);
    const detail = async () => (await me.get(`/api/testimonials/request/${tm.id}?company_id=${me.companyId}`)).json().testimonial;
    await expect.poll(async () => (await detail()).testimonial_responses[0].media?.phase, { timeout: 60_000, interval: 200 }).toBe('ready');
    await settleDraft(t, tm.id);
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));
    return { me, tm, response: response!, detail };
  }

  const getJob = async (me: Company, id: string): Promise<TJob> => {
    const res = await me.get(`/api/jobs/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return ZJob.parse(res.json());
  };

  /**
   * Follows a job through GET /api/jobs/{id} until it is final, recording each phase seen in order,
   * from the phase its start call answered (the in-process worker often takes a job before the first
   * GET, so 'queued' is read from the start call's answer).
   */
  async function follow(me: Company, id: string, started?: TJobPhase, timeoutMs = 90_000): Promise<{ job: TJob; seen: TJobPhase[] }> {
    const seen: TJobPhase[] = started ? [started] : [];
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = await getJob(me, id);
      if (seen.at(-1) !== job.phase) seen.push(job.phase);
      if (['ready', 'failed', 'cancelled'].includes(job.phase)) return { job, seen };
      if (Date.now() > deadline) throw new Error(`job ${id} still ${job.phase} after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 40));
    }
  }

  /** The output is served from its signed address, and is an MP4 ffprobe reads. */
  async function expectMp4(url: string | null) {
    expect(url).toMatch(/^http:\/\/app\.test\/files\/.+\.mp4\?/);
    const { pathname, search } = new URL(url!);
    const res = await t.app.inject({ method: 'GET', url: pathname + search });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.rawPayload.subarray(4, 8).toString('latin1')).toBe('ftyp');
    const probed = await t.ctx.media.probe(path.join(t.config.mediaDir, decodeURIComponent(pathname.replace('/files/', ''))));
    expect(probed.video?.codec).toBe('h264');
  }

  it("answers a job of the company, lists one subject's jobs, and hides another company's jobs (404)", async () => {
    const { me, tm, response, detail } = await preparedTestimonial();
    const transcodeId = (await detail()).testimonial_responses[0].media.jobId as string;
    const transcode = await getJob(me, transcodeId);
    expect(transcode).toMatchObject({ id: transcodeId, kind: 'transcode', testimonialId: tm.id, responseId: response.id, phase: 'ready', progress: 100, error: null, attempts: 1 });
    expect(transcode.finishedAt).not.toBeNull();
    await expectMp4(transcode.outputUrl);

    const merge = (await me.post(`/api/testimonials/${tm.id}/merge`, { language: 'en' })).json();
    const all = (await me.get(`/api/jobs?testimonialId=${tm.id}`)).json().jobs as TJob[];
    // Newest first.
    expect(all.map((j) => j.id)).toEqual([merge.jobId, transcodeId]);
    const ofAnswer = (await me.get(`/api/jobs?testimonialId=${tm.id}&responseId=${response.id}`)).json().jobs as TJob[];
    expect(ofAnswer.map((j) => j.id)).toEqual([transcodeId]);

    const other = await signedInCompany(t);
    const hidden = await other.get(`/api/jobs/${transcodeId}`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().code).toBe('not_found');
    expect((await other.get(`/api/jobs?testimonialId=${tm.id}`)).json()).toEqual({ jobs: [] });
    expect((await other.post(`/api/jobs/${transcodeId}/retry`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/jobs/${transcodeId}` })).statusCode).toBe(401);
    expect((await me.get('/api/jobs/not-an-id')).statusCode).toBe(400);
    await follow(me, merge.jobId);
  }, 120_000);

  it('takes every render kind queued → running → ready through GET /api/jobs/{id}, with an MP4 output', async () => {
    const { me, tm, response } = await preparedTestimonial();
    const crop = { x: 0, y: 0, width: 0.5, height: 1 };
    const cues = [{ start: 0.1, end: 1.5, text: 'Every kind' }];
    const starts: [string, string, object][] = [
      ['intro', `/api/testimonials/response/${response.id}/generate-modified/intro`, { language: 'en' }],
      ['subtitles', `/api/testimonials/response/${response.id}/generate-modified/subtitles`, { transcription: cues, language: 'en' }],
      ['export', `/api/testimonials/response/${response.id}/export-v2`, { platform: 'shorts', videoType: 'modified', cropArea: crop, language: 'en' }],
      ['merge', `/api/testimonials/${tm.id}/merge`, { language: 'fr' }],
      ['merged_subtitles', `/api/testimonials/${tm.id}/generate-merged-with-all-subtitles`, { transcriptions: [{ responseId: response.id, transcription: cues }], language: 'fr' }],
      ['export', `/api/testimonials/${tm.id}/export-v2`, { platform: 'linkedin', videoType: 'original', cropArea: { x: 0, y: 0, width: 1, height: 1 }, language: 'fr' }],
    ];
    for (const [kind, url, body] of starts) {
      const res = await me.post(url, body);
      expect(res.statusCode, `${kind}: ${res.body}`).toBe(kind === 'export' ? 200 : 202);
      const { job, seen } = await follow(me, res.json().jobId, res.json().state.phase);
      expect(seen, kind).toEqual(['queued', 'running', 'ready']);
      expect(Date.parse(job.startedAt!)).toBeGreaterThanOrEqual(Date.parse(job.createdAt));
      expect(Date.parse(job.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(job.startedAt!));
      expect(job).toMatchObject({ kind, phase: 'ready', progress: 100, error: null, params: expect.objectContaining({ language: (body as { language: string }).language }) });
      await expectMp4(job.outputUrl);
    }
    // The rows point at the outputs of the latest jobs.
    const [answer] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, response.id));
    const [request] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, tm.id));
    const outputs = await t.ctx.db.select({ kind: jobs.kind, responseId: jobs.responseId, outputKey: jobs.outputKey }).from(jobs).where(eq(jobs.requestId, tm.id));
    const outputOf = (kind: string, ofAnswer: boolean) => outputs.find((o) => o.kind === kind && Boolean(o.responseId) === ofAnswer)?.outputKey;
    expect(answer).toMatchObject({ modifiedKey: outputOf('subtitles', true), shortKey: outputOf('export', true), introGenerated: true, hasSubtitles: true });
    expect(request).toMatchObject({ mergedKey: outputOf('merge', false), mergedSubtitlesKey: outputOf('merged_subtitles', false), shortOriginalKey: outputOf('export', false) });
  }, 240_000);

  it('records a failing render as failed with a translatable reason; a retry is a new job, a ready job is not retried', async () => {
    const { me, response, detail } = await preparedTestimonial();
    // The answer's prepared video disappears from storage: the render cannot succeed, and is not retried.
    const video = await readFile(path.join(t.config.mediaDir, response.videoKey!));
    await t.ctx.storage.delete(response.videoKey!);
    const start = (await me.post(`/api/testimonials/response/${response.id}/generate-modified/intro`, { language: 'fr' })).json();
    const { job: failed, seen } = await follow(me, start.jobId, start.state.phase);
    // It ran (a missing source fails fast: 'running' may pass between two reads) and failed for good.
    expect(seen.filter((phase) => phase !== 'running')).toEqual(['queued', 'failed']);
    expect(failed.startedAt).not.toBeNull();
    expect(failed).toMatchObject({ phase: 'failed', outputUrl: null, attempts: 1, error: { reason: 'source_missing', params: {}, message: JOB_REASON_MESSAGES.source_missing } });
    // The web translates the reason (en and fr catalogues).
    expect(en.jobs.reasons[failed.error!.reason]).toBe(JOB_REASON_MESSAGES.source_missing);
    expect(fr.jobs.reasons[failed.error!.reason]).toEqual(expect.any(String));
    expect((await detail()).testimonial_responses[0].render_state).toEqual({ output: 'intro', jobId: start.jobId, phase: 'failed', progress: 0, error: JOB_REASON_MESSAGES.source_missing });

    // The video is back: the retry is a new job of the same kind and parameters, which succeeds.
    await t.ctx.storage.put(response.videoKey!, video, 'video/mp4');
    const retry = await me.post(`/api/jobs/${start.jobId}/retry`);
    expect(retry.statusCode, retry.body).toBe(202);
    const again = ZJob.parse(retry.json());
    expect(again).toMatchObject({ kind: 'intro', responseId: response.id, params: { language: 'fr' }, phase: 'queued' });
    expect(again.id).not.toBe(start.jobId);
    const { job: ready } = await follow(me, again.id);
    expect(ready.phase).toBe('ready');
    expect((await getJob(me, start.jobId)).phase).toBe('failed');

    const notFailed = await me.post(`/api/jobs/${again.id}/retry`);
    expect(notFailed.statusCode).toBe(409);
    expect(notFailed.json()).toMatchObject({ code: 'conflict' });
  }, 120_000);

  it('fails an export whose source is not there with nothing_to_export', async () => {
    const { me, tm, response } = await preparedTestimonial();
    // An export job of the modified version whose answer has none (the start call refuses it; a job row may still say so).
    const [row] = await t.ctx.db
      .insert(jobs)
      .values({ companyId: me.companyId, kind: 'export', requestId: tm.id, responseId: response.id, params: { language: 'en', platform: 'shorts', videoType: 'modified', cropArea: { x: 0, y: 0, width: 1, height: 1 } } })
      .returning();
    await renderOutput(t.ctx, row!.id, { attempt: 0 });
    expect(await getJob(me, row!.id)).toMatchObject({ phase: 'failed', error: { reason: 'nothing_to_export', message: JOB_REASON_MESSAGES.nothing_to_export } });
  }, 60_000);

  it('refuses a second render of the same answer or testimonial while one is queued (409 conflict)', async () => {
    const { me, tm, response } = await preparedTestimonial();
    const url = `/api/testimonials/response/${response.id}/generate-modified/intro`;
    const both = await Promise.all([me.post(url, { language: 'en' }), me.post(url, { language: 'en' })]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([202, 409]);
    const refused = both.find((r) => r.statusCode === 409)!.json();
    expect(refused).toMatchObject({ code: 'conflict', error: 'A video of this answer is already being generated. Please wait for it to finish.' });
    // The testimonial's own renders are another subject: its merge may start meanwhile, but not twice.
    const merges = await Promise.all([me.post(`/api/testimonials/${tm.id}/merge`, { language: 'en' }), me.post(`/api/testimonials/${tm.id}/regenerate-merged`, { language: 'en' })]);
    expect(merges.map((r) => r.statusCode).sort()).toEqual([202, 409]);
    expect(merges.find((r) => r.statusCode === 409)!.json().code).toBe('conflict');
    const rows = await t.ctx.db.select().from(jobs).where(eq(jobs.requestId, tm.id));
    expect(rows.map((r) => r.kind).sort()).toEqual(['intro', 'merge', 'transcode']);
    for (const r of both.concat(merges).filter((x) => x.statusCode === 202)) await follow(me, r.json().jobId);
  }, 120_000);

  it('does a render delivered twice once: one output, one e-mail that names it', async () => {
    const { me, tm, response } = await preparedTestimonial();
    // A job row as the start call writes it, delivered by hand (no queue message: the worker never sees it).
    const [row] = await t.ctx.db.insert(jobs).values({ companyId: me.companyId, kind: 'intro', requestId: tm.id, responseId: response.id, params: { language: 'en' } }).returning();
    const jobId = row!.id;
    // Two deliveries at once (a redelivery while the first still runs), then one after it finished.
    await Promise.all([renderOutput(t.ctx, jobId, { attempt: 0 }), renderOutput(t.ctx, jobId, { attempt: 1 })]);
    const done = await getJob(me, jobId);
    expect(done).toMatchObject({ phase: 'ready', progress: 100 });
    await renderOutput(t.ctx, jobId, { attempt: 2 });
    const after = await getJob(me, jobId);
    // The output address is signed again at each read (its expiry moves with the clock): same file.
    const unsigned = (j: typeof done) => ({ ...j, outputUrl: j.outputUrl?.split('?')[0] });
    expect(unsigned(after)).toEqual(unsigned(done));

    const dir = path.join(t.config.mediaDir, 'companies', me.companyId, 'requests', tm.id, 'answers', response.id);
    expect((await readdir(dir)).filter((f) => f.startsWith('intro-') && f.endsWith('.mp4'))).toEqual([`intro-${jobId}.mp4`]);
    const [answer] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, response.id));
    expect(answer?.modifiedKey).toBe(done.outputUrl && decodeURIComponent(new URL(done.outputUrl).pathname.replace('/files/', '')));

    const ready = async () =>
      ((await t.app.inject({ method: 'GET', url: `/dev/outbox/messages.json?to=${me.email}` })).json() as { subject: string }[]).filter((m) => /^Answer with intro — /.test(m.subject));
    // Nobody followed it on a page: its 'ready' e-mail is sent, once.
    await expect.poll(async () => (await ready()).length, { timeout: 20_000, interval: 200 }).toBe(1);
    await new Promise((r) => setTimeout(r, 1500)); // a second e-mail would have been sent by now
    expect(await ready()).toHaveLength(1);
  }, 120_000);
});
