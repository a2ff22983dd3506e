import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';

describe('questions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  async function withQuestions(texts: string[]) {
    const me = await signedInCompany(t);
    for (const [i, text] of texts.entries()) {
      const res = await me.post('/api/questions/add', { company_id: me.companyId, text, order_position: i + 1 });
      expect(res.statusCode, res.body).toBe(201);
    }
    const list = async () => {
      const res = await me.get(`/api/questions/list?company_id=${me.companyId}&_t=${Date.now()}`);
      expect(res.statusCode).toBe(200);
      return res.json() as { id: string; text: string; order_position: number; company_id: string }[];
    };
    return { me, list };
  }

  it('adds, lists in order, edits and deletes, keeping positions 1..n', async () => {
    const { me, list } = await withQuestions(['What did you need?', 'How was it?', 'Would you recommend us?']);
    let q = await list();
    expect(q.map((x) => [x.text, x.order_position])).toEqual([
      ['What did you need?', 1],
      ['How was it?', 2],
      ['Would you recommend us?', 3],
    ]);
    expect(q[0]?.company_id).toBe(me.companyId);

    const edit = await me.post('/api/questions/edit', { id: q[1]!.id, company_id: me.companyId, text: '  How was working with us?  ' });
    expect(edit.json()).toMatchObject({ text: 'How was working with us?', order_position: 2 });

    const del = await me.post('/api/questions/delete', { id: q[0]!.id, company_id: me.companyId });
    expect(del.json()).toEqual({ success: true });
    q = await list();
    expect(q.map((x) => [x.text, x.order_position])).toEqual([
      ['How was working with us?', 1],
      ['Would you recommend us?', 2],
    ]);
  });

  it('moves a question up and down, shifting the others', async () => {
    const { me, list } = await withQuestions(['A', 'B', 'C', 'D']);
    const [a, , , d] = await list();
    await me.post('/api/questions/update-position', { id: d!.id, company_id: me.companyId, old_position: 4, new_position: 1 });
    expect((await list()).map((x) => x.text)).toEqual(['D', 'A', 'B', 'C']);
    await me.post('/api/questions/update-position', { id: a!.id, company_id: me.companyId, old_position: 2, new_position: 4 });
    expect((await list()).map((x) => `${x.text}${x.order_position}`)).toEqual(['D1', 'B2', 'C3', 'A4']);
    // Out of range is clamped, never a gap.
    await me.post('/api/questions/update-position', { id: d!.id, company_id: me.companyId, old_position: 1, new_position: 99 });
    expect((await list()).map((x) => `${x.text}${x.order_position}`)).toEqual(['B1', 'C2', 'A3', 'D4']);
  });

  it('keeps positions dense and unique under concurrent reorders, adds and deletes', async () => {
    const { me, list } = await withQuestions(['1', '2', '3', '4', '5', '6']);
    const q = await list();
    const calls = [
      me.post('/api/questions/update-position', { id: q[0]!.id, company_id: me.companyId, old_position: 1, new_position: 6 }),
      me.post('/api/questions/update-position', { id: q[5]!.id, company_id: me.companyId, old_position: 6, new_position: 1 }),
      me.post('/api/questions/delete', { id: q[2]!.id, company_id: me.companyId }),
      me.post('/api/questions/add', { company_id: me.companyId, text: 'new', order_position: 7 }),
      me.post('/api/questions/update-position', { id: q[3]!.id, company_id: me.companyId, old_position: 4, new_position: 2 }),
      me.post('/api/questions/add', { company_id: me.companyId, text: 'newer', order_position: 7 }),
    ];
    const results = await Promise.all(calls);
    for (const r of results) expect(r.statusCode, r.body).toBeLessThan(300);
    const after = await list();
    expect(after).toHaveLength(7);
    expect(after.map((x) => x.order_position)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('ignores the client company_id for scoping and refuses another company (no_permission)', async () => {
    const { me, list } = await withQuestions(['Mine']);
    const [mine] = await list();
    const other = await signedInCompany(t);

    expect((await other.get(`/api/questions/list?company_id=${me.companyId}`)).json()).toMatchObject({ code: 'no_permission' });
    expect((await other.get(`/api/questions/list?company_id=${other.companyId}`)).json()).toEqual([]);
    for (const [url, body] of [
      ['/api/questions/edit', { id: mine!.id, company_id: other.companyId, text: 'hacked' }],
      ['/api/questions/delete', { id: mine!.id, company_id: other.companyId }],
      ['/api/questions/update-position', { id: mine!.id, company_id: other.companyId, old_position: 1, new_position: 1 }],
      ['/api/questions/add', { company_id: me.companyId, text: 'planted', order_position: 1 }],
    ] as const) {
      const res = await other.post(url, body);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().code).toBe('no_permission');
    }
    expect((await list()).map((x) => x.text)).toEqual(['Mine']);
  });

  it('requires sign-in and validates text', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/questions/list?company_id=00000000-0000-4000-8000-000000000000' });
    expect(anonymous.statusCode).toBe(401);
    const me = await signedInCompany(t);
    const blank = await me.post('/api/questions/add', { company_id: me.companyId, text: '   ', order_position: 1 });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().field).toBe('text');
    const long = await me.post('/api/questions/add', { company_id: me.companyId, text: 'x'.repeat(501), order_position: 1 });
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toMatch(/at most 500/);
  });

  it('refuses to delete a question used by a sent request, with a text containing "being used"', async () => {
    const { me, list } = await withQuestions(['Used one']);
    const [q] = await list();
    const sent = await me.post('/api/testimonials/request', {
      customer_email: 'client@example.test',
      customer_name: 'Client',
      question_ids: [q!.id],
      language: 'english',
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const res = await me.post('/api/questions/delete', { id: q!.id, company_id: me.companyId });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'conflict', reason: 'question_in_use' });
    expect(res.json().error).toContain('being used');
    expect(await list()).toHaveLength(1);
  });
});
