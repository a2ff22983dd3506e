/**
 * Issue 32, API keys under attack: another company's key reading a testimonial by id (404, nothing of it
 * in the answer), a revoked key, a forged key with a real prefix, a dashboard session token presented as
 * a key on /api/v1, a key presented as a session token on the dashboard's calls, one company revoking
 * another's key, and the secret never readable again (not in lists, not in the row).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V1_OPERATION_LIST } from '../../src/contract/api/v1.operations.js';
import { apiKeys, publications, testimonialRequests, testimonialResponses } from '../../src/server/db/schema.js';
import { signedInCompany } from '../../src/server/test/accounts.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';
import { completedTestimonial } from '../../src/server/test/testimonials.js';

type Company = Awaited<ReturnType<typeof signedInCompany>>;

describe('API keys under attack', () => {
  let t: TestApp;
  let owner: Company;
  let attacker: Company;
  let testimonialId: string;
  let customerName: string;
  let ownerKey: { id: string; key: string };
  let attackerKey: { id: string; key: string };

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const v1 = (token: string, url: string, method: 'GET' | 'POST' | 'DELETE' = 'GET') => t.app.inject({ method, url, headers: bearer(token) });

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInCompany(t, { companyName: 'Owner Co' });
    attacker = await signedInCompany(t, { companyName: 'Attacker Co' });
    testimonialId = (await completedTestimonial(t, owner)).id;
    expect((await owner.post(`/api/testimonials/pay/${testimonialId}`)).statusCode).toBe(200);
    const made = async (who: Company, scope: string) => {
      const res = await who.post('/api/api-keys', { name: 'Integration', scope });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ id: string; key: string }>();
    };
    ownerKey = await made(owner, 'read_write');
    attackerKey = await made(attacker, 'read_write');
    const own = await v1(ownerKey.key, `/api/v1/testimonials/${testimonialId}`);
    expect(own.statusCode, own.body).toBe(200);
    customerName = own.json<{ customer_name: string }>().customer_name;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("another company's key cannot read a testimonial by id, nor see it in its list", async () => {
    const byId = await v1(attackerKey.key, `/api/v1/testimonials/${testimonialId}`);
    expect(byId.statusCode).toBe(404);
    expect(byId.json()).toMatchObject({ code: 'not_found', error: expect.any(String) });
    expect(byId.body).not.toContain(customerName);
    const list = await v1(attackerKey.key, '/api/v1/testimonials');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ data: [], total: 0 });
    expect(list.body).not.toContain(testimonialId);
  });

  it("cannot revoke another company's key, nor list it", async () => {
    const res = await t.app.inject({ method: 'DELETE', url: `/api/api-keys/${ownerKey.id}`, headers: attacker.headers });
    expect(res.statusCode).toBe(404);
    expect((await attacker.get('/api/api-keys')).body).not.toContain(ownerKey.id);
    expect((await v1(ownerKey.key, '/api/v1/testimonials')).statusCode).toBe(200);
  });

  it('a forged secret under a real prefix is refused', async () => {
    const prefix = ownerKey.key.slice(0, 'vr_live_'.length + 12);
    const forged = `${prefix}_${'A'.repeat(43)}`;
    const res = await v1(forged, '/api/v1/testimonials');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'unauthorized' });
  });

  it('a dashboard session token is not an API key', async () => {
    for (const url of ['/api/v1/testimonials', `/api/v1/testimonials/${testimonialId}`]) {
      const res = await t.app.inject({ method: 'GET', url, headers: owner.headers });
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toMatchObject({ code: 'unauthorized' });
      expect(res.body).not.toContain(customerName);
    }
  });

  it("an API key is not a session token on the dashboard's calls", async () => {
    for (const url of [
      `/api/testimonials/request/${testimonialId}?company_id=${owner.companyId}`,
      `/api/testimonials/requests?company_id=${owner.companyId}`,
      '/api/api-keys',
      '/api/user/profile',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(ownerKey.key) });
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toMatchObject({ code: 'unauthorized' });
    }
    // Nor can a key make more keys.
    const more = await t.app.inject({ method: 'POST', url: '/api/api-keys', headers: bearer(ownerKey.key), payload: { name: 'More', scope: 'read_write' } });
    expect(more.statusCode).toBe(401);
  });

  it('the secret cannot be read back: not in the list, not in the row', async () => {
    const secret = ownerKey.key.split('_').slice(3).join('_');
    expect((await owner.get('/api/api-keys')).body).not.toContain(secret);
    const [row] = await t.ctx.db.select().from(apiKeys).where(eq(apiKeys.id, ownerKey.id));
    expect(Object.values(row!).map(String).join(' ')).not.toContain(secret);
  });

  /** Every /api/v1 operation (from the one list the routes and the document are made of), called on the owner's objects. */
  async function everyOperation(token: string, ids: { testimonialId: string; responseId: string; publicationId: string; questionId: string }) {
    const bodies: Record<string, unknown> = {
      sendRequest: { customer_name: 'Injected', customer_email: 'injected@client.test', question_ids: [ids.questionId], language: 'english' },
      publish: { testimonial_id: ids.testimonialId, response_id: ids.responseId },
    };
    const answers: { operationId: string; writes: boolean; status: number; body: string }[] = [];
    for (const op of V1_OPERATION_LIST) {
      const url = op.endpoint.route.replace(':id', op.operationId === 'unpublish' ? ids.publicationId : ids.testimonialId);
      const body = bodies[op.operationId];
      const res = await t.app.inject({
        method: op.endpoint.method,
        url,
        headers: { ...bearer(token), ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { payload: JSON.stringify(body) } : {}),
      });
      answers.push({ operationId: op.operationId, writes: op.writes, status: res.statusCode, body: res.body });
    }
    return answers;
  }

  it("every /api/v1 operation with a read key, a write key, a revoked key and another company's key", async () => {
    const victim = await signedInCompany(t, { companyName: 'Victim Co' });
    const made = await completedTestimonial(t, victim);
    expect((await victim.post(`/api/testimonials/pay/${made.id}`)).statusCode).toBe(200);
    const [answer] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, made.id));
    await t.ctx.db.update(testimonialResponses).set({ videoKey: answer!.originalKey }).where(eq(testimonialResponses.id, answer!.id));
    const published = await victim.post('/api/publications', { testimonialId: made.id, responseId: answer!.id });
    expect(published.statusCode, published.body).toBe(201);
    const ids = { testimonialId: made.id, responseId: answer!.id, publicationId: published.json<{ id: string }>().id, questionId: made.questionId };
    const key = async (who: Company, scope: string) => (await who.post('/api/api-keys', { name: `Every ${scope}`, scope })).json<{ id: string; key: string }>();
    const victimName = (await t.app.inject({ method: 'GET', url: `/api/v1/testimonials/${made.id}`, headers: bearer((await key(victim, 'read')).key) })).json<{
      customer_name: string;
    }>().customer_name;
    const requestsBefore = (await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.companyId, victim.companyId))).length;

    // Another company's write key: nothing of the victim's is read, made or taken down.
    const foreign = await key(attacker, 'read_write');
    for (const a of await everyOperation(foreign.key, ids)) {
      expect(a.body, a.operationId).not.toContain(victimName);
      expect(a.body, a.operationId).not.toContain(ids.publicationId);
      if (['getTestimonial', 'unpublish', 'publish'].includes(a.operationId)) expect(a.status, `${a.operationId} ${a.body}`).toBe(404);
      else if (a.operationId === 'sendRequest') expect([400, 403, 404], a.body).toContain(a.status);
      else expect(a.status, a.operationId).toBe(200);
    }
    const [live] = await t.ctx.db.select().from(publications).where(eq(publications.id, ids.publicationId));
    expect(live!.unpublishedAt).toBeNull();
    expect((await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.companyId, victim.companyId))).length).toBe(requestsBefore);

    // The victim's read key: reads, and every write refused with 403 before anything changes.
    const read = await key(victim, 'read');
    for (const a of await everyOperation(read.key, ids)) {
      if (a.writes) {
        expect(a.status, `${a.operationId} ${a.body}`).toBe(403);
        expect(JSON.parse(a.body)).toMatchObject({ code: 'no_permission' });
      } else expect(a.status, a.operationId).toBe(200);
    }
    expect((await t.ctx.db.select().from(publications).where(eq(publications.id, ids.publicationId)))[0]!.unpublishedAt).toBeNull();

    // A revoked key: 401 everywhere, nothing of the company in the answer.
    const revoked = await key(victim, 'read_write');
    expect((await t.app.inject({ method: 'DELETE', url: `/api/api-keys/${revoked.id}`, headers: victim.headers })).statusCode).toBe(204);
    for (const a of await everyOperation(revoked.key, ids)) {
      expect(a.status, a.operationId).toBe(401);
      expect(JSON.parse(a.body)).toMatchObject({ code: 'unauthorized' });
      expect(a.body).not.toContain(victimName);
    }

    // The victim's write key: every operation works on its own objects (publish again refused as a duplicate or allowed, never a 5xx).
    const write = await key(victim, 'read_write');
    for (const a of await everyOperation(write.key, ids)) expect(a.status, `${a.operationId} ${a.body}`).toBeLessThan(300);
    expect((await t.ctx.db.select().from(publications).where(eq(publications.id, ids.publicationId)))[0]!.unpublishedAt).not.toBeNull();
  });

  it('a revoked key is refused at once, on every /api/v1 call', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: `/api/api-keys/${ownerKey.id}`, headers: owner.headers });
    expect(res.statusCode).toBe(204);
    for (const url of ['/api/v1/testimonials', `/api/v1/testimonials/${testimonialId}`, '/api/v1/anything']) {
      const refused = await v1(ownerKey.key, url);
      expect(refused.statusCode, url).toBe(401);
      expect(refused.json()).toMatchObject({ code: 'unauthorized' });
      expect(refused.body).not.toContain(customerName);
    }
  });
});
