import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, jobs } from '../../db/schema.js';
import { signMediaPath } from '../../media/signed-urls.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { completedTestimonial } from '../../test/testimonials.js';
import { transcodeAnswer } from '../submissions/transcode.service.js';

describe('pay to view, detail, media and transactions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const setCredits = (companyId: string, credits: number) => t.ctx.db.update(companies).set({ credits }).where(eq(companies.id, companyId));
  /** Runs the testimonial's transcode jobs through the worker's handler (this app runs no worker). */
  const prepare = async (requestId: string) => {
    for (const job of await t.ctx.db.select().from(jobs).where(eq(jobs.requestId, requestId))) await transcodeAnswer(t.ctx, job.id, { attempt: 0 });
  };

  it('reveals no media before payment, spends one credit once, then serves signed media with ranges', async () => {
    const me = await signedInCompany(t);
    const tm = await completedTestimonial(t, me);

    const before = (await me.get(`/api/testimonials/request/${tm.id}?company_id=${me.companyId}`)).json();
    expect(before.error_credit).toBe(false);
    expect(before.testimonial).toMatchObject({ id: tm.id, status: 'completed', paid: false });
    expect(before.testimonial.testimonial_responses[0].video_url).toBeNull();

    const pay = await me.post(`/api/testimonials/pay/${tm.id}`);
    expect(pay.statusCode, pay.body).toBe(200);
    expect(pay.json()).toEqual({ success: true, paid: true, credits: 0 });
    // Paying again charges nothing.
    expect((await me.post(`/api/testimonials/pay/${tm.id}`)).json()).toEqual({ success: true, paid: true, credits: 0 });

    // Paid, but not prepared yet: no raw upload is handed out, the answer says it is being prepared.
    const preparing = (await me.get(`/api/testimonials/request/${tm.id}?company_id=${me.companyId}`)).json();
    expect(preparing.testimonial.paid).toBe(true);
    const [transcode] = await t.ctx.db.select().from(jobs).where(eq(jobs.requestId, tm.id));
    expect(preparing.testimonial.testimonial_responses[0]).toMatchObject({ video_url: null, poster_url: null, media: { jobId: transcode!.id, phase: 'queued', progress: 0, error: null } });

    await prepare(tm.id);
    const after = (await me.get(`/api/testimonials/request/${tm.id}?company_id=${me.companyId}`)).json();
    expect(after.testimonial.testimonial_responses[0]).toMatchObject({ poster_url: expect.stringMatching(/^http/), media: { jobId: transcode!.id, phase: 'ready', progress: 100, error: null } });
    const videoUrl = new URL(after.testimonial.testimonial_responses[0].video_url);
    expect(videoUrl.pathname).toMatch(new RegExp(`^/files/companies/${me.companyId}/requests/${tm.id}/answers/`));
    const path = videoUrl.pathname + videoUrl.search;

    const full = await t.app.inject({ method: 'GET', url: path });
    expect(full.statusCode).toBe(200);
    expect(full.headers['content-type']).toBe('video/mp4'); // the transcoded answer, not the WebM upload
    const size = Number(full.headers['content-length']);
    expect(size).toBeGreaterThan(1000);
    const part = await t.app.inject({ method: 'GET', url: path, headers: { range: 'bytes=100-199' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${size}`);
    expect(part.rawPayload.length).toBe(100);

    // An answer prepared before jobs existed (a video, no transcode job) is ready.
    await t.ctx.db.delete(jobs).where(eq(jobs.requestId, tm.id));
    const old = (await me.get(`/api/testimonials/request/${tm.id}?company_id=${me.companyId}`)).json();
    expect(old.testimonial.testimonial_responses[0]).toMatchObject({ video_url: expect.stringMatching(/^http/), media: { jobId: null, phase: 'ready', progress: 100, error: null } });

    const ledger = (await me.get('/api/payment/list-transaction')).json();
    expect(ledger.map((x: { transaction_type: string }) => x.transaction_type).sort()).toEqual(['signup_bonus', 'testimonial_payment']);
    expect(ledger.find((x: { transaction_type: string }) => x.transaction_type === 'testimonial_payment').testimonial).toEqual({ id: tm.id, customer_name: expect.stringMatching(/^Customer/) });
  });

  it('refuses expired, tampered, moved and unpaid media addresses', async () => {
    const me = await signedInCompany(t);
    const paid = await completedTestimonial(t, me);
    await setCredits(me.companyId, 5);
    await me.post(`/api/testimonials/pay/${paid.id}`);
    await prepare(paid.id);
    const detail = (await me.get(`/api/testimonials/request/${paid.id}?company_id=${me.companyId}`)).json();
    const good = new URL(detail.testimonial.testimonial_responses[0].video_url);
    const key = decodeURIComponent(good.pathname.replace('/files/', ''));

    const expired = signMediaPath(t.ctx.secrets.jwt, key, 60, Date.now() - 3_600_000);
    expect((await t.app.inject({ method: 'GET', url: expired })).statusCode).toBe(403);
    // One character of the signature changed (to another character, whatever the first one is).
    const tampered = `${good.pathname}?${good.searchParams.toString().replace(/sig=(.)/, (_m, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`)}`;
    expect((await t.app.inject({ method: 'GET', url: tampered })).statusCode).toBe(403);
    const guessed = `${good.pathname}?exp=9999999999&sig=${'a'.repeat(43)}`;
    expect((await t.app.inject({ method: 'GET', url: guessed })).statusCode).toBe(403);

    // The same signature moved to another company's file.
    const other = await signedInCompany(t);
    const theirs = await completedTestimonial(t, other);
    const moved = `${good.pathname.replace(me.companyId, other.companyId).replace(paid.id, theirs.id)}${good.search}`;
    expect((await t.app.inject({ method: 'GET', url: moved })).statusCode).toBe(403);

    // A validly signed address of an answer whose testimonial is unpaid is still refused.
    const unpaid = await completedTestimonial(t, me);
    const unpaidKey = key.replace(paid.id, unpaid.id);
    expect((await t.app.inject({ method: 'GET', url: signMediaPath(t.ctx.secrets.jwt, unpaidKey) })).statusCode).toBe(403);
  });

  it('says error_credit when there is no credit left, and refuses to pay with the no-credits message', async () => {
    const me = await signedInCompany(t);
    const tm = await completedTestimonial(t, me);
    await setCredits(me.companyId, 0);
    expect((await me.get(`/api/testimonials/request/${tm.id}?company_id=${me.companyId}`)).json()).toEqual({ testimonial: null, error_credit: true });
    const res = await me.post(`/api/testimonials/pay/${tm.id}`);
    expect(res.statusCode).toBe(402);
    expect(res.json().error).toBe('You have no credits left. Buy credits to view this testimonial.');
  });

  it('gives exactly one success for twenty concurrent payments with one credit, never below zero', async () => {
    const me = await signedInCompany(t);
    const testimonials = [];
    for (let i = 0; i < 20; i++) testimonials.push(await completedTestimonial(t, me));
    await setCredits(me.companyId, 1);
    const results = await Promise.all(testimonials.map((x) => me.post(`/api/testimonials/pay/${x.id}`)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 402)).toHaveLength(19);
    const [company] = await t.ctx.db.select({ credits: companies.credits }).from(companies).where(eq(companies.id, me.companyId));
    expect(company?.credits).toBe(0);

    // Twenty concurrent payments of the same testimonial charge it once.
    const one = await completedTestimonial(t, me);
    await setCredits(me.companyId, 3);
    const same = await Promise.all(Array.from({ length: 20 }, () => me.post(`/api/testimonials/pay/${one.id}`)));
    expect(same.every((r) => r.statusCode === 200)).toBe(true);
    const [afterSame] = await t.ctx.db.select({ credits: companies.credits }).from(companies).where(eq(companies.id, me.companyId));
    expect(afterSame?.credits).toBe(2);
  }, 120_000);

  it("keeps every call to its company: another company's testimonial is not found and cannot be paid", async () => {
    const me = await signedInCompany(t);
    const other = await signedInCompany(t);
    const tm = await completedTestimonial(t, me);
    expect((await other.get(`/api/testimonials/request/${tm.id}?company_id=${other.companyId}`)).json()).toEqual({ testimonial: null, error_credit: false });
    expect((await other.get(`/api/testimonials/request/${tm.id}?company_id=${me.companyId}`)).statusCode).toBe(403);
    expect((await other.post(`/api/testimonials/pay/${tm.id}`)).statusCode).toBe(404);
    expect((await other.get('/api/payment/list-transaction')).json()).toHaveLength(1);
  });
});
