import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, testimonialRequests } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { completedTestimonial } from '../../test/testimonials.js';
import { hashSecret, KEY_PATTERN } from './api-keys.service.js';

describe('API keys and /api/v1', () => {
  let t: TestApp;
  beforeAll(async () => {
    // A small per-key limit, reached in a few calls (the default is 120 a minute).
    t = await createTestApp({ env: { API_KEY_RATE_PER_MINUTE: '8' } });
  });
  afterAll(async () => t.close());

  const withKey = (key: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${key}` } });
  const del = (me: Awaited<ReturnType<typeof signedInCompany>>, url: string) => t.app.inject({ method: 'DELETE', url, headers: me.headers });

  async function newKey(me: Awaited<ReturnType<typeof signedInCompany>>, scope: 'read' | 'read_write' = 'read', name = 'CRM sync') {
    const res = await me.post('/api/api-keys', { name, scope });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; key: string; prefix: string; scope: string };
  }

  it('creates a key answered once, lists it without the secret, stores only the hash, and revokes it', async () => {
    const me = await signedInCompany(t);
    const created = await newKey(me, 'read_write', '  Zapier  ');
    expect(created.key).toMatch(KEY_PATTERN);
    const [, prefix, secret] = KEY_PATTERN.exec(created.key)!;
    // 43 base64url characters: 256 random bits.
    expect(Buffer.from(secret!, 'base64url')).toHaveLength(32);
    expect(created).toMatchObject({ name: 'Zapier', scope: 'read_write', prefix: `vr_live_${prefix}`, last_used_at: null, revoked_at: null });

    const [row] = await t.ctx.db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(row!.prefix).toBe(prefix);
    expect(row!.secretHash).toBe(hashSecret(secret!));
    expect(JSON.stringify(row)).not.toContain(secret!);

    const list = await me.get('/api/api-keys');
    expect(list.statusCode).toBe(200);
    expect(list.headers['cache-control']).toBe('no-store');
    expect(list.body).not.toContain(secret!);
    expect(list.json().keys).toEqual([expect.objectContaining({ id: created.id, name: 'Zapier', prefix: `vr_live_${prefix}`, revoked_at: null })]);
    expect(list.json().keys[0]).not.toHaveProperty('key');

    expect((await del(me, `/api/api-keys/${created.id}`)).statusCode).toBe(204);
    const after = (await me.get('/api/api-keys')).json().keys[0];
    expect(after.revoked_at).not.toBeNull();
  });

  it('validates the body with readable messages', async () => {
    const me = await signedInCompany(t);
    const noName = await me.post('/api/api-keys', { name: '   ', scope: 'read' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json()).toMatchObject({ error: expect.stringContaining('Name is required') });
    const badScope = await me.post('/api/api-keys', { name: 'x', scope: 'admin' });
    expect(badScope.statusCode).toBe(400);
    expect(badScope.json().error).toContain("'read' or 'read_write'");
    const longName = await me.post('/api/api-keys', { name: 'x'.repeat(81), scope: 'read' });
    expect(longName.statusCode).toBe(400);
  });

  it("another company can neither list nor revoke a key; without a session the calls are 401", async () => {
    const me = await signedInCompany(t);
    const other = await signedInCompany(t);
    const key = await newKey(me);
    expect((await other.get('/api/api-keys')).json().keys).toEqual([]);
    expect((await del(other, `/api/api-keys/${key.id}`)).statusCode).toBe(404);
    expect((await del(me, '/api/api-keys/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/api-keys' })).statusCode).toBe(401);
    const [row] = await t.ctx.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row!.revokedAt).toBeNull();
  });

  it("a key reads its company's testimonials, paginated, and marks itself used at most once a minute", async () => {
    const me = await signedInCompany(t);
    const first = await completedTestimonial(t, me);
    const second = await completedTestimonial(t, me);
    await t.ctx.db.update(testimonialRequests).set({ createdAt: new Date(Date.now() - 60_000) }).where(eq(testimonialRequests.id, first.id));
    const key = await newKey(me);

    const page1 = await withKey(key.key, 'GET', '/api/v1/testimonials?per_page=1');
    expect(page1.statusCode, page1.body).toBe(200);
    const body = page1.json();
    expect(body).toMatchObject({ page: 1, per_page: 1, total: 2 });
    expect(body.data.map((d: { id: string }) => d.id)).toEqual([second.id]);
    expect(body.data[0]).toMatchObject({ status: 'completed', paid: expect.any(Boolean), language: 'english' });
    expect(body.data[0].answers[0]).toMatchObject({ question: { id: second.questionId }, order_position: 1 });
    const page2 = (await withKey(key.key, 'GET', '/api/v1/testimonials?per_page=1&page=2')).json();
    expect(page2.data.map((d: { id: string }) => d.id)).toEqual([first.id]);
    expect((await withKey(key.key, 'GET', '/api/v1/testimonials?per_page=1000')).statusCode).toBe(400);

    const one = await withKey(key.key, 'GET', `/api/v1/testimonials/${first.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: first.id, customer_name: expect.any(String) });

    const [used] = await t.ctx.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(used!.lastUsedAt).not.toBeNull();
    // Several calls within the minute wrote it once: it is still the first call's time.
    const stamp = used!.lastUsedAt!.getTime();
    await withKey(key.key, 'GET', `/api/v1/testimonials/${first.id}`);
    const [again] = await t.ctx.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(again!.lastUsedAt!.getTime()).toBe(stamp);
    // A minute later, it moves.
    await t.ctx.db.update(apiKeys).set({ lastUsedAt: new Date(Date.now() - 61_000) }).where(eq(apiKeys.id, key.id));
    await withKey(key.key, 'GET', `/api/v1/testimonials/${first.id}`);
    const [later] = await t.ctx.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(Date.now() - later!.lastUsedAt!.getTime()).toBeLessThan(10_000);
  });

  it("refuses revoked, unknown, malformed and session-token keys, and another company's testimonial is 404", async () => {
    const me = await signedInCompany(t);
    const other = await signedInCompany(t);
    const theirs = await completedTestimonial(t, other);
    const key = await newKey(me);

    const foreign = await withKey(key.key, 'GET', `/api/v1/testimonials/${theirs.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'not_found' });
    expect((await withKey(key.key, 'GET', '/api/v1/testimonials')).json().data).toEqual([]);

    const [, prefix, secret] = KEY_PATTERN.exec(key.key)!;
    const wrongSecret = `vr_live_${prefix}_${secret!.slice(0, -1)}${secret!.endsWith('A') ? 'B' : 'A'}`;
    const unknown = `vr_live_0123456789ab_${secret}`;
    for (const bad of [wrongSecret, unknown, 'vr_live_nope', 'vr_test_abc', me.headers.authorization.slice('Bearer '.length)]) {
      const res = await withKey(bad, 'GET', '/api/v1/testimonials');
      expect(res.statusCode, bad).toBe(401);
      expect(res.json()).toMatchObject({ code: 'unauthorized', error: expect.any(String) });
    }
    const missing = await t.app.inject({ method: 'GET', url: '/api/v1/testimonials' });
    expect(missing.statusCode).toBe(401);
    expect(missing.json().error).toContain('API key is required');

    await del(me, `/api/api-keys/${key.id}`);
    const revoked = await withKey(key.key, 'GET', '/api/v1/testimonials');
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().error).toContain('revoked');
  });

  it('a read key may only read; a write key passes the scope check', async () => {
    const me = await signedInCompany(t);
    const read = await newKey(me, 'read');
    const write = await newKey(me, 'read_write');
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      const res = await withKey(read.key, method, '/api/v1/testimonials');
      expect(res.statusCode, method).toBe(403);
      expect(res.json()).toMatchObject({ code: 'no_permission', error: expect.stringContaining('can only read') });
      // No write route exists yet: a write key gets past the scope check to the 404 of an unknown call.
      expect((await withKey(write.key, method, '/api/v1/testimonials')).statusCode, method).toBe(404);
    }
  });

  it('limits each key per minute with the shared counters: 429 with Retry-After, other keys unaffected', async () => {
    const me = await signedInCompany(t);
    const busy = await newKey(me);
    const calm = await newKey(me);
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await withKey(busy.key, 'GET', '/api/v1/testimonials')).statusCode);
    expect(statuses).toEqual([...Array(8).fill(200), 429]);
    const refused = await withKey(busy.key, 'GET', '/api/v1/testimonials');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({ code: 'rate_limited' });
    expect((await withKey(calm.key, 'GET', '/api/v1/testimonials')).statusCode).toBe(200);
    // Counted in the database (rate_limits), so another API process sees the same count.
    const rows = await t.ctx.database.executeSql('select key, points from rate_limits where key = $1', [`api-v1-key:key:${busy.id}`]);
    expect((rows as { rows: { points: number }[] }).rows[0]!.points).toBeGreaterThanOrEqual(9);
  });
});
