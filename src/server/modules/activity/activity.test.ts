import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITY_ONLY_EVENT_TYPES, type TActivityEvent, type TActivityPage } from '../../../contract/api/activity.schema.js';
import { WEBHOOK_EVENT_TYPES } from '../../../contract/api/webhooks.schema.js';
import { companyEvents, invitations, jobs, testimonialRequests, webhookDeliveries } from '../../db/schema.js';
import { memberOf, signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { paidTestimonial } from '../../test/publishing.js';
import { webhookReceiver } from '../../test/webhook-receiver.js';
import { hashToken, randomToken } from '../auth/tokens.js';
import { withdrawConsent } from '../consent/customer.service.js';
import { hashCustomerToken, newCustomerToken } from '../consent/customer.tokens.js';
import { JobFailure, runJob } from '../jobs/jobs.service.js';

/**
 * The activity log (issue 32, decision 220) through HTTP: every event type from its real change point,
 * with its actor (the member who did it; null for the system and the customer), filters, keyset pages,
 * refusals with a reason the web translates, and activity-only events never reaching a webhook endpoint.
 */
let t: TestApp;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
beforeAll(async () => {
  t = await createTestApp({
    env: { WEBHOOKS_ALLOW_PRIVATE: 'on' },
    work: true,
  });
  receiver = await webhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

type Reader = {
  get: (url: string) => PromiseLike<{ statusCode: number; body: string; json: <T = unknown>() => T }>;
};
async function activity(who: Reader, query = ''): Promise<TActivityPage> {
  const res = await who.get(`/api/activity${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TActivityPage>();
}
async function allPages(who: Reader, query: string, limit: number): Promise<TActivityEvent[]> {
  const seen: TActivityEvent[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const sep = query ? '&' : '?';
    const page: TActivityPage = await activity(who, `${query}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(page.events.length).toBeLessThanOrEqual(limit);
    seen.push(...page.events);
    cursor = page.nextCursor;
    if (!cursor) return seen;
  }
  throw new Error('too many pages');
}

describe('activity log', () => {
  it('shows each event after the real action, with the member who did it, and delivers none of the activity-only ones', async () => {
    const me = await signedInCompany(t);
    const hook = await me.post('/api/webhooks', {
      url: receiver.url,
      events: [...WEBHOOK_EVENT_TYPES],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    receiver.setSecret(hook.json().secret);
    // Activity-only types are not offered to endpoints.
    const offered = await me.post('/api/webhooks', {
      url: receiver.url,
      events: ['member.added'],
    });
    expect(offered.statusCode).toBe(400);

    // Sent (by the owner, in completedTestimonial), submitted (customer), paid (owner).
    const { tm, response } = await paidTestimonial(t, me);
    // Rendered: ready (asked for by the owner from the studio, decision 223) and failed (a job nobody
    // asked for, such as a draft: the system's).
    expect((await me.post(`/api/testimonials/response/${response.id}/generate-modified/intro`, { language: 'en' })).statusCode).toBeLessThan(300);
    await expect.poll(async () => (await activity(me, '?type=render.ready')).events.length, { timeout: 90_000, interval: 500 }).toBe(1);
    const [failing] = await t.ctx.db
      .insert(jobs)
      .values({
        companyId: me.companyId,
        kind: 'subtitles',
        requestId: tm.id,
        responseId: response.id,
        params: {},
      })
      .returning();
    await runJob(t.ctx, failing!.id, { attempt: 0 }, async () => {
      throw new JobFailure('render_failed');
    });
    // Published, unpublished (owner).
    const published = await me.post('/api/publications', {
      testimonialId: tm.id,
      responseId: response.id,
    });
    expect(published.statusCode, published.body).toBe(201);
    const pubId = published.json<{ id: string }>().id;
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/publications/${pubId}`,
          headers: me.headers,
        })
      ).statusCode,
    ).toBeLessThan(300);
    // Withdrawn (the customer).
    const customerToken = newCustomerToken();
    await t.ctx.db
      .update(testimonialRequests)
      .set({ customerPageTokenHash: hashCustomerToken(customerToken) })
      .where(eq(testimonialRequests.id, tm.id));
    await withdrawConsent(t.ctx, customerToken, {
      ip: '10.1.2.3',
      userAgent: 'test',
    });
    // A member added by accepting an invitation (the person is the actor), their role changed and removed (owner).
    const person = await signedInCompany(t);
    const invitationToken = randomToken();
    await t.ctx.db.insert(invitations).values({
      companyId: me.companyId,
      email: person.email,
      role: 'viewer',
      tokenHash: hashToken(invitationToken),
      invitedBy: me.userId,
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    expect((await person.post('/api/invitations/accept', { token: invitationToken })).statusCode).toBe(200);
    expect((await me.put(`/api/members/${person.userId}/role`, { role: 'editor' })).statusCode).toBeLessThan(300);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/members/${person.userId}`,
          headers: me.headers,
        })
      ).statusCode,
    ).toBeLessThan(300);
    // A key created and revoked (owner); revoking again logs nothing more.
    const key = await me.post('/api/api-keys', {
      name: 'Zapier',
      scope: 'read',
    });
    expect(key.statusCode, key.body).toBe(201);
    const keyId = key.json<{ id: string }>().id;
    for (let i = 0; i < 2; i++)
      expect(
        (
          await t.app.inject({
            method: 'DELETE',
            url: `/api/api-keys/${keyId}`,
            headers: me.headers,
          })
        ).statusCode,
      ).toBeLessThan(300);

    const events = await allPages(me, '', 100);
    const byType = (type: string) => events.filter((e) => e.type === type);
    const ownerActor = {
      id: me.userId,
      email: me.email,
      name: expect.stringMatching(/^Owner N\d+$/),
    };
    const expected: [string, unknown][] = [
      ['request.sent', ownerActor],
      ['testimonial.submitted', null],
      ['testimonial.paid', ownerActor],
      ['render.ready', ownerActor],
      ['render.failed', null],
      ['publication.published', ownerActor],
      ['publication.unpublished', ownerActor],
      ['consent.withdrawn', null],
      ['member.added', { id: person.userId, email: person.email, name: expect.any(String) }],
      ['member.role_changed', ownerActor],
      ['member.removed', ownerActor],
      ['api_key.created', ownerActor],
      ['api_key.revoked', ownerActor],
    ];
    for (const [type, actor] of expected) {
      expect(byType(type), type).toHaveLength(1);
      expect(byType(type)[0]!.actor, type).toEqual(actor);
    }
    // Subjects: small and safe.
    expect(byType('testimonial.paid')[0]!.subject).toMatchObject({
      testimonialId: tm.id,
      customerName: expect.stringMatching(/^Customer \d+$/),
    });
    expect(byType('publication.published')[0]!.subject).toMatchObject({
      publicationId: pubId,
      testimonialId: tm.id,
    });
    expect(byType('member.role_changed')[0]!.subject).toMatchObject({
      memberEmail: person.email,
      role: 'editor',
      previousRole: 'viewer',
    });
    expect(byType('api_key.created')[0]!.subject).toMatchObject({
      keyName: 'Zapier',
    });
    expect(byType('request.sent')[0]!.subject).toMatchObject({
      testimonialId: tm.id,
      kind: 'email',
    });
    expect(JSON.stringify(events)).not.toContain(key.json<{ key: string }>().key);
    // Newest first.
    const times = events.map((e) => Date.parse(e.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    // Webhook events were delivered; the activity-only ones have no delivery and never arrived.
    await expect.poll(() => receiver.received.filter((r) => r.type === 'consent.withdrawn').length, { timeout: 60_000, interval: 300 }).toBe(1);
    const deliveries = await t.ctx.db.select({ type: webhookDeliveries.type }).from(webhookDeliveries).where(eq(webhookDeliveries.companyId, me.companyId));
    expect(new Set(deliveries.map((d) => d.type))).toEqual(new Set(WEBHOOK_EVENT_TYPES));
    for (const type of ACTIVITY_ONLY_EVENT_TYPES)
      expect(
        receiver.received.some((r) => r.type === type),
        type,
      ).toBe(false);
  }, 240_000);

  it('filters by type, actor and dates, pages by cursor without repeats or gaps, and keeps each company to itself', async () => {
    const me = await signedInCompany(t);
    const editor = await memberOf(t, me, 'editor');
    const viewer = await memberOf(t, me, 'viewer');
    const other = await signedInCompany(t);
    // 45 events, many sharing one instant (the cursor must break ties), two actors, three days.
    const base = Date.parse('2026-03-10T12:00:00.000Z');
    const rows = Array.from({ length: 45 }, (_, i) => ({
      companyId: me.companyId,
      type: i % 3 === 0 ? 'api_key.created' : i % 3 === 1 ? 'testimonial.paid' : 'publication.published',
      data: { name: `k${i}` },
      actorUserId: i % 2 ? editor.userId : me.userId,
      createdAt: new Date(base + Math.floor(i / 15) * 86_400_000 + (i % 4) * 1000),
    }));
    await t.ctx.db.insert(companyEvents).values(rows);
    await t.ctx.db.insert(companyEvents).values({
      companyId: other.companyId,
      type: 'api_key.created',
      data: { name: 'secret-of-other' },
      actorUserId: other.userId,
      createdAt: new Date(base),
    });

    // A viewer reads it; pages of 7 give every event once, in order.
    const all = await allPages(viewer, '', 7);
    expect(all).toHaveLength(45);
    expect(new Set(all.map((e) => e.id)).size).toBe(45);
    const first = await activity(viewer);
    expect(first.events).toHaveLength(25);
    expect(first.members.map((m) => m.id).sort()).toEqual([me.userId, editor.userId, viewer.userId].sort());

    // A new event between two pages does not shift the next page.
    const page1 = await activity(me, '?limit=10');
    await t.ctx.db.insert(companyEvents).values({
      companyId: me.companyId,
      type: 'api_key.revoked',
      data: {},
      actorUserId: me.userId,
    });
    const page2 = await activity(me, `?limit=10&cursor=${encodeURIComponent(page1.nextCursor!)}`);
    expect(page2.events.map((e) => e.id)).toEqual(all.slice(10, 20).map((e) => e.id));

    // Filters: several types (repeated or comma-separated), an actor, a date range (whole UTC days).
    const types = await allPages(me, '?type=testimonial.paid&type=publication.published', 10);
    expect(types).toHaveLength(30);
    expect((await allPages(me, '?type=testimonial.paid,publication.published', 10)).map((e) => e.id)).toEqual(types.map((e) => e.id));
    const byEditor = await allPages(me, `?actor=${editor.userId}`, 50);
    expect(byEditor).toHaveLength(22);
    expect(byEditor.every((e) => e.actor?.id === editor.userId)).toBe(true);
    const day2 = await allPages(me, '?from=2026-03-11&to=2026-03-11', 50);
    expect(day2).toHaveLength(15);
    const fromDay2 = await allPages(me, `?from=${encodeURIComponent('2026-03-11T00:00:00.000Z')}&type=api_key.created`, 50);
    expect(fromDay2.every((e) => e.type === 'api_key.created' && Date.parse(e.at) >= Date.parse('2026-03-11'))).toBe(true);
    expect(fromDay2).toHaveLength(10);

    // Another company sees none of these, even with this company's cursor, and this one none of theirs.
    const theirs = await allPages(other, '', 50);
    expect(theirs.map((e) => e.subject.keyName)).toEqual(['secret-of-other']);
    const replay = await activity(other, `?cursor=${encodeURIComponent(page1.nextCursor!)}`);
    expect(replay.events.every((e) => e.subject.keyName === 'secret-of-other')).toBe(true);
    expect(all.some((e) => e.subject.keyName === 'secret-of-other')).toBe(false);
    expect((await activity(me, `?actor=${other.userId}`)).events).toEqual([]);
  }, 120_000);

  it('refuses a bad cursor or filter with a reason the web translates', async () => {
    const me = await signedInCompany(t);
    const cases: [string, string, string][] = [
      ['?cursor=not-a-cursor', 'activity_cursor_invalid', 'cursor'],
      [`?cursor=${Buffer.from('2026-01-01|x').toString('base64url')}`, 'activity_cursor_invalid', 'cursor'],
      ['?type=nope', 'activity_filter_invalid', 'type'],
      ['?type=testimonial.paid,webhook.test', 'activity_filter_invalid', 'type'],
      ['?actor=123', 'activity_filter_invalid', 'actor'],
      ['?from=yesterday', 'activity_filter_invalid', 'from'],
      ['?to=2026-13-40', 'activity_filter_invalid', 'to'],
      ['?limit=0', 'activity_filter_invalid', 'limit'],
      ['?limit=101', 'activity_filter_invalid', 'limit'],
      ['?limit=abc', 'activity_filter_invalid', 'limit'],
      ['?sort=asc', 'activity_filter_invalid', 'query'],
    ];
    for (const [query, reason, field] of cases) {
      const res = await me.get(`/api/activity${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({
        code: 'invalid_data',
        reason,
        field,
      });
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/activity' })).statusCode).toBe(401);
  });
});
