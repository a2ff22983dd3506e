import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { companies, companyEvents, webhookDeliveries, webhookEndpoints } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { completedTestimonial } from '../../test/testimonials.js';
import { webhookReceiver } from '../../test/webhook-receiver.js';
import { recordEvent } from '../events/events.service.js';
import { attemptDelivery, FAILING_DISABLE_MS, RETRY_SCHEDULE_MS } from './delivery.service.js';

type Me = Awaited<ReturnType<typeof signedInCompany>>;
type Receiver = Awaited<ReturnType<typeof webhookReceiver>>;

/**
 * Webhooks with the worker stopped: the test sends each delivery itself (attemptDelivery) and moves the
 * clock by giving it `now`, so 24 hours of retries and 5 days of failures take no time. A real receiver
 * on loopback verifies every delivery with the standardwebhooks library.
 */
describe('webhooks', () => {
  let t: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE: 'on' } });
    receiver = await webhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.answerWith(() => 200);
  });

  async function endpoint(me: Me, events: string[] = ['testimonial.submitted', 'testimonial.paid']) {
    const res = await me.post('/api/webhooks', { url: receiver.url, events });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<{ id: string; secret: string }>();
    receiver.setSecret(created.secret);
    return created;
  }
  const deliveriesOf = (endpointId: string) => t.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
  const mailJobs = async (text: string) =>
    (
      (await t.ctx.database.executeSql("select data from pgboss.job where name = 'send-mail'")) as {
        rows: { data: { to: string; subject: string; text: string } }[];
      }
    ).rows.filter((r) => r.data.text.includes(text));

  it('creates an endpoint with a whsec_ secret shown once, lists, updates and deletes it; refuses bad input with the field named', async () => {
    const me = await signedInCompany(t);
    const created = await endpoint(me);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const list = await me.get('/api/webhooks');
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.secret);
    expect(list.json().endpoints).toEqual([
      expect.objectContaining({ id: created.id, url: receiver.url, enabled: true, failing_since: null, disabled_reason: null }),
    ]);

    const updated = await me.put(`/api/webhooks/${created.id}`, { events: ['render.ready'], enabled: false });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ events: ['render.ready'], enabled: false });

    for (const [body, field] of [
      [{ url: 'not a url', events: ['render.ready'] }, 'url'],
      [{ url: receiver.url, events: [] }, 'events'],
      [{ url: receiver.url, events: ['nope'] }, 'events'],
      [{ url: 'ftp://example.com/x', events: ['render.ready'] }, 'url'],
    ] as const) {
      const res = await me.post('/api/webhooks', body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_data' });
      expect(res.body).toContain(field);
    }
    const rotated = await me.post(`/api/webhooks/${created.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().secret).not.toBe(created.secret);

    const other = await signedInCompany(t);
    expect((await other.put(`/api/webhooks/${created.id}`, { enabled: true })).statusCode).toBe(404);
    expect((await other.get(`/api/webhooks/${created.id}/deliveries`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/webhooks/${created.id}`, headers: other.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/webhooks/${created.id}`, headers: me.headers })).statusCode).toBe(204);
    expect((await me.get('/api/webhooks')).json().endpoints).toEqual([]);
  });

  it('records the submission and the payment in their transactions and delivers each once, signed, verified by the receiver', async () => {
    const me = await signedInCompany(t);
    await t.ctx.db.update(companies).set({ credits: 2 }).where(eq(companies.id, me.companyId));
    const ep = await endpoint(me);
    const tm = await completedTestimonial(t, me);
    expect((await me.post(`/api/testimonials/pay/${tm.id}`)).statusCode).toBe(200);

    const events = await t.ctx.db.select().from(companyEvents).where(eq(companyEvents.companyId, me.companyId));
    // request.sent is the activity log's only (decision 220): recorded, never delivered.
    expect(events.map((e) => e.type).sort()).toEqual(['request.sent', 'testimonial.paid', 'testimonial.submitted']);
    const deliveries = await deliveriesOf(ep.id);
    expect(deliveries).toHaveLength(2);
    // The outbox: each delivery's queue message committed with it.
    const { rows } = (await t.ctx.database.executeSql("select data from pgboss.job where name = 'deliver-webhook'")) as {
      rows: { data: { deliveryId: string } }[];
    };
    for (const d of deliveries) expect(rows.some((r) => r.data.deliveryId === d.id)).toBe(true);

    for (const d of deliveries) expect(await attemptDelivery(t.ctx, d.id)).toBe('succeeded');
    // Sent twice more: nothing (the row says it is done).
    for (const d of deliveries) expect(await attemptDelivery(t.ctx, d.id)).toBe('skipped');
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    expect(receiver.received.map((r) => r.type).sort()).toEqual(['testimonial.paid', 'testimonial.submitted']);
    expect(receiver.received.find((r) => r.type === 'testimonial.paid')!.data).toEqual({ testimonial_id: tm.id });
    expect(new Set(receiver.received.map((r) => r.id))).toEqual(new Set(deliveries.map((d) => d.id)));
  });

  it('retries after a 500 on the schedule, keeps the webhook-id, and sends nothing more after a 200 (controlled clock)', async () => {
    const me = await signedInCompany(t);
    const ep = await endpoint(me);
    await completedTestimonial(t, me);
    const [d] = await deliveriesOf(ep.id);
    const start = d!.seriesStartedAt.getTime();
    receiver.answerWith((n) => (n < 3 ? 500 : 200));

    // PostgreSQL keeps microseconds and a Date milliseconds: the first attempt is due 1 ms after the Date read back.
    expect(await attemptDelivery(t.ctx, d!.id, new Date(start + 1))).toBe('retry');
    let [row] = await deliveriesOf(ep.id);
    expect(row!.nextAttemptAt.getTime()).toBe(start + RETRY_SCHEDULE_MS[1]);
    // Before it is due: nothing is sent.
    expect(await attemptDelivery(t.ctx, d!.id, new Date(start + 1000))).toBe('skipped');
    expect(await attemptDelivery(t.ctx, d!.id, new Date(start + RETRY_SCHEDULE_MS[1]))).toBe('retry');
    [row] = await deliveriesOf(ep.id);
    expect(row!.nextAttemptAt.getTime()).toBe(start + RETRY_SCHEDULE_MS[2]);
    expect(await attemptDelivery(t.ctx, d!.id, new Date(start + RETRY_SCHEDULE_MS[2]))).toBe('retry');
    expect(await attemptDelivery(t.ctx, d!.id, new Date(start + RETRY_SCHEDULE_MS[3]))).toBe('succeeded');
    expect(await attemptDelivery(t.ctx, d!.id, new Date(start + RETRY_SCHEDULE_MS[7]))).toBe('skipped');

    expect(receiver.received.map((r) => r.status)).toEqual([500, 500, 500, 200]);
    expect(new Set(receiver.received.map((r) => r.id))).toEqual(new Set([d!.id]));
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    // The endpoint failed, then recovered.
    const [after] = await t.ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, ep.id));
    expect(after!.failingSince).toBeNull();

    // The log: every attempt with its status, duration and response code, newest first.
    const log = await me.get(`/api/webhooks/${ep.id}/deliveries?per_page=5`);
    expect(log.statusCode, log.body).toBe(200);
    const [entry] = log.json().data;
    expect(entry).toMatchObject({ id: d!.id, type: 'testimonial.submitted', status: 'succeeded', next_attempt_at: null });
    expect(entry.attempts.map((a: { response_status: number }) => a.response_status)).toEqual([200, 500, 500, 500]);
    expect(entry.attempts[0]).toMatchObject({ ok: true, error: null, duration_ms: expect.any(Number) });
    expect(entry.attempts[1].error).toContain('500');
  });

  it('gives up at the end of the 24-hour window, and "send again" starts a new series with the same webhook-id', async () => {
    const me = await signedInCompany(t);
    const ep = await endpoint(me);
    await completedTestimonial(t, me);
    const [d] = await deliveriesOf(ep.id);
    const start = d!.seriesStartedAt.getTime();
    receiver.answerWith(() => 503);
    const outcomes = [];
    // + 1 ms: PostgreSQL keeps microseconds and a Date milliseconds (the first attempt is due at the stored time).
    for (const offset of RETRY_SCHEDULE_MS) outcomes.push(await attemptDelivery(t.ctx, d!.id, new Date(start + offset + 1)));
    expect(outcomes).toEqual([...RETRY_SCHEDULE_MS.slice(1).map(() => 'retry'), 'failed']);
    expect(RETRY_SCHEDULE_MS.at(-1)).toBe(24 * 3600_000);
    expect((await deliveriesOf(ep.id))[0]!.status).toBe('failed');

    receiver.answerWith(() => 200);
    const again = await me.post(`/api/webhooks/${ep.id}/deliveries/${d!.id}/redeliver`);
    expect(again.statusCode, again.body).toBe(202);
    expect(await attemptDelivery(t.ctx, d!.id)).toBe('succeeded');
    expect(receiver.received.at(-1)).toMatchObject({ id: d!.id, status: 200, verified: true });
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1);

    // Another company's delivery id, or one of another endpoint: 404.
    const other = await signedInCompany(t);
    expect((await other.post(`/api/webhooks/${ep.id}/deliveries/${d!.id}/redeliver`)).statusCode).toBe(404);
  });

  it('sends a test event, logged as a delivery', async () => {
    const me = await signedInCompany(t);
    const ep = await endpoint(me, ['render.ready']);
    const res = await me.post(`/api/webhooks/${ep.id}/test`);
    expect(res.statusCode, res.body).toBe(202);
    expect(await attemptDelivery(t.ctx, res.json().id)).toBe('succeeded');
    expect(receiver.received).toEqual([expect.objectContaining({ type: 'webhook.test', verified: true, id: res.json().id })]);
    expect((await t.ctx.db.select().from(companyEvents).where(eq(companyEvents.companyId, me.companyId))).length).toBe(0);
    // A turned-off endpoint sends nothing, not even a test.
    await me.put(`/api/webhooks/${ep.id}`, { enabled: false });
    const refused = await me.post(`/api/webhooks/${ep.id}/test`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toContain('turned off');
  });

  it('turns off an endpoint whose every delivery failed for 5 days, and e-mails the company', async () => {
    const me = await signedInCompany(t);
    const ep = await endpoint(me);
    await completedTestimonial(t, me);
    const [d] = await deliveriesOf(ep.id);
    receiver.answerWith(() => 500);
    const now = Date.now();
    // Failing for a little under 5 days: still on.
    await t.ctx.db
      .update(webhookEndpoints)
      .set({ failingSince: new Date(now - FAILING_DISABLE_MS + 60_000) })
      .where(eq(webhookEndpoints.id, ep.id));
    expect(await attemptDelivery(t.ctx, d!.id, new Date(now))).toBe('retry');
    let [row] = await t.ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, ep.id));
    expect(row!.enabled).toBe(true);
    expect(await mailJobs(receiver.url)).toHaveLength(0);
    // Five days on: turned off, its pending deliveries cancelled, the owner told once.
    expect(await attemptDelivery(t.ctx, d!.id, new Date(now + RETRY_SCHEDULE_MS[2]))).toBe('retry');
    [row] = await t.ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, ep.id));
    expect(row).toMatchObject({ enabled: false, disabledReason: 'failing' });
    expect((await deliveriesOf(ep.id))[0]!.status).toBe('cancelled');
    const mails = await mailJobs(receiver.url);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.data).toMatchObject({ to: me.email, subject: 'A webhook endpoint was turned off' });
    expect((await me.get('/api/webhooks')).json().endpoints[0]).toMatchObject({ enabled: false, disabled_reason: 'failing' });
    // Nothing is sent to it any more, and a new event makes no delivery for it.
    expect(await attemptDelivery(t.ctx, d!.id, new Date(now + RETRY_SCHEDULE_MS[3]))).toBe('skipped');
    await completedTestimonial(t, me);
    expect(await deliveriesOf(ep.id)).toHaveLength(1);
    // Turned on again by the company: a fresh start.
    const on = await me.put(`/api/webhooks/${ep.id}`, { enabled: true });
    expect(on.json()).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
  });

  it('records nothing when the change rolls back: no event, no delivery, no queue message', async () => {
    const me = await signedInCompany(t);
    const ep = await endpoint(me);
    const count = async () =>
      ((await t.ctx.database.executeSql("select count(*)::int as n from pgboss.job where name = 'deliver-webhook'")) as { rows: { n: number }[] }).rows[0]!.n;
    const before = await count();
    await expect(
      t.ctx.database.transaction(async (executeSql, tx) => {
        await recordEvent(t.ctx, { tx, executeSql }, me.companyId, 'testimonial.submitted', {
          testimonial_id: '00000000-0000-4000-8000-000000000000',
          answers: 1,
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await t.ctx.db.select().from(companyEvents).where(eq(companyEvents.companyId, me.companyId))).toHaveLength(0);
    expect(await deliveriesOf(ep.id)).toHaveLength(0);
    expect(await count()).toBe(before);
    // A payment refused for want of credit (402) records no 'testimonial.paid'.
    const tm = await completedTestimonial(t, me);
    await t.ctx.db.update(companies).set({ credits: 0 }).where(eq(companies.id, me.companyId));
    expect((await me.post(`/api/testimonials/pay/${tm.id}`)).statusCode).toBe(402);
    const paid = await t.ctx.db
      .select()
      .from(companyEvents)
      .where(and(eq(companyEvents.companyId, me.companyId), eq(companyEvents.type, 'testimonial.paid')));
    expect(paid).toHaveLength(0);
  });
});
