/**
 * Issue 29, the company's side of the customer's control, attacked through the server's own route table:
 * a testimonial whose consent was withdrawn cannot be published, rendered, exported, transcribed or
 * downloaded by any route (a route added later is called too, without touching this file); another
 * company cannot read its consent record nor ask or remind its approvals; a company cannot publish an
 * unapproved video when approval is required.
 */
import { Readable } from 'node:stream';
import { and, eq, isNull, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvals, companies, jobs, publications, testimonialRequests, testimonialResponses } from '../../src/server/db/schema.js';
import { signMediaPath } from '../../src/server/media/signed-urls.js';
import { signedInCompany } from '../../src/server/test/accounts.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';
import { completedTestimonial } from '../../src/server/test/testimonials.js';

type Company = Awaited<ReturnType<typeof signedInCompany>>;

const cue = [{ start: 0, end: 1.5, text: 'Hello there' }];
const crop = { x: 0.25, y: 0, width: 0.3, height: 1 };

describe('the customer in control: the company side under attack', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A paid testimonial whose answer plays (from its upload), a ready merge stored, and a live publication. */
  async function testimonialOf(me: Company) {
    await t.ctx.db.update(companies).set({ credits: 5 }).where(eq(companies.id, me.companyId));
    const tm = await completedTestimonial(t, me);
    expect((await me.post(`/api/testimonials/pay/${tm.id}`)).statusCode).toBe(200);
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));
    await t.ctx.db.update(testimonialResponses).set({ videoKey: response!.originalKey, durationSeconds: 2 }).where(eq(testimonialResponses.id, response!.id));
    const mergedKey = `companies/${me.companyId}/requests/${tm.id}/merged-s.mp4`;
    await t.ctx.storage.put(mergedKey, Readable.from([Buffer.from('merged')]), 'video/mp4');
    await t.ctx.db.update(testimonialRequests).set({ mergedKey }).where(eq(testimonialRequests.id, tm.id));
    const [merge] = await t.ctx.db
      .insert(jobs)
      .values({ companyId: me.companyId, requestId: tm.id, kind: 'merge', phase: 'ready', outputKey: mergedKey, result: { responseIds: [response!.id] }, finishedAt: new Date() })
      .returning();
    const [failed] = await t.ctx.db.insert(jobs).values({ companyId: me.companyId, requestId: tm.id, kind: 'merge', phase: 'failed', params: { language: 'en' } }).returning();
    const published = await me.post('/api/publications', { testimonialId: tm.id, jobId: merge!.id });
    expect(published.statusCode, published.body).toBe(201);
    return { id: tm.id, response: response!, merge: merge!, failed: failed!, publicationId: published.json<{ id: string }>().id, keys: [response!.originalKey, mergedKey] };
  }

  it('lets no route of the app publish, render, export, transcribe or download a withdrawn testimonial', async () => {
    const me = await signedInCompany(t);
    const v = await testimonialOf(me);
    // The customer withdraws (their page also takes the publications down: written here as it would).
    await t.ctx.db.update(testimonialRequests).set({ consentWithdrawnAt: new Date() }).where(eq(testimonialRequests.id, v.id));
    await t.ctx.db.update(publications).set({ unpublishedAt: new Date(), unpublishedReason: 'consent_withdrawn' }).where(eq(publications.requestId, v.id));
    const jobsBefore = (await t.ctx.db.select({ id: jobs.id }).from(jobs).where(and(eq(jobs.requestId, v.id), ne(jobs.kind, 'transcode')))).length;

    const bodies: Record<string, unknown> = {
      'POST /api/testimonials/response/:id/generate-modified/intro': { language: 'en' },
      'POST /api/testimonials/response/:id/regenerate': { language: 'en' },
      'POST /api/testimonials/:id/merge': { language: 'en' },
      'POST /api/testimonials/:id/regenerate-merged': { language: 'en' },
      'POST /api/testimonials/response/:id/generate-modified/subtitles': { transcription: cue, language: 'en' },
      'PUT /api/testimonials/response/:id/transcription': { transcription: cue },
      'PUT /api/testimonials/response/:id/trim': { start: 0.5, end: 1.6 },
      'POST /api/testimonials/:id/generate-merged-with-all-subtitles': { transcriptions: [{ responseId: v.response.id, transcription: cue }], language: 'en' },
      'POST /api/testimonials/response/:id/export-v2': { platform: 'shorts', videoType: 'original', cropArea: crop, language: 'en' },
      'POST /api/testimonials/:id/export-v2': { platform: 'shorts', videoType: 'original', cropArea: crop, language: 'en' },
      'POST /api/publications': { testimonialId: v.id, jobId: v.merge.id },
      'PUT /api/publications/:id/quote': { quote: null },
      'PUT /api/publications/:id/poster': { seconds: 0.5 },
      'PUT /api/wall': { items: [v.publicationId] },
      'POST /api/testimonials/:id/approvals': { jobId: v.merge.id },
    };
    const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
    const ids = [v.id, v.response.id, v.merge.id, v.failed.id, v.publicationId];
    const leaks = (body: string) => v.keys.some((k) => body.includes(k.split('/').map(encodeURIComponent).join('/')) || body.includes(k));
    const routes = t.app.routeTable.filter((r) => r.method !== 'OPTIONS' && !r.url.startsWith('/files/') && r.url !== '/*');
    expect(routes.length).toBeGreaterThan(40);
    for (const route of routes) {
      for (const id of /:[A-Za-z]+/.test(route.url) ? ids : [v.id]) {
        const url = route.url.replace(/:[A-Za-z]+/g, id).replace('*', 'x');
        const res = await t.app.inject({
          method: route.method as 'GET',
          url: `${url}${url.includes('?') ? '&' : '?'}company_id=${me.companyId}`,
          headers: { ...me.headers, ...(route.method === 'GET' ? {} : { 'content-type': 'application/json' }) },
          ...(route.method === 'GET' ? {} : { payload: JSON.stringify(bodies[key(route)] ?? {}) }),
        });
        expect(res.statusCode, `${key(route)} ${id}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
        expect(leaks(res.body), `${key(route)} ${id} hands out a media address of the withdrawn testimonial`).toBe(false);
        if (bodies[key(route)] && res.statusCode === 409) expect(res.json(), `${key(route)} ${id}`).toMatchObject({ reason: 'consent_withdrawn' });
      }
    }
    // Nothing was rendered, exported or transcribed, nothing is live, and no stored file is served.
    expect((await t.ctx.db.select({ id: jobs.id }).from(jobs).where(and(eq(jobs.requestId, v.id), ne(jobs.kind, 'transcode')))).length).toBe(jobsBefore);
    expect(await t.ctx.db.select().from(publications).where(and(eq(publications.requestId, v.id), isNull(publications.unpublishedAt)))).toEqual([]);
    for (const k of v.keys) {
      const res = await t.app.inject({ method: 'GET', url: signMediaPath(t.ctx.secrets.jwt, k) });
      expect(res.statusCode, k).toBe(404);
    }
  });

  it("keeps a testimonial's consent record and approvals to its own company", async () => {
    const victim = await signedInCompany(t);
    const attacker = await signedInCompany(t);
    const v = await testimonialOf(victim);
    const asked = await victim.post(`/api/testimonials/${v.id}/approvals`, { jobId: v.merge.id });
    expect(asked.statusCode, asked.body).toBe(201);
    const approvalId = asked.json<{ id: string }>().id;
    await t.ctx.db.update(approvals).set({ lastSentAt: new Date(Date.now() - 48 * 3600_000) }).where(eq(approvals.id, approvalId));

    expect((await attacker.get(`/api/testimonials/${v.id}/consent-record`)).statusCode).toBe(404);
    expect((await attacker.post(`/api/testimonials/${v.id}/approvals`, { jobId: v.merge.id })).statusCode).toBe(404);
    expect((await attacker.post(`/api/approvals/${approvalId}/remind`)).statusCode).toBe(404);
    expect((await attacker.put(`/api/testimonials/${v.id}/approval-required`, { required: false })).statusCode).toBe(404);
    // The attacker's own testimonial cannot be asked about the victim's video either.
    await t.ctx.db.update(companies).set({ credits: 5 }).where(eq(companies.id, attacker.companyId));
    const own = await completedTestimonial(t, attacker);
    expect((await attacker.post(`/api/testimonials/pay/${own.id}`)).statusCode).toBe(200);
    expect((await attacker.post(`/api/testimonials/${own.id}/approvals`, { jobId: v.merge.id })).statusCode).toBe(404);
    const [row] = await t.ctx.db.select().from(approvals).where(eq(approvals.id, approvalId));
    expect(row).toMatchObject({ reminderCount: 0, state: 'pending' });
    expect((await t.ctx.db.select().from(approvals).where(eq(approvals.requestId, v.id))).length).toBe(1);
  });

  it('never publishes an unapproved video when approval is required', async () => {
    const me = await signedInCompany(t);
    const v = await testimonialOf(me);
    await me.put('/api/user/approval-setting', { approval_required: true });
    const tries = [
      { testimonialId: v.id, jobId: v.merge.id },
      { testimonialId: v.id, responseId: v.response.id },
    ];
    for (const body of tries) expect((await me.post('/api/publications', body)).json()).toMatchObject({ code: 'conflict', reason: 'approval_required' });
    // An approval of another video (the answer) does not approve the merge.
    const asked = (await me.post(`/api/testimonials/${v.id}/approvals`, { responseId: v.response.id })).json<{ id: string }>();
    await t.ctx.db.update(approvals).set({ state: 'approved', decidedAt: new Date() }).where(eq(approvals.id, asked.id));
    expect((await me.post('/api/publications', tries[0])).json()).toMatchObject({ reason: 'approval_required' });
    // Nor does the testimonial's switch turned off by another company.
    const other = await signedInCompany(t);
    await other.put(`/api/testimonials/${v.id}/approval-required`, { required: false });
    expect((await me.post('/api/publications', tries[0])).json()).toMatchObject({ reason: 'approval_required' });
    expect((await t.ctx.db.select().from(publications).where(and(eq(publications.requestId, v.id), isNull(publications.unpublishedAt)))).length).toBe(1);
  });
});
