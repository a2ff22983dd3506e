import Fastify from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { resetDatabase, workerDatabase } from '../test/database.js';
import { registerErrorHandling } from './errors.js';
import { byIp, limits, RATE_LIMIT_TABLE, SharedLimits, WindowCounters, windowMs } from './rate-limit.js';

describe('rate-limit windows', () => {
  it('reads window lengths', () => {
    expect(windowMs('10 minutes')).toBe(600_000);
    expect(windowMs('1 hour')).toBe(3_600_000);
    expect(windowMs('1 minute')).toBe(60_000);
    expect(windowMs(2500)).toBe(2500);
    expect(() => windowMs('soon')).toThrow(/Unreadable/);
  });

  it('counts hits per key within a fixed window, then starts again', () => {
    const counters = new WindowCounters();
    expect(counters.hit('a', 1000, 0)).toEqual({ count: 1, resetAt: 1000 });
    expect(counters.hit('a', 1000, 500).count).toBe(2);
    expect(counters.hit('b', 1000, 500).count).toBe(1);
    expect(counters.hit('a', 1000, 999).count).toBe(3);
    expect(counters.hit('a', 1000, 1000)).toEqual({ count: 1, resetAt: 2000 });
  });

  it('takes back a hit counted in advance, within its window only and never below zero', () => {
    const counters = new WindowCounters();
    counters.hit('a', 1000, 0);
    counters.hit('a', 1000, 10);
    counters.refund('a', 20);
    expect(counters.peek('a', 30)).toBe(1);
    counters.refund('a', 40);
    counters.refund('a', 50);
    expect(counters.peek('a', 60)).toBe(0);
    expect(counters.hit('a', 1000, 70).count).toBe(1);
    // An ended window is not touched, and a key never counted is not created.
    counters.refund('a', 1000);
    counters.refund('b', 70);
    expect(counters.size).toBe(1);
    expect(counters.hit('a', 1000, 1000)).toEqual({ count: 1, resetAt: 2000 });
  });

  it('stays within its key bound: ended windows go first, then the oldest quarter', () => {
    const counters = new WindowCounters(8);
    for (let i = 0; i < 4; i++) counters.hit(`short${i}`, 10, 0);
    for (let i = 0; i < 4; i++) counters.hit(`long${i}`, 10_000, 0);
    counters.hit('long0', 10_000, 5);
    // Full: the four ended windows make room, the live ones keep their counts.
    counters.hit('new', 10_000, 20);
    expect(counters.size).toBe(5);
    expect(counters.hit('long0', 10_000, 30).count).toBe(3);
    // Full of live windows: the oldest quarter (two keys) goes.
    for (let i = 0; i < 3; i++) counters.hit(`more${i}`, 10_000, 40);
    expect(counters.size).toBe(8);
    counters.hit('last', 10_000, 50);
    expect(counters.size).toBe(7);
    expect(counters.hit('long0', 10_000, 60).count).toBe(1);
  });
});

describe('a window started afresh (the public pages’ penalties)', () => {
  it('replaces whatever the key held, and tells the time left', () => {
    const counters = new WindowCounters();
    counters.hit('k', 60_000, 0);
    counters.hit('k', 60_000, 0);
    expect(counters.remainingMs('k', 10_000)).toBe(50_000);
    const fresh = counters.restart('k', 120_000, 30_000);
    expect(fresh.count).toBe(1);
    expect(counters.remainingMs('k', 30_000)).toBe(120_000);
    expect(counters.remainingMs('k', 150_000)).toBe(0);
    expect(counters.remainingMs('unknown', 0)).toBe(0);
  });
});

/** The limits shared by the API processes (decision 178): counted in the database, on PGlite and on PostgreSQL. */
describe('shared limits', () => {
  let database: Database;
  const stores: SharedLimits[] = [];
  const store = (db: Database = database) => {
    const created = new SharedLimits(db);
    stores.push(created);
    return created;
  };

  /** An app with one limited route, as the API's routes use them. */
  async function limitedApp(shared: SharedLimits) {
    const app = Fastify();
    app.decorate('sharedLimits', shared);
    registerErrorHandling(app);
    app.get('/limited', { preHandler: [limits(app, [{ name: 'test-route', max: 3, timeWindow: '10 minutes', key: byIp }])] }, async () => ({ ok: true }));
    await app.ready();
    return app;
  }

  beforeAll(async () => {
    database = await workerDatabase();
  });
  beforeEach(async () => {
    await resetDatabase(database);
  });
  afterAll(() => {
    for (const s of stores) s.stop();
  });

  it('counts one limit across the stores of several processes', async () => {
    const one = await limitedApp(store());
    const two = await limitedApp(store());
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await (i % 2 ? one : two).inject({ url: '/limited', remoteAddress: '203.0.113.40' })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    const refused = await one.inject({ url: '/limited', remoteAddress: '203.0.113.40' });
    expect(refused.json()).toMatchObject({ code: 'rate_limited', errorKey: 'rateLimited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(500);
    expect((await two.inject({ url: '/limited', remoteAddress: '203.0.113.41' })).statusCode).toBe(200);
    await Promise.all([one.close(), two.close()]);
  });

  it('fails closed: a store that cannot be reached refuses the call with 503, never lets it through', async () => {
    const unreachable = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const gone = { driver: 'pglite', executeSql: () => Promise.reject(unreachable) } as unknown as Database;
    const app = await limitedApp(store(gone));
    const res = await app.inject({ url: '/limited', remoteAddress: '203.0.113.42' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'unavailable' });
    await app.close();
  });

  it('sweeps rows whose window ended an hour ago, and only those', async () => {
    const shared = store();
    const limiter = shared.limiter('sweep-test', 10, 1000);
    await limiter.consume('old');
    await limiter.consume('new');
    await database.executeSql(`update ${RATE_LIMIT_TABLE} set expire = $1 where key = 'sweep-test:old'`, [Date.now() - 3_600_001]);
    await shared.sweep();
    const { rows } = await database.executeSql(`select key from ${RATE_LIMIT_TABLE} order by key`, []);
    expect(rows).toEqual([{ key: 'sweep-test:new' }]);
  });
});
