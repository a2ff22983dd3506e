import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, testimonialRequests, testimonialResponses } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { completedTestimonial } from '../../test/testimonials.js';
import { companies } from '../../db/schema.js';
import { cancelJob, completeJob, runJob } from '../jobs/jobs.service.js';

type Company = Awaited<ReturnType<typeof signedInCompany>>;

const cue = [{ start: 0, end: 1.5, text: 'Hello there' }];
const crop = { x: 0.25, y: 0, width: 0.3, height: 1 };

/**
 * Issue 29, the company's side: every action on a withdrawn testimonial is refused with the translated
 * reason and its date; a removed answer is refused on its own and left out of the testimonial's outputs;
 * the detail and the job follow give no media address; a cancelled job never turns ready.
 * No worker: the answer plays from its upload and renders are rows written here (render.test covers real renders).
 */
describe('the customer in control, company side', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A paid testimonial whose answer "plays" (its upload), a ready merge of it, a failed render, and a live publication. */
  async function prepared(me?: Company) {
    me ??= await signedInCompany(t);
    await t.ctx.db.update(companies).set({ credits: 5 }).where(eq(companies.id, me.companyId));
    const tm = await completedTestimonial(t, me);
    expect((await me.post(`/api/testimonials/pay/${tm.id}`)).statusCode).toBe(200);
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));
    await t.ctx.db.update(testimonialResponses).set({ videoKey: response!.originalKey, durationSeconds: 2 }).where(eq(testimonialResponses.id, response!.id));
    const mergedKey = `companies/${me.companyId}/requests/${tm.id}/merged-x.mp4`;
    await t.ctx.storage.put(mergedKey, Readable.from([Buffer.from('not really a video')]), 'video/mp4');
    await t.ctx.db.update(testimonialRequests).set({ mergedKey }).where(eq(testimonialRequests.id, tm.id));
    const [merge] = await t.ctx.db
      .insert(jobs)
      .values({ companyId: me.companyId, requestId: tm.id, kind: 'merge', phase: 'ready', outputKey: mergedKey, result: { responseIds: [response!.id] }, finishedAt: new Date() })
      .returning();
    const [failed] = await t.ctx.db.insert(jobs).values({ companyId: me.companyId, requestId: tm.id, responseId: response!.id, kind: 'intro', phase: 'failed', params: { language: 'en' } }).returning();
    const published = await me.post('/api/publications', { testimonialId: tm.id, responseId: response!.id });
    expect(published.statusCode, published.body).toBe(201);
    return { me, tm, response: response!, merge: merge!, failed: failed!, publicationId: published.json<{ id: string }>().id };
  }

  const detailOf = async (me: Company, id: string) => (await me.get(`/api/testimonials/request/${id}?company_id=${me.companyId}`)).json().testimonial;

  it('refuses every studio, transcription, publication and job action on a withdrawn testimonial, with the date', async () => {
    const p = await prepared();
    const { me, tm, response } = p;
    await t.ctx.db.update(testimonialRequests).set({ consentWithdrawnAt: new Date('2026-03-05T23:30:00Z') }).where(eq(testimonialRequests.id, tm.id));
    const calls: [string, string, object][] = [
      ['POST', `/api/testimonials/response/${response.id}/generate-modified/intro`, { language: 'en' }],
      ['POST', `/api/testimonials/response/${response.id}/regenerate`, { language: 'en' }],
      ['POST', `/api/testimonials/${tm.id}/merge`, { language: 'en' }],
      ['POST', `/api/testimonials/${tm.id}/regenerate-merged`, { language: 'en' }],
      ['POST', `/api/testimonials/response/${response.id}/generate-modified/subtitles`, { transcription: cue, language: 'en' }],
      ['POST', `/api/testimonials/${tm.id}/generate-merged-with-all-subtitles`, { transcriptions: [{ responseId: response.id, transcription: cue }], language: 'en' }],
      ['POST', `/api/testimonials/response/${response.id}/export-v2`, { platform: 'shorts', videoType: 'original', cropArea: crop, language: 'en' }],
      ['POST', `/api/testimonials/${tm.id}/export-v2`, { platform: 'shorts', videoType: 'original', cropArea: crop, language: 'en' }],
      ['POST', `/api/testimonials/response/${response.id}/transcribe`, {}],
      ['POST', `/api/testimonials/${tm.id}/transcribe-merged-responses`, {}],
      ['PUT', `/api/testimonials/response/${response.id}/transcription`, { transcription: cue }],
      ['POST', '/api/publications', { testimonialId: tm.id, responseId: response.id }],
      ['POST', '/api/publications', { testimonialId: tm.id, jobId: p.merge.id }],
      ['PUT', `/api/publications/${p.publicationId}/quote`, { quote: null }],
      ['PUT', `/api/publications/${p.publicationId}/poster`, { seconds: 0.5 }],
      ['PUT', '/api/wall', { items: [p.publicationId] }],
      ['POST', `/api/jobs/${p.failed.id}/retry`, {}],
      ['POST', `/api/testimonials/${tm.id}/approvals`, { jobId: p.merge.id }],
    ];
    for (const [method, url, payload] of calls) {
      const res = await t.app.inject({ method: method as 'POST', url, headers: me.headers, payload });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(409);
      expect(res.json(), `${method} ${url}`).toMatchObject({ code: 'conflict', reason: 'consent_withdrawn', params: { date: '05/03/2026' } });
    }
    // Nothing was queued by any of them.
    const started = await t.ctx.db.select().from(jobs).where(eq(jobs.requestId, tm.id));
    expect(started.filter((j) => j.kind !== 'transcode').map((j) => j.id).sort()).toEqual([p.merge.id, p.failed.id].sort());

    // No media address at all, the control state, and the list's marker.
    const d = await detailOf(me, tm.id);
    expect(d.consent_withdrawn_at).toBe('2026-03-05T23:30:00.000Z');
    expect(JSON.stringify(d)).not.toMatch(/\/files\//);
    expect(d.customer_control).toMatchObject({
      consent_withdrawn_at: '2026-03-05T23:30:00.000Z',
      media_deletion_due_at: new Date(Date.parse('2026-03-05T23:30:00Z') + t.config.consentWithdrawnRetentionDays * 86_400_000).toISOString(),
      media_deleted_at: null,
      approval_required: false,
      approval_required_override: null,
      approvals: [],
    });
    const list = (await me.get(`/api/testimonials/requests?company_id=${me.companyId}`)).json();
    expect(JSON.stringify(list)).toContain('2026-03-05T23:30:00.000Z');
    const followed = (await me.get(`/api/jobs/${p.merge.id}`)).json();
    expect(followed).toMatchObject({ phase: 'ready', outputUrl: null });
    expect((await me.get(`/api/jobs?testimonialId=${tm.id}`)).json().jobs.every((j: { outputUrl: string | null }) => j.outputUrl === null)).toBe(true);
  });

  it('spends no credit on a testimonial withdrawn before it was unlocked, and shows it without asking for one', async () => {
    const me = await signedInCompany(t);
    const tm = await completedTestimonial(t, me);
    await t.ctx.db.update(companies).set({ credits: 0 }).where(eq(companies.id, me.companyId));
    await t.ctx.db.update(testimonialRequests).set({ consentWithdrawnAt: new Date('2026-03-05T10:00:00Z') }).where(eq(testimonialRequests.id, tm.id));
    // No credit left: the detail still shows the withdrawal instead of asking to buy credits.
    const detail = (await me.get(`/api/testimonials/request/${tm.id}?company_id=${me.companyId}`)).json<{ testimonial: { paid: boolean; customer_control: { consent_withdrawn_at: string } } | null; error_credit: boolean }>();
    expect(detail.error_credit).toBe(false);
    expect(detail.testimonial?.paid).toBe(false);
    expect(detail.testimonial?.customer_control.consent_withdrawn_at).toBe('2026-03-05T10:00:00.000Z');
    // With credits, paying is refused with the reason and charges nothing.
    await t.ctx.db.update(companies).set({ credits: 3 }).where(eq(companies.id, me.companyId));
    const paid = await me.post(`/api/testimonials/pay/${tm.id}`);
    expect(paid.statusCode).toBe(409);
    expect(paid.json()).toMatchObject({ code: 'conflict', reason: 'consent_withdrawn', params: { date: '05/03/2026' } });
    const [company] = await t.ctx.db.select({ credits: companies.credits }).from(companies).where(eq(companies.id, me.companyId));
    expect(company!.credits).toBe(3);
    const [row] = await t.ctx.db.select({ paid: testimonialRequests.paid }).from(testimonialRequests).where(eq(testimonialRequests.id, tm.id));
    expect(row!.paid).toBe(false);
  });

  it('refuses a file of a withdrawn testimonial or a removed answer even at an address signed before, and measures the lookup', async () => {
    const p = await prepared();
    const before = await detailOf(p.me, p.tm.id);
    const answerUrl = new URL(before.testimonial_responses[0].video_url);
    const mergedUrl = new URL(before.video_url);
    const get = (u: URL) => t.app.inject({ method: 'GET', url: `${u.pathname}${u.search}` });
    expect((await get(answerUrl)).statusCode).toBe(200);
    // The lookup added to every file of a testimonial (decision 187): the request by its primary key, joined
    // to the answer's row by its primary key; timed alone, then with the whole request around it.
    const lookup = () =>
      t.ctx.db
        .select({ withdrawnAt: testimonialRequests.consentWithdrawnAt, removedAt: testimonialResponses.removalRequestedAt })
        .from(testimonialRequests)
        .leftJoin(testimonialResponses, eq(testimonialResponses.id, p.response.id))
        .where(eq(testimonialRequests.id, p.tm.id));
    const time = async (fn: () => Promise<unknown>) => {
      const started = performance.now();
      for (let i = 0; i < 50; i += 1) await fn();
      return (performance.now() - started) / 50;
    };
    const lookupMs = await time(lookup);
    const requestMs = await time(() => get(answerUrl));
    expect(lookupMs).toBeLessThan(requestMs);

    await t.ctx.db.update(testimonialResponses).set({ removalRequestedAt: new Date() }).where(eq(testimonialResponses.id, p.response.id));
    expect((await get(answerUrl)).statusCode).toBe(404);
    expect((await get(mergedUrl)).statusCode).toBe(200);
    await t.ctx.db.update(testimonialRequests).set({ consentWithdrawnAt: new Date() }).where(eq(testimonialRequests.id, p.tm.id));
    expect((await get(mergedUrl)).statusCode).toBe(404);
  });

  it('refuses a removed answer on its own, leaves it out of the testimonial, and refuses a merge with nothing left', async () => {
    const p = await prepared();
    const { me, tm, response } = p;
    await t.ctx.db.update(testimonialResponses).set({ removalRequestedAt: new Date('2026-04-01T10:00:00Z') }).where(eq(testimonialResponses.id, response.id));
    const answerCalls: [string, string, object][] = [
      ['POST', `/api/testimonials/response/${response.id}/generate-modified/intro`, { language: 'en' }],
      ['POST', `/api/testimonials/response/${response.id}/regenerate`, { language: 'en' }],
      ['POST', `/api/testimonials/response/${response.id}/generate-modified/subtitles`, { transcription: cue, language: 'en' }],
      ['POST', `/api/testimonials/response/${response.id}/export-v2`, { platform: 'shorts', videoType: 'original', cropArea: crop, language: 'en' }],
      ['POST', `/api/testimonials/response/${response.id}/transcribe`, {}],
      ['PUT', `/api/testimonials/response/${response.id}/transcription`, { transcription: cue }],
      ['POST', '/api/publications', { testimonialId: tm.id, responseId: response.id }],
      // The merge rendered with it in it cannot be published any more.
      ['POST', '/api/publications', { testimonialId: tm.id, jobId: p.merge.id }],
      ['PUT', `/api/publications/${p.publicationId}/quote`, { quote: null }],
      ['POST', `/api/jobs/${p.failed.id}/retry`, {}],
      ['POST', `/api/testimonials/${tm.id}/approvals`, { responseId: response.id }],
    ];
    for (const [method, url, payload] of answerCalls) {
      const res = await t.app.inject({ method: method as 'POST', url, headers: me.headers, payload });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(409);
      expect(res.json(), `${method} ${url}`).toMatchObject({ code: 'conflict', reason: 'answer_removed' });
    }
    const nothingLeft: [string, object][] = [
      [`/api/testimonials/${tm.id}/merge`, { language: 'en' }],
      [`/api/testimonials/${tm.id}/transcribe-merged-responses`, {}],
      [`/api/testimonials/${tm.id}/export-v2`, { platform: 'shorts', videoType: 'original', cropArea: crop, language: 'en' }],
    ];
    for (const [url, body] of nothingLeft) {
      const res = await me.post(url, body);
      expect(res.json(), url).toMatchObject({ code: 'conflict', reason: 'all_answers_removed' });
    }
    const d = await detailOf(me, tm.id);
    expect(d.testimonial_responses[0]).toMatchObject({ removal_requested_at: '2026-04-01T10:00:00.000Z', video_url: null, poster_url: null, modified_video_url: null });
    // The merged video holds the removed answer: no address for it either.
    expect(d.video_url).toBeNull();
  });

  it('never turns a cancelled job ready: the work that finishes after a cancel records nothing', async () => {
    const p = await prepared();
    const [job] = await t.ctx.db.insert(jobs).values({ companyId: p.me.companyId, requestId: p.tm.id, responseId: p.response.id, kind: 'intro', params: { language: 'en' } }).returning();
    await runJob(t.ctx, job!.id, { attempt: 0 }, async () => {
      await cancelJob(t.ctx.db, job!.id); // the customer withdrew while it ran
      await t.ctx.database.transaction(async (_executeSql, tx) => {
        await tx.update(testimonialResponses).set({ modifiedKey: 'companies/x/never.mp4' }).where(eq(testimonialResponses.id, p.response.id));
        await completeJob(tx, job!.id, { outputKey: 'companies/x/never.mp4' });
      });
    });
    const [after] = await t.ctx.db.select().from(jobs).where(eq(jobs.id, job!.id));
    expect(after).toMatchObject({ phase: 'cancelled', outputKey: null });
    const [answer] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, p.response.id));
    expect(answer!.modifiedKey).toBeNull();
  });
});
