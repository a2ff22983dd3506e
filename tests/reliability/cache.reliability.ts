import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip } from '../../src/server/test/clips.js';
import {
  addQuestions,
  cleanUp,
  json,
  scratchDatabase,
  sendRequest,
  signUpCompany,
  startServer,
  submitAnswers,
  tempDir,
  until,
  type ScratchDatabase,
  type ServerProcess,
} from './support.js';

/**
 * Two API processes behind one load balancer cache the customer's link and the company's list of
 * requests (lib/read-cache.ts). A change made through one, or by a worker, reaches the other's answers
 * at once: the database announces it to every process. Measured here: how long after the write the
 * other process answers with it.
 */
describe('cached reads across API processes', () => {
  let scratch: ScratchDatabase;
  const procs: ServerProcess[] = [];

  beforeAll(async () => {
    scratch = await scratchDatabase();
  });
  afterAll(async () => {
    await cleanUp(procs);
    await scratch?.drop();
  });

  it('answers with a change made through another process within a moment, never with the old rows', async () => {
    const shared = await tempDir('cache-data');
    // Behind the load balancer: each check comes from its own address, below the per-address limit.
    const env = { TRUST_PROXY: '1' };
    const a = await startServer({ role: 'api', databaseUrl: scratch.url, dataDir: shared, env });
    const b = await startServer({ role: 'api', databaseUrl: scratch.url, dataDir: shared, env });
    const worker = await startServer({ role: 'worker', databaseUrl: scratch.url, dataDir: shared, env: { WORKER_CONCURRENCY: '1' } });
    procs.push(a, b, worker);

    const me = await signUpCompany(a, scratch.db);
    const [q] = await addQuestions(a, me, ['What changed for you?']);
    const request = await sendRequest(a, me, scratch.db, [q!]);
    let visitor = 0;
    const validateOn = (p: ServerProcess, token = request.token) =>
      fetch(`${p.url}/api/public/testimonial/validate/${token}`, { headers: { 'x-forwarded-for': `10.1.${(++visitor >> 8) & 255}.${visitor & 255}` } }).then(json);
    const listOn = (p: ServerProcess) => me.call(p, 'GET', `/api/testimonials/requests?company_id=${me.companyId}`);

    // B has the link and the list in its cache, several times over.
    for (let i = 0; i < 3; i++) {
      expect((await validateOn(b)).status).toBe(200);
      expect((await listOn(b)).body).toEqual([expect.objectContaining({ id: request.id, status: 'pending' })]);
    }

    // A second request sent through A appears in B's list.
    const second = await sendRequest(a, me, scratch.db, [q!], 'Noor');
    const seen = await until('the new request in B’s list', async () => {
      const list = (await listOn(b)).body as unknown as { id: string }[];
      return list.some((r) => r.id === second.id) && list;
    }, 2000, 10);
    expect(seen.map((r) => r.id)).toEqual([second.id, request.id]);

    // The customer records through A: B's link answers 'already recorded' and its list says completed.
    const clip = await makeClip({ format: 'webm', seconds: 1, tone: 440 });
    await submitAnswers(a, request, [clip]);
    const savedAt = Date.now();
    const completed = await until('B to see the link recorded', async () => (await validateOn(b)).status === 409 && Date.now(), 2000, 10);
    expect(completed - savedAt).toBeLessThan(1000);
    const list = (await listOn(b)).body as unknown as { id: string; status: string }[];
    expect(list.find((r) => r.id === request.id)?.status).toBe('completed');

    // A fix made in SQL, past every process, reaches B as well.
    await scratch.db.query(`update testimonial_requests set customer_name = 'Noor Haddad' where id = $1`, [second.id]);
    const renamed = await until('B to see the manual fix', async () => {
      const res = await validateOn(b, second.token);
      return (res.body.testimonial as { customer_name: string } | undefined)?.customer_name === 'Noor Haddad' && res;
    }, 2000, 10);
    expect(renamed.status).toBe(200);

    for (const p of [a, b, worker]) expect(await p.stop(), p.role).toBe(0);
  });
});
