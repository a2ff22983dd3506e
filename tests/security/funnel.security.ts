/**
 * The request funnel (issue 30), attacked: one company's funnel, link filter and request timelines are
 * never another's (whatever company_id or link_id the caller names); the public progress beacon records
 * a step only for a pending request's own token, answers an unknown, finished or forged token exactly as
 * a valid one (no oracle of which tokens exist), refuses a foreign Origin, and is rate-limited per
 * address; none of these calls sets a cookie.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionLinks, requestEvents, testimonialRequests } from '../../src/server/db/schema.js';
import { PROGRESS_BEACONS_PER_ADDRESS } from '../../src/server/modules/funnel/funnel.routes.js';
import { signedInCompany } from '../../src/server/test/accounts.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';
import { completedTestimonial } from '../../src/server/test/testimonials.js';

type Company = Awaited<ReturnType<typeof signedInCompany>>;

describe('the request funnel, attacked', () => {
  let t: TestApp;
  let victim: Company;
  let attacker: Company;
  let pendingId: string;
  let pendingToken: string;
  let completedId: string;
  let completedToken: string;
  let linkId: string;

  beforeAll(async () => {
    t = await createTestApp();
    victim = await signedInCompany(t);
    attacker = await signedInCompany(t);
    completedId = (await completedTestimonial(t, victim)).id;
    const q = (await victim.post('/api/questions/add', { company_id: victim.companyId, text: 'Why?', order_position: 2 })).json();
    pendingId = (await victim.post('/api/testimonials/request', { customer_name: 'Pending', customer_email: 'p@client.test', question_ids: [q.id], language: 'english' })).json().testimonial.id;
    const tokenOf = async (id: string) => (await t.ctx.db.select({ token: testimonialRequests.token }).from(testimonialRequests).where(eq(testimonialRequests.id, id)))[0]!.token;
    pendingToken = await tokenOf(pendingId);
    completedToken = await tokenOf(completedId);
    const [link] = await t.ctx.db.insert(collectionLinks).values({ companyId: victim.companyId, slug: `sec-${randomBytes(4).toString('hex')}`, name: 'Victim link' }).returning();
    linkId = link!.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const eventsOf = async (id: string) => (await t.ctx.db.select().from(requestEvents).where(eq(requestEvents.requestId, id))).map((e) => e.kind).sort();
  const beacon = (body: unknown, remoteAddress: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/public/testimonial/progress', payload: body as object, remoteAddress, headers });

  it("never shows one company's funnel, links or timelines to another", async () => {
    const mine = (await victim.get('/api/funnel')).json();
    expect(mine.invitations.steps[0].count).toBe(2);
    expect(mine.link_choices).toEqual([{ id: linkId, name: 'Victim link' }]);

    for (const url of ['/api/funnel', `/api/funnel?company_id=${victim.companyId}`]) {
      const theirs = await attacker.get(url);
      expect(theirs.statusCode, url).toBe(200);
      const body = theirs.json();
      expect(body.invitations.steps.every((s: { count: number }) => s.count === 0)).toBe(true);
      expect(body.link_choices).toEqual([]);
      expect(body.by_link).toEqual([]);
      expect(theirs.body).not.toContain(linkId);
      expect(theirs.body).not.toContain('Victim link');
    }
    const filtered = await attacker.get(`/api/funnel?link_id=${linkId}`);
    expect(filtered.statusCode).toBe(404);
    expect(filtered.json()).toMatchObject({ code: 'not_found', reason: 'funnel_link_not_found' });
    expect(filtered.body).not.toContain('Victim link');

    for (const id of [pendingId, completedId]) {
      const timeline = await attacker.get(`/api/testimonials/request/${id}/timeline`);
      expect(timeline.statusCode).toBe(404);
      expect(timeline.json()).toMatchObject({ code: 'not_found', reason: 'timeline_request_not_found' });
      // The same answer as a request that never existed.
      const none = await attacker.get(`/api/testimonials/request/${crypto.randomUUID()}/timeline`);
      expect(none.statusCode).toBe(404);
      expect(none.json()).toEqual(timeline.json());
    }
    expect((await victim.get(`/api/testimonials/request/${completedId}/timeline`)).json().events.map((e: { kind: string }) => e.kind)).toEqual(['sent', 'submitted']);
    expect((await t.app.inject({ method: 'GET', url: '/api/funnel' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/funnel', headers: { authorization: 'Bearer forged.token.here' } })).statusCode).toBe(401);
  });

  it('records a step only for the pending request of the token, with the same answer for any token', async () => {
    const answers = [
      await beacon({ token: randomBytes(32).toString('base64url'), step: 'device_ok' }, '10.40.0.1'),
      await beacon({ token: completedToken, step: 'device_ok' }, '10.40.0.1'),
      await beacon({ token: `${pendingToken.slice(0, -1)}${pendingToken.endsWith('A') ? 'B' : 'A'}`, step: 'first_answer' }, '10.40.0.1'),
      await beacon({ token: pendingToken, step: 'device_ok' }, '10.40.0.1'),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(204);
      expect(answer.body).toBe('');
      expect(answer.headers['set-cookie']).toBeUndefined();
    }
    expect(await eventsOf(completedId)).toEqual(['sent', 'submitted']);
    expect(await eventsOf(pendingId)).toEqual(['device_ok', 'sent']);

    // Malformed bodies are refused before any lookup; a step the page may not report is refused.
    expect((await beacon({ token: pendingToken, step: 'submitted' }, '10.40.0.2')).statusCode).toBe(400);
    expect((await beacon({ token: pendingToken, step: 'opened' }, '10.40.0.2')).statusCode).toBe(400);
    expect((await beacon({ token: 'x'.repeat(5000), step: 'device_ok' }, '10.40.0.2')).statusCode).toBeGreaterThanOrEqual(400);
    expect((await beacon({ step: 'device_ok' }, '10.40.0.2')).statusCode).toBe(400);
    expect(await eventsOf(pendingId)).toEqual(['device_ok', 'sent']);

    // Another site's page cannot report steps for a customer who visits it.
    const foreign = await beacon({ token: pendingToken, step: 'first_answer' }, '10.40.0.3', { origin: 'https://attacker.test' });
    expect(foreign.statusCode).toBe(403);
    expect(await eventsOf(pendingId)).toEqual(['device_ok', 'sent']);
    const ours = await beacon({ token: pendingToken, step: 'first_answer' }, '10.40.0.3', { origin: 'http://app.test' });
    expect(ours.statusCode).toBe(204);
    expect(await eventsOf(pendingId)).toEqual(['device_ok', 'first_answer', 'sent']);
  });

  it('limits the beacon per address, so guessing tokens through it gets nowhere', async () => {
    const address = '10.41.0.1';
    for (let i = 0; i < PROGRESS_BEACONS_PER_ADDRESS; i++) {
      expect((await beacon({ token: randomBytes(32).toString('base64url'), step: 'device_ok' }, address)).statusCode).toBe(204);
    }
    const limited = await beacon({ token: pendingToken, step: 'device_ok' }, address);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['set-cookie']).toBeUndefined();
    // The same address stays limited for a valid token too; another address is not held back.
    expect((await beacon({ token: randomBytes(32).toString('base64url'), step: 'device_ok' }, '10.41.0.2')).statusCode).toBe(204);
    // No guessed token recorded anything.
    const all = await t.ctx.db.select().from(requestEvents);
    expect(all.every((e) => e.requestId === null || [pendingId, completedId].includes(e.requestId))).toBe(true);
  });

  it('sets no cookie on the company calls either', async () => {
    for (const url of ['/api/funnel', `/api/testimonials/request/${pendingId}/timeline`]) {
      const res = await victim.get(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['set-cookie'], url).toBeUndefined();
    }
  });
});
