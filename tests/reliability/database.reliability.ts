import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip } from '../../src/server/test/clips.js';
import {
  addQuestions,
  cleanUp,
  sendRequest,
  signUpCompany,
  sleep,
  startOwnPostgres,
  startServer,
  submitAnswers,
  tempDir,
  until,
  type OwnPostgres,
  type ServerProcess,
} from './support.js';

const UNAVAILABLE = { error: 'The service is briefly unavailable. Please try again in a moment.', code: 'unavailable' };

/**
 * The database stops for a few seconds and starts again, under a running API and worker. This test runs
 * a PostgreSQL server of its own (initdb into a temporary folder, its own port): it never touches the
 * machine's. Meanwhile calls answer 503 in the error shape at once, readiness says not ready; afterwards
 * both processes serve and work again by themselves.
 */
describe('the database stopped and started again', () => {
  let server: OwnPostgres;
  let databaseUrl: string;
  const procs: ServerProcess[] = [];

  /** A connection of the test's own; the server goes away meanwhile, so its errors are expected. */
  const connect = async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    client.on('error', () => undefined);
    await client.connect();
    return client;
  };
  const query = async <T extends object>(sql: string, values: unknown[] = []): Promise<T[]> => {
    const client = await connect();
    try {
      return (await client.query<T>(sql, values)).rows;
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    server = await startOwnPostgres();
    databaseUrl = server.url;
  });

  afterAll(async () => {
    await cleanUp(procs);
    // The whole server and its folder go: nothing to drop.
    await server?.close();
  });

  const timed = async (run: () => Promise<Response>) => {
    const started = performance.now();
    const res = await run();
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Record<string, unknown>, ms: performance.now() - started };
  };

  it('answers 503 { error, code } while it is down, is not ready, and recovers by itself', async () => {
    // One machine: API and worker share DATA_DIR (media on local disk).
    const dataDir = await tempDir('db-data');
    const api = await startServer({ role: 'api', databaseUrl, dataDir });
    const worker = await startServer({ role: 'worker', databaseUrl, dataDir, env: { WORKER_CONCURRENCY: '1', READY_MAIL_GATHER_SECONDS: '1' } });
    procs.push(api, worker);

    const db = await connect();
    const me = await signUpCompany(api, db);
    const [q] = await addQuestions(api, me, ['What changed for you?']);
    const request = await sendRequest(api, me, db, [q!]);
    await db.end();
    const [responseId] = await submitAnswers(api, request, [await makeClip({ format: 'webm', seconds: 1, tone: 440 })]);
    expect((await me.call(api, 'POST', `/api/testimonials/pay/${request.id}`)).status).toBe(200);
    await until('the transcode', async () => (await query<{ video_key: string | null }>('select video_key from testimonial_responses where id = $1', [responseId]))[0]?.video_key);

    await server.stop();
    const stoppedAt = Date.now();

    // Calls meanwhile: 503 in the error shape, within a few seconds, with Retry-After.
    const auth = { authorization: me.headers.authorization! };
    const calls = [
      () => fetch(`${api.url}/api/testimonials/requests?company_id=${me.companyId}`, { headers: auth }),
      () => fetch(`${api.url}/api/testimonials/request/${request.id}?company_id=${me.companyId}`, { headers: auth }),
      () => fetch(`${api.url}/api/public/testimonial/validate/${request.token}`),
      () => fetch(`${api.url}/api/testimonials/response/${responseId}/generate-modified/intro`, { method: 'POST', headers: me.headers, body: JSON.stringify({ language: 'en' }) }),
      () =>
        fetch(`${api.url}/api/auth/signin`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: me.email, password: 'secret12' }),
        }),
    ];
    for (const call of calls) {
      const res = await timed(call);
      expect(res.status, JSON.stringify(res.body)).toBe(503);
      expect(res.body).toEqual(UNAVAILABLE);
      expect(res.retryAfter).toBe('5');
      expect(res.ms).toBeLessThan(3000);
    }
    for (const p of [api, worker]) {
      // A process that died while the database was away says why (its last log lines).
      if (!p.alive()) throw new Error(`The ${p.role} process exited while the database was down:\n${p.output().slice(-6000)}`);
      const ready = await timed(() => fetch(`${p.url}/api/ready`));
      expect(ready.status, p.role).toBe(503);
      expect(ready.body).toEqual({ error: expect.stringMatching(/^Not ready: database(, queue)? unreachable\.$/), code: 'unavailable' });
      expect(ready.ms).toBeLessThan(4000);
    }

    // Down for a few seconds in all; neither process gave up.
    await sleep(Math.max(0, 4000 - (Date.now() - stoppedAt)));
    expect(api.alive() && worker.alive()).toBe(true);
    await server.start();

    // Back by itself, without a restart of either process.
    const restartedAt = Date.now();
    for (const p of [api, worker]) await until(`${p.role} to be ready again`, async () => (await fetch(`${p.url}/api/ready`)).ok, 30_000, 100);
    const recoveredInMs = Date.now() - restartedAt;
    expect(recoveredInMs).toBeLessThan(15_000);
    const list = await timed(calls[0]!);
    expect(list.status, JSON.stringify(list.body)).toBe(200);

    // Jobs run again: an intro render started now completes, and says so by e-mail.
    const intro = await timed(calls[3]!);
    expect(intro.status).toBe(202);
    const done = await until(
      'the render after the restart',
      async () => (await query<{ modified_key: string | null }>('select modified_key from testimonial_responses where id = $1', [responseId]))[0]?.modified_key,
      60_000,
      250,
    );
    expect(done).toMatch(/intro-[0-9a-f-]+\.mp4$/);
    // Nobody follows it on a page: its 'video ready' e-mail is sent (gathered for READY_MAIL_GATHER_SECONDS).
    await until('the e-mail', async () => (await query(`select 1 from pgboss.job where name = 'send-mail' and state = 'completed' and data->>'subject' like 'Answer with intro — %'`)).length === 1, 30_000);

    // The same processes throughout; the outage was logged as such, never as an unhandled error.
    expect(api.alive() && worker.alive()).toBe(true);
    expect(api.lines().filter((l) => l.msg === 'service unavailable: database unreachable').length).toBeGreaterThanOrEqual(calls.length);
    expect(api.lines().filter((l) => l.msg === 'unhandled error')).toEqual([]);
    for (const p of [api, worker]) expect(await p.stop(), p.role).toBe(0);
  });
});
