/**
 * The API journey (issue 32): a client that knows only the OpenAPI document. It reads
 * /api/v1/openapi.json, finds each operation by its operationId, builds the call from the document's
 * server, path and parameters, and checks every answer against the document's schema for its status:
 * list testimonials, read one with its transcript, send a request, publish, list publications,
 * unpublish; and the 400/401/403/404/429 answers against the documented error shape.
 * (The company, its question, its answered testimonial and its transcript are set up through the
 * dashboard, as a person would before creating a key.)
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testimonialResponses } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { completedTestimonial } from '../../test/testimonials.js';

type Json = Record<string, unknown>;
interface DocOperation {
  operationId: string;
  parameters: { name: string; in: 'path' | 'query' | 'header'; required: boolean }[];
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, Json>;
}
interface Doc {
  servers: { url: string }[];
  paths: Record<string, Record<string, DocOperation>>;
  components: Json;
}

const RATE = 40;

describe('the API journey, from the OpenAPI document alone', () => {
  let t: TestApp;
  let doc: Doc;
  let writeKey: string;
  let readKey: string;
  let questionId: string;
  let testimonialId: string;
  let responseId: string;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const compiled = new Map<string, ValidateFunction>();

  beforeAll(async () => {
    t = await createTestApp({ env: { API_KEY_RATE_PER_MINUTE: String(RATE) } });
    // What a person does in the dashboard first: a question, an answered and paid testimonial, a corrected transcript, two keys.
    const me = await signedInCompany(t);
    const made = await completedTestimonial(t, me);
    testimonialId = made.id;
    questionId = made.questionId;
    expect((await me.post(`/api/testimonials/pay/${testimonialId}`)).statusCode).toBe(200);
    const [answer] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, testimonialId));
    responseId = answer!.id;
    // No worker here: the answer plays from its upload, as if transcoded.
    await t.ctx.db.update(testimonialResponses).set({ videoKey: answer!.originalKey }).where(eq(testimonialResponses.id, responseId));
    const saved = await me.put(`/api/testimonials/response/${responseId}/transcription`, {
      transcription: [
        { start: 0, end: 1.2, text: 'It saved us hours' },
        { start: 1.2, end: 2, text: 'every week.' },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const key = async (scope: string) => (await me.post('/api/api-keys', { name: `Journey ${scope}`, scope })).json<{ key: string }>().key;
    writeKey = await key('read_write');
    readKey = await key('read');

    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json<Doc>();
  });
  afterAll(async () => t?.close());

  /** The document's node at a local `$ref`. */
  const resolve = (ref: string): Json => ref.replace(/^#\//, '').split('/').reduce<Json>((node, part) => node[part] as Json, doc as unknown as Json);
  const deref = (node: Json): Json => (typeof node.$ref === 'string' ? deref(resolve(node.$ref)) : node);

  function find(operationId: string) {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) if (op.operationId === operationId) return { path, method: method.toUpperCase(), op };
    }
    throw new Error(`The document has no operation ${operationId}`);
  }

  /** Calls an operation as the document describes it, and checks the answer against the schema the document gives its status. */
  async function call(
    operationId: string,
    input: { key?: string | null; params?: Record<string, string>; query?: Record<string, string | number>; headers?: Record<string, string>; body?: unknown } = {},
  ) {
    const { path, method, op } = find(operationId);
    const server = new URL(doc.servers[0]!.url);
    let url = server.pathname + path;
    const query = new URLSearchParams();
    const headers: Record<string, string> = {};
    for (const p of op.parameters) {
      const value = p.in === 'path' ? input.params?.[p.name] : p.in === 'header' ? input.headers?.[p.name] : input.query?.[p.name];
      if (value === undefined) {
        if (p.required) throw new Error(`${operationId} needs ${p.name}`);
        continue;
      }
      if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(String(value)));
      else if (p.in === 'header') headers[p.name] = String(value);
      else query.set(p.name, String(value));
    }
    for (const name of Object.keys(input.headers ?? {})) if (!op.parameters.some((p) => p.in === 'header' && p.name === name)) throw new Error(`${operationId} has no header ${name}`);
    for (const name of Object.keys(input.query ?? {})) if (!op.parameters.some((p) => p.name === name)) throw new Error(`${operationId} has no parameter ${name}`);
    if (input.body !== undefined && !op.requestBody) throw new Error(`${operationId} takes no body`);
    const key = input.key === undefined ? writeKey : input.key;
    const res = await t.app.inject({
      method: method as 'GET',
      url: query.size ? `${url}?${query}` : url,
      headers: { ...headers, ...(key ? { authorization: `Bearer ${key}` } : {}), ...(input.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(input.body !== undefined ? { payload: JSON.stringify(input.body) } : {}),
    });
    const documented = op.responses[String(res.statusCode)];
    expect(documented, `${operationId} answered ${res.statusCode}, which the document does not list: ${res.body}`).toBeDefined();
    const response = deref(documented!);
    const content = response.content as Record<string, { schema: Json }> | undefined;
    if (content) {
      const schemaKey = `${operationId} ${res.statusCode}`;
      let validate = compiled.get(schemaKey);
      if (!validate) compiled.set(schemaKey, (validate = ajv.compile(deref(content['application/json']!.schema))));
      const ok = validate(res.json());
      expect(ok, `${schemaKey}: ${JSON.stringify(validate.errors)} in ${res.body.slice(0, 500)}`).toBe(true);
    } else {
      expect(res.body, `${operationId} ${res.statusCode} has no documented body`).toBe('');
    }
    return res;
  }

  it('lists testimonials and reads one with its answers, media and transcript', async () => {
    const list = await call('listTestimonials', { query: { page: 1, per_page: 10 } });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ page: 1, per_page: 10, total: 1, data: [{ id: testimonialId }] });

    const one = await call('getTestimonial', { params: { id: testimonialId } });
    expect(one.statusCode).toBe(200);
    const answer = one.json<{ answers: Json[] }>().answers[0]!;
    expect(answer).toMatchObject({ id: responseId, video_url: expect.stringContaining('/files/') });
    expect(answer.transcript).toMatchObject({
      language: 'en',
      edited: true,
      segments: [
        { start: 0, end: 1.2, text: 'It saved us hours' },
        { start: 1.2, end: 2, text: 'every week.' },
      ],
    });
    // The list carries the same transcript.
    expect(list.json<{ data: { answers: Json[] }[] }>().data[0]!.answers[0]!.transcript).toEqual(answer.transcript);
  });

  it('sends a request, as the dashboard does', async () => {
    const sent = await call('sendRequest', {
      body: { customer_name: 'Ada Martin', customer_email: 'ada@client.test', question_ids: [questionId], language: 'english', delivery: 'link' },
    });
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({ customer_name: 'Ada Martin', status: 'pending', delivery: 'link', link: expect.stringContaining('http') });
    // Its validation and messages are the dashboard's.
    const invalid = await call('sendRequest', { body: { customer_name: 'No Mail', question_ids: [questionId], language: 'english' } });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ code: expect.any(String), field: 'customer_email' });
    const foreignQuestion = await call('sendRequest', {
      body: { customer_name: 'Eve', customer_email: 'eve@client.test', question_ids: ['0b6c1f4e-3a7d-4c2e-9f1a-5d8e2b7c4a10'], language: 'english' },
    });
    expect([400, 404]).toContain(foreignQuestion.statusCode);
  });

  it('sends a request once when retried with the same Idempotency-Key, and refuses the key with another body', async () => {
    const body = { customer_name: 'Ida Retry', customer_email: 'ida@client.test', question_ids: [questionId], language: 'english', delivery: 'link' };
    const headers = { 'Idempotency-Key': 'journey-7d1c2b' };
    const first = await call('sendRequest', { headers, body });
    expect(first.statusCode, first.body).toBe(201);
    const retried = await call('sendRequest', { headers, body });
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.json()).toEqual(first.json());
    const other = await call('sendRequest', { headers, body: { ...body, customer_name: 'Someone Else' } });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ code: 'conflict', error: expect.stringContaining('different body') });
  });

  it('publishes, lists the publication, and unpublishes', async () => {
    const published = await call('publish', { body: { testimonial_id: testimonialId, response_id: responseId } });
    expect(published.statusCode, published.body).toBe(201);
    const { id, url } = published.json<{ id: string; url: string }>();
    expect((await t.app.inject({ method: 'GET', url: new URL(url).pathname })).statusCode).toBe(200);

    const listed = await call('listPublications', { query: { testimonial_id: testimonialId } });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({ total: 1, page: 1, per_page: 20, data: [{ id, testimonial_id: testimonialId, response_id: responseId, job_id: null }] });
    expect((await call('listPublications', { query: { page: 2, per_page: 1 } })).json()).toMatchObject({ data: [], total: 1 });

    const both = await call('publish', { body: { testimonial_id: testimonialId } });
    expect(both.statusCode).toBe(400);
    expect(both.json().field).toBe('job_id');

    const gone = await call('unpublish', { params: { id } });
    expect(gone.statusCode).toBe(204);
    // Down at once: its share page, and the list.
    expect((await t.app.inject({ method: 'GET', url: new URL(url).pathname })).statusCode).toBe(404);
    expect((await call('listPublications', {})).json()).toMatchObject({ data: [], total: 0 });
    const again = await call('unpublish', { params: { id } });
    expect(again.statusCode).toBe(404);
  });

  it('pages publications in the database: every one once across pages, newest first, with the total', async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const published = await call('publish', { body: { testimonial_id: testimonialId, response_id: responseId } });
      expect(published.statusCode, published.body).toBe(201);
      made.push(published.json<{ id: string }>().id);
    }
    // Two made in the same instant are still in one order: newest first, then by id.
    const pages = [];
    for (const page of [1, 2, 3, 4]) {
      const res = await call('listPublications', { query: { page, per_page: 2 } });
      expect(res.statusCode).toBe(200);
      pages.push(res.json<{ data: { id: string; created_at: string }[]; total: number; page: number; per_page: number }>());
    }
    expect(pages.map((p) => [p.page, p.per_page, p.total, p.data.length])).toEqual([
      [1, 2, 5, 2],
      [2, 2, 5, 2],
      [3, 2, 5, 1],
      [4, 2, 5, 0],
    ]);
    const listed = pages.flatMap((p) => p.data);
    expect([...listed.map((p) => p.id)].sort()).toEqual([...made].sort());
    const times = listed.map((p) => p.created_at);
    expect(times).toEqual([...times].sort().reverse());
    const all = await call('listPublications', { query: { per_page: 100 } });
    expect(all.json<{ data: { id: string }[] }>().data.map((p) => p.id)).toEqual(listed.map((p) => p.id));
    // One testimonial's filter pages too.
    expect((await call('listPublications', { query: { testimonial_id: testimonialId, page: 3, per_page: 2 } })).json()).toMatchObject({ total: 5, data: [{ id: listed[4]!.id }] });
    for (const id of made) expect((await call('unpublish', { params: { id } })).statusCode).toBe(204);
    expect((await call('listPublications', {})).json()).toMatchObject({ data: [], total: 0 });
  });

  it('answers 400, 401, 403 and 404 in the documented error shape', async () => {
    expect((await call('listTestimonials', { query: { per_page: 1000 } })).json()).toMatchObject({ code: 'invalid_data' });
    const noKey = await call('listTestimonials', { key: null });
    expect(noKey.statusCode).toBe(401);
    const badKey = await call('getTestimonial', { key: `vr_live_${'0'.repeat(12)}_${'A'.repeat(43)}`, params: { id: testimonialId } });
    expect(badKey.statusCode).toBe(401);
    for (const [operationId, input] of [
      ['sendRequest', { body: { customer_name: 'Read Only', customer_email: 'r@client.test', question_ids: [questionId], language: 'english' } }],
      ['publish', { body: { testimonial_id: testimonialId, response_id: responseId } }],
      ['unpublish', { params: { id: responseId } }],
    ] as const) {
      const refused = await call(operationId, { key: readKey, ...input });
      expect(refused.statusCode, operationId).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'no_permission' });
    }
    const missing = await call('getTestimonial', { params: { id: '0b6c1f4e-3a7d-4c2e-9f1a-5d8e2b7c4a10' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'not_found' });
  });

  it('answers 429 with Retry-After once a key is over its limit', async () => {
    let last = await call('listPublications', { key: readKey });
    for (let i = 0; i < RATE + 2 && last.statusCode !== 429; i += 1) last = await call('listPublications', { key: readKey });
    expect(last.statusCode).toBe(429);
    expect(last.json()).toMatchObject({ code: 'rate_limited' });
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
  });
});
