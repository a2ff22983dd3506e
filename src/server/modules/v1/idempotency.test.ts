import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiIdempotencyKeys, testimonialRequests } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';

/**
 * `Idempotency-Key` on `POST /api/v1/requests` (decision 222), through HTTP: a retry with the same key and
 * body answers the first answer (same request, no second request, no second e-mail); another body is
 * refused with 409; keys are per API key and kept 24 hours; a call that fails does not take its key.
 */
describe('Idempotency-Key on POST /api/v1/requests', () => {
  let t: TestApp;
  let me: Awaited<ReturnType<typeof signedInCompany>>;
  let questionId: string;
  let keyA: string;
  let keyB: string;

  beforeAll(async () => {
    t = await createTestApp();
    me = await signedInCompany(t);
    const q = await me.post('/api/questions/add', { company_id: me.companyId, text: 'What changed?', order_position: 1 });
    expect(q.statusCode, q.body).toBe(201);
    questionId = q.json<{ id: string }>().id;
    const key = async (name: string) => (await me.post('/api/api-keys', { name, scope: 'read_write' })).json<{ key: string }>().key;
    keyA = await key('A');
    keyB = await key('B');
  });
  afterAll(async () => t?.close());

  const send = (apiKey: string, body: object, idempotencyKey?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/requests',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...(idempotencyKey !== undefined ? { 'idempotency-key': idempotencyKey } : {}) },
      payload: JSON.stringify(body),
    });
  const requestsTo = async (email: string) => t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.customerEmail, email));
  const mailsTo = async (email: string) =>
    ((await t.ctx.database.executeSql(`select count(*)::int n from pgboss.job where name = 'send-mail' and data->>'to' = $1`, [email])) as { rows: { n: number }[] }).rows[0]!.n;
  const body = (email: string, name = 'Ada Martin') => ({ customer_name: name, customer_email: email, question_ids: [questionId], language: 'english' });

  it('answers a retry with the first answer: one request, one e-mail', async () => {
    const first = await send(keyA, body('ada@client.test'), 'order-1');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // The same body with its keys in another order is the same call.
    const { customer_email, ...rest } = body('ada@client.test');
    const retried = await send(keyA, { customer_email, ...rest }, 'order-1');
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.json()).toEqual(first.json());
    expect(await requestsTo('ada@client.test')).toHaveLength(1);
    expect(await mailsTo('ada@client.test')).toBe(1);
    // Without a key, each call is a new request.
    expect((await send(keyA, body('ada@client.test'))).statusCode).toBe(201);
    expect(await requestsTo('ada@client.test')).toHaveLength(2);
  });

  it('refuses the same key with a different body (409), and keeps the first answer for the right body', async () => {
    const first = await send(keyA, body('bob@client.test'), 'order-2');
    expect(first.statusCode).toBe(201);
    const other = await send(keyA, body('bob@client.test', 'Bob Other'), 'order-2');
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ code: 'conflict', field: 'Idempotency-Key', error: expect.stringContaining('different body') });
    expect((await send(keyA, body('bob@client.test'), 'order-2')).json()).toEqual(first.json());
    expect(await requestsTo('bob@client.test')).toHaveLength(1);
  });

  it('keeps keys per API key, for 24 hours', async () => {
    const a = await send(keyA, body('cy@client.test'), 'shared-key');
    const b = await send(keyB, body('cy@client.test'), 'shared-key');
    expect(b.statusCode).toBe(201);
    expect(b.json<{ id: string }>().id).not.toBe(a.json<{ id: string }>().id);
    expect(await requestsTo('cy@client.test')).toHaveLength(2);

    // 24 hours later the key is free again: the same call is a new request.
    await t.ctx.db.update(apiIdempotencyKeys).set({ createdAt: new Date(Date.now() - 24 * 3600_000 - 1000) }).where(eq(apiIdempotencyKeys.key, 'shared-key'));
    const later = await send(keyA, body('cy@client.test'), 'shared-key');
    expect(later.statusCode).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(later.json<{ id: string }>().id).not.toBe(a.json<{ id: string }>().id);
    expect(await requestsTo('cy@client.test')).toHaveLength(3);
  });

  it('refuses a malformed key, and a call that fails does not take its key', async () => {
    const bad = await send(keyA, body('dee@client.test'), 'é'.repeat(3));
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'invalid_data', field: 'Idempotency-Key' });
    const long = await send(keyA, body('dee@client.test'), 'x'.repeat(256));
    expect(long.statusCode).toBe(400);

    const failed = await send(keyA, { customer_name: 'Dee', question_ids: [questionId], language: 'english' }, 'order-3');
    expect(failed.statusCode).toBe(400);
    const fixed = await send(keyA, body('dee@client.test', 'Dee'), 'order-3');
    expect(fixed.statusCode, fixed.body).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
    expect(await requestsTo('dee@client.test')).toHaveLength(1);
  });
});
