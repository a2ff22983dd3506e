import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentEvents, testimonialRequests, testimonialResponses, transcriptions } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { startS3Server, type TestS3Server } from '../../test/s3-server.js';
import { completedTestimonial } from '../../test/testimonials.js';
import { withdrawConsent } from './customer.service.js';
import { hashCustomerToken, newCustomerToken } from './customer.tokens.js';
import { runMediaDeletion, testimonialPrefix } from './retention.service.js';

const DAY = 86_400_000;

/**
 * The retention of a withdrawn testimonial's media (issue 29, decision 185), on local disk and on a real
 * S3-compatible server: the job deletes every stored object of the testimonial once the period is over,
 * never before (its clock is a parameter), and nothing of any other testimonial.
 */
describe.each([
  { store: 'local disk', s3: false, days: 30 },
  { store: 'S3 (s3rver), CONSENT_WITHDRAWN_RETENTION_DAYS=0', s3: true, days: 0 },
])('media deletion after a withdrawal, on $store', ({ s3: onS3, days }) => {
  let t: TestApp;
  let s3: TestS3Server | undefined;

  beforeAll(async () => {
    if (onS3) s3 = await startS3Server();
    t = await createTestApp({ env: { ...(s3?.env ?? {}), CONSENT_WITHDRAWN_RETENTION_DAYS: String(days) } });
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  /** A submitted testimonial with a render and a poster beside its answer, its page token, and its objects. */
  async function testimonial(me: Awaited<ReturnType<typeof signedInCompany>>) {
    const tm = await completedTestimonial(t, me);
    const [request] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, tm.id));
    const [answer] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));
    const prefix = testimonialPrefix(request!);
    await t.ctx.storage.put(`${prefix}answers/${answer!.id}/video.mp4`, Buffer.from('mp4'), 'video/mp4');
    await t.ctx.storage.put(`${prefix}renders/merged.mp4`, Buffer.from('render'), 'video/mp4');
    await t.ctx.db.insert(transcriptions).values({ responseId: answer!.id, companyId: me.companyId, engine: 'edited', language: 'en', segments: [{ start: 0, end: 1, text: 'Hi' }] });
    const token = newCustomerToken();
    await t.ctx.db.update(testimonialRequests).set({ customerPageTokenHash: hashCustomerToken(token) }).where(eq(testimonialRequests.id, tm.id));
    return { id: tm.id, prefix, token, answerId: answer!.id };
  }
  const stored = async (prefix: string) => (s3 ? (await s3.keys()).filter((k) => k.startsWith(prefix)) : await t.ctx.storage.list(prefix));

  it('deletes every object and transcript of the testimonial when the period is over, never before, and nothing else', async () => {
    const me = await signedInCompany(t);
    const gone = await testimonial(me);
    const kept = await testimonial(me);
    expect(await stored(gone.prefix)).toHaveLength(3);

    const withdrawnAt = new Date();
    await withdrawConsent(t.ctx, gone.token, { ip: '10.1.2.3', userAgent: 'test' }, withdrawnAt);
    const { rows } = (await t.ctx.database.executeSql("select data, start_after from pgboss.job where name = 'delete-withdrawn-media'")) as {
      rows: { data: { requestId: string }; start_after: Date }[];
    };
    const scheduled = rows.find((r) => r.data.requestId === gone.id)!;
    expect(Math.abs(scheduled.start_after.getTime() - (withdrawnAt.getTime() + days * DAY))).toBeLessThan(5_000);

    if (days > 0) {
      // Early (a message run before its time, or a clock a moment short): nothing deleted, sent again.
      expect(await runMediaDeletion(t.ctx, gone.id, new Date(withdrawnAt.getTime() + days * DAY - 60_000))).toBe('rescheduled');
      expect(await stored(gone.prefix)).toHaveLength(3);
      expect((await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, gone.id)))[0]!.mediaDeletedAt).toBeNull();
    }
    const due = new Date(withdrawnAt.getTime() + days * DAY);
    expect(await runMediaDeletion(t.ctx, gone.id, due)).toBe('deleted');
    expect(await stored(gone.prefix)).toEqual([]);
    expect(await t.ctx.db.select().from(transcriptions).where(eq(transcriptions.responseId, gone.answerId))).toEqual([]);
    const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, gone.id));
    expect(row!.mediaDeletedAt).toEqual(due);
    expect(await t.ctx.db.select().from(consentEvents).where(and(eq(consentEvents.requestId, gone.id), eq(consentEvents.kind, 'media_deleted')))).toHaveLength(1);
    // The second pass, later: an output a job still running at the withdrawal wrote late goes too.
    const { rows: sweeps } = (await t.ctx.database.executeSql("select data from pgboss.job where name = 'delete-withdrawn-media'")) as { rows: { data: { requestId: string; sweep?: boolean } }[] };
    expect(sweeps.some((r) => r.data.requestId === gone.id && r.data.sweep)).toBe(true);
    await t.ctx.storage.put(`${gone.prefix}renders/late.mp4`, Buffer.from('late'), 'video/mp4');
    expect(await runMediaDeletion(t.ctx, gone.id, new Date(due.getTime() + 3_600_000), { sweep: true })).toBe('swept');
    expect(await stored(gone.prefix)).toEqual([]);
    expect(await runMediaDeletion(t.ctx, kept.id, new Date(), { sweep: true })).toBe('nothing');
    // Run again (a duplicate message): nothing to do.
    expect(await runMediaDeletion(t.ctx, gone.id, new Date(due.getTime() + DAY))).toBe('nothing');
    // The other testimonial, never withdrawn, keeps everything; the job does nothing for it.
    expect(await runMediaDeletion(t.ctx, kept.id, new Date(Date.now() + 400 * DAY))).toBe('nothing');
    expect(await stored(kept.prefix)).toHaveLength(3);
    // The customer's page says the videos were deleted, and plays none.
    const page = await t.app.inject({ method: 'GET', url: `/my-testimonial/${gone.token}` });
    expect(page.body).not.toContain('data-testid="customer-answer"');
    expect((await t.app.inject({ method: 'GET', url: `/my-testimonial/${gone.token}/answers/${gone.answerId}` })).statusCode).toBe(404);
  });

  it('lets the company delete a withdrawn testimonial’s media earlier, and only a withdrawn one of its own', async () => {
    const me = await signedInCompany(t);
    const intruder = await signedInCompany(t);
    const tm = await testimonial(me);
    const url = `/api/testimonials/${tm.id}/delete-media`;
    const notYet = await me.post(url);
    expect(notYet.statusCode).toBe(409);
    expect(notYet.json()).toMatchObject({ code: 'conflict', reason: 'media_delete_not_withdrawn' });
    await withdrawConsent(t.ctx, tm.token, { ip: '10.1.2.4', userAgent: undefined });
    expect((await intruder.post(url)).statusCode).toBe(404);
    expect(await stored(tm.prefix)).toHaveLength(3);
    const done = await me.post(url);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<{ media_deleted_at: string }>().media_deleted_at).toMatch(/^\d{4}-/);
    expect(await stored(tm.prefix)).toEqual([]);
    // Again: the same answer, nothing more recorded.
    expect((await me.post(url)).json()).toEqual(done.json());
    expect(await t.ctx.db.select().from(consentEvents).where(and(eq(consentEvents.requestId, tm.id), eq(consentEvents.kind, 'media_deleted')))).toHaveLength(1);
  });
});
