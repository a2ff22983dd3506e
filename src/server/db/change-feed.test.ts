/**
 * The cached reads (lib/read-cache.ts) stay exact whoever writes: the API itself, a worker, another
 * API process or a manual fix in SQL. Writes here go straight to the database, past the app, as those
 * would; on PostgreSQL the feed's own connection is also cut and must come back without a stale answer.
 */
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInCompany } from '../test/accounts.js';
import { testDatabaseDriver } from '../test/database.js';
import { createTestApp, type TestApp } from '../test/harness.js';
import { CHANGE_FEED_APPLICATION_NAME } from './change-feed.js';
import { companies, testimonialRequests } from './schema.js';

/** Notifications reach the feed a moment after the commit: ask again for at most two seconds. */
async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 2000;
  for (;;) {
    const value = await read();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('cached reads and the change feed', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  async function pendingRequest() {
    const companyName = `Fleurs ${Math.random().toString(36).slice(2, 8)}`;
    const me = await signedInCompany(t, { companyName });
    const q = (await me.post('/api/questions/add', { company_id: me.companyId, text: 'What did you like?', order_position: 1 })).json<{ id: string }>();
    const sent = await me.post('/api/testimonials/request', { customer_email: 'camille@example.test', customer_name: 'Camille', question_ids: [q.id], language: 'english' });
    expect(sent.statusCode).toBe(201);
    const id = sent.json<{ testimonial: { id: string } }>().testimonial.id;
    const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, id));
    const validate = () => t.app.inject({ method: 'GET', url: `/api/public/testimonial/validate/${row!.token}`, remoteAddress: '10.9.0.1' });
    const list = () => me.get(`/api/testimonials/requests?company_id=${me.companyId}`);
    return { me, id, companyName, validate, list };
  }

  it('serves repeated reads from the cache, and the same answer as the database', async () => {
    const r = await pendingRequest();
    expect(t.ctx.reads.live).toBe(true);
    const first = await r.validate();
    const hits = t.ctx.reads.hits;
    const second = await r.validate();
    expect(t.ctx.reads.hits).toBe(hits + 1);
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.json()).toMatchObject({ testimonial: { id: r.id, customer_name: 'Camille', company: { name: r.companyName } }, questions: [{ text: 'What did you like?' }] });
    const listed = await r.list();
    expect(listed.json()).toEqual([expect.objectContaining({ id: r.id, customer_name: 'Camille', status: 'pending' })]);
    expect((await r.list()).body).toBe(listed.body);
  });

  it('answers from the database again as soon as another writer changes the request or the company', async () => {
    const r = await pendingRequest();
    await r.validate();
    await r.list();
    // A writer outside this process renames the customer, then the company.
    await t.ctx.database.executeSql(`update testimonial_requests set customer_name = 'Camille Roy' where id = $1`, [r.id]);
    const renamed = await eventually(r.validate, (res) => res.json<{ testimonial: { customer_name: string } }>().testimonial.customer_name === 'Camille Roy');
    expect(renamed.json()).toMatchObject({ testimonial: { customer_name: 'Camille Roy' } });
    const listed = await eventually(r.list, (res) => res.json<{ customer_name: string }[]>()[0]?.customer_name === 'Camille Roy');
    expect(listed.json()).toEqual([expect.objectContaining({ customer_name: 'Camille Roy' })]);
    await t.ctx.db.update(companies).set({ name: `${r.companyName} & Co` }).where(eq(companies.id, r.me.companyId));
    const company = await eventually(r.validate, (res) => res.json<{ testimonial: { company: { name: string } } }>().testimonial.company.name === `${r.companyName} & Co`);
    expect(company.json()).toMatchObject({ testimonial: { company: { name: `${r.companyName} & Co` } } });
    // Recorded by a worker: the link now says so, and the list shows it completed.
    await t.ctx.database.executeSql(`update testimonial_requests set status = 'completed' where id = $1`, [r.id]);
    expect((await eventually(r.validate, (res) => res.statusCode === 409)).statusCode).toBe(409);
    expect((await eventually(r.list, (res) => res.json<{ status: string }[]>()[0]?.status === 'completed')).json()).toEqual([
      expect.objectContaining({ status: 'completed' }),
    ]);
    // Deleted: the link is unknown, the list empty.
    await t.ctx.database.executeSql(`delete from testimonial_requests where id = $1`, [r.id]);
    expect((await eventually(r.validate, (res) => res.statusCode === 404)).statusCode).toBe(404);
    expect((await eventually(r.list, (res) => res.json<unknown[]>().length === 0)).json()).toEqual([]);
  });

  it('reads back at once what this process wrote, with no wait', async () => {
    const r = await pendingRequest();
    for (const name of ['Camille A', 'Camille B', 'Camille C', 'Camille D', 'Camille E']) {
      await r.validate();
      await r.list();
      await t.ctx.db.update(testimonialRequests).set({ customerName: name }).where(eq(testimonialRequests.id, r.id));
      expect((await r.validate()).json()).toMatchObject({ testimonial: { customer_name: name } });
      expect((await r.list()).json()).toEqual([expect.objectContaining({ customer_name: name })]);
    }
    await t.ctx.db.update(testimonialRequests).set({ status: 'completed' }).where(eq(testimonialRequests.id, r.id));
    expect((await r.validate()).statusCode).toBe(409);
    expect((await r.list()).json()).toEqual([expect.objectContaining({ status: 'completed' })]);
  });

  it('expires a link by the clock, with no change announced', async () => {
    const r = await pendingRequest();
    expect((await r.validate()).statusCode).toBe(200);
    expect((await r.list()).json()).toEqual([expect.objectContaining({ status: 'pending' })]);
    // The expiry comes close; once the cache holds the new row, no change is announced when it passes.
    await t.ctx.database.executeSql(`update testimonial_requests set expires_at = now() + interval '500 milliseconds' where id = $1`, [r.id]);
    const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, r.id));
    const expiresAt = row!.expiresAt.toISOString();
    await eventually(r.list, (res) => res.json<{ expires_at: string }[]>()[0]?.expires_at === expiresAt);
    expect((await r.validate()).statusCode).toBe(200);
    const hits = t.ctx.reads.hits;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, row!.expiresAt.getTime() - Date.now()) + 50));
    expect((await r.validate()).statusCode).toBe(410);
    expect((await r.list()).json()).toEqual([expect.objectContaining({ status: 'expired' })]);
    // Both answers came from the cached rows (and the list call's session, checked through the cache too).
    expect(t.ctx.reads.hits).toBe(hits + 3);
  });

  it.runIf(testDatabaseDriver() === 'postgres')('stops caching while its connection is cut, and misses no change made meanwhile', async () => {
    const r = await pendingRequest();
    await r.validate();
    const admin = new pg.Client({ connectionString: t.ctx.database.url });
    await admin.connect();
    try {
      // Cut the feed's connection (a restart or a network loss), and change the request while it is away.
      await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = $1`, [CHANGE_FEED_APPLICATION_NAME]);
      await admin.query(`update testimonial_requests set customer_name = 'While away' where id = $1`, [r.id]);
      const away = await eventually(
        async () => t.ctx.reads.live,
        (live) => !live,
      );
      expect(away).toBe(false);
      expect((await r.validate()).json()).toMatchObject({ testimonial: { customer_name: 'While away' } });
      // Back by itself within seconds, caching again.
      const deadline = Date.now() + 10_000;
      while (!t.ctx.reads.live && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(t.ctx.reads.live).toBe(true);
      expect((await r.validate()).json()).toMatchObject({ testimonial: { customer_name: 'While away' } });
      const hits = t.ctx.reads.hits;
      await r.validate();
      expect(t.ctx.reads.hits).toBe(hits + 1);
      await admin.query(`update testimonial_requests set customer_name = 'Back' where id = $1`, [r.id]);
      expect((await eventually(r.validate, (res) => res.json<{ testimonial: { customer_name: string } }>().testimonial.customer_name === 'Back')).json()).toMatchObject({
        testimonial: { customer_name: 'Back' },
      });
    } finally {
      await admin.end();
    }
  });
});
