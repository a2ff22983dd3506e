import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip } from '../../src/server/test/clips.js';
import { startS3Server, type TestS3Server } from '../../src/server/test/s3-server.js';
import {
  addQuestions,
  cleanUp,
  json,
  saveForm,
  scratchDatabase,
  sendRequest,
  signUpCompany,
  startServer,
  submitAnswers,
  until,
  type Company,
  type ScratchDatabase,
  type ServerProcess,
} from './support.js';

/**
 * The transactional outbox (issue 16), proved with real processes on real PostgreSQL: an API process
 * killed (SIGKILL) right after a transaction that starts work commits, before its next statement
 * (TEST_CRASH_AFTER, lib/crash-point.ts), leaves that work committed with its queue message, and a
 * worker started afterwards does it. Before issue 16 the message was sent after the commit, and such a
 * crash left the answers "Preparing…" forever.
 */
describe('work committed with its rows is done even when the API dies right after the commit', () => {
  let scratch: ScratchDatabase;
  let s3: TestS3Server;
  const procs: ServerProcess[] = [];

  const start = async (role: 'api' | 'worker', env: Record<string, string> = {}) => {
    const proc = await startServer({ role, databaseUrl: scratch.url, env: { ...s3.env, ...env } });
    procs.push(proc);
    return proc;
  };

  interface JobRowView {
    id: string;
    kind: string;
    phase: string;
    response_id: string | null;
    output_key: string | null;
    error_reason: string | null;
  }
  const jobsOf = async (requestId: string) =>
    (await scratch.db.query<JobRowView>('select id, kind, phase, response_id, output_key, error_reason from jobs where request_id = $1 order by created_at', [requestId])).rows;
  const messages = async (queue: string) =>
    (await scratch.db.query<{ id: string; state: string; data: { jobId?: string } }>('select id, state, data from pgboss.job where name = $1', [queue])).rows;
  const answersOf = async (requestId: string) =>
    (
      await scratch.db.query<{ id: string; original_key: string; video_key: string | null; modified_key: string | null; intro_generated: boolean }>(
        'select id, original_key, video_key, modified_key, intro_generated from testimonial_responses where request_id = $1 order by order_position',
        [requestId],
      )
    ).rows;

  /** The API process died of the crash point, not of anything else. */
  async function diedAt(api: ServerProcess, point: string) {
    await api.exited;
    expect(api.child.signalCode, api.output()).toBe('SIGKILL');
    expect(api.lines().find((l) => l.msg === 'crash point reached: killing this process')).toMatchObject({ crashPoint: point });
  }

  /** The job as the company reads it through the API. */
  const jobThroughApi = async (api: ServerProcess, me: Company, id: string) => me.call(api, 'GET', `/api/jobs/${id}`);

  beforeAll(async () => {
    scratch = await scratchDatabase();
    s3 = await startS3Server();
  });

  afterAll(async () => {
    await cleanUp(procs);
    await scratch?.drop();
    await s3?.close();
  });

  it('a submission: the API dies after the answers commit; after a restart with a worker, every answer is transcoded', async () => {
    // No worker yet: what the dead API committed stays where it left it, for the test to look at.
    const api = await start('api', { TEST_CRASH_AFTER: 'submission-committed' });
    const me = await signUpCompany(api, scratch.db);
    const questions = await addQuestions(api, me, ['What changed for you?', 'Would you recommend us?']);
    const request = await sendRequest(api, me, scratch.db, questions);
    const clips = [await makeClip({ format: 'webm', seconds: 2, tone: 440 }), await makeClip({ format: 'webm', seconds: 2, tone: 523 })];
    const form = await saveForm(request, clips);

    // The customer gets no answer: the process is gone the instant after its commit.
    await expect(
      fetch(`${api.url}/api/public/testimonial/save`, { method: 'POST', headers: { ...form.headers, 'x-forwarded-for': '10.0.0.7' }, body: form.payload }),
    ).rejects.toThrow();
    await diedAt(api, 'submission-committed');

    // Committed together: the request, both answers and their stored originals, a transcode job each
    // with its queue message, and the company's e-mail.
    const status = (await scratch.db.query<{ status: string }>('select status from testimonial_requests where id = $1', [request.id])).rows[0]?.status;
    expect(status).toBe('completed');
    const answers = await answersOf(request.id);
    expect(answers).toHaveLength(2);
    expect(answers.every((a) => a.video_key === null)).toBe(true);
    const keys = await s3.keys();
    for (const a of answers) expect(keys).toContain(a.original_key);
    const transcodes = (await jobsOf(request.id)).filter((j) => j.kind === 'transcode');
    expect(transcodes.map((j) => j.response_id).sort()).toEqual(answers.map((a) => a.id).sort());
    expect(transcodes.every((j) => j.phase === 'queued')).toBe(true);
    const sent = await messages('transcode-answer');
    for (const j of transcodes) expect(sent.find((m) => m.data.jobId === j.id)).toMatchObject({ state: 'created' });
    expect((await messages('send-mail')).length).toBeGreaterThanOrEqual(1);

    // A restart, with a worker: every answer is transcoded, and its job reads ready through the API.
    const again = await start('api');
    const worker = await start('worker', { WORKER_CONCURRENCY: '1' });
    const done = await until(
      'both answers to be transcoded',
      async () => {
        const rows = await answersOf(request.id);
        return rows.every((a) => a.video_key) ? rows : null;
      },
      120_000,
    );
    const stored = await s3.keys();
    for (const a of done) {
      expect(stored).toContain(a.video_key);
      // The originals outlived the dead API: its pending objects were confirmed in the transaction.
      expect(stored).toContain(a.original_key);
    }
    for (const j of transcodes) {
      const read = await until(`job ${j.id} to read ready`, async () => {
        const res = await jobThroughApi(again, me, j.id);
        return res.body.phase === 'ready' ? res : null;
      });
      expect(read).toMatchObject({ status: 200, body: { id: j.id, kind: 'transcode', phase: 'ready', progress: 100 } });
    }
    expect((await jobsOf(request.id)).filter((j) => j.kind === 'transcode').every((j) => j.phase === 'ready')).toBe(true);
    // Done once each: one message per job, completed.
    const after = await messages('transcode-answer');
    for (const j of transcodes) expect(after.filter((m) => m.data.jobId === j.id).map((m) => m.state)).toEqual(['completed']);
    // Gone before the next test, whose committed job must wait in the queue with no worker to take it.
    expect(await worker.stop()).toBe(0);
    await again.stop();
  });

  it("a render start: the API dies after the intro's job commits; after a restart with a worker, the intro is rendered", async () => {
    const api = await start('api', { TEST_CRASH_AFTER: 'render-committed' });
    const worker = await start('worker', { WORKER_CONCURRENCY: '1' });
    const me = await signUpCompany(api, scratch.db);
    const [question] = await addQuestions(api, me, ['What did you like most?']);
    const request = await sendRequest(api, me, scratch.db, [question!]);
    const [responseId] = await submitAnswers(api, request, [await makeClip({ format: 'webm', seconds: 2, tone: 659 })], '10.0.0.8');
    await until('the answer to be transcoded', async () => (await answersOf(request.id))[0]?.video_key, 120_000);
    const paid = await me.call(api, 'POST', `/api/testimonials/pay/${request.id}`);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    // No worker while the API dies: the committed job waits in the queue for the test to see it.
    expect(await worker.stop()).toBe(0);

    await expect(
      fetch(`${api.url}/api/testimonials/response/${responseId}/generate-modified/intro`, {
        method: 'POST',
        headers: me.headers,
        body: JSON.stringify({ language: 'en' }),
      }),
    ).rejects.toThrow();
    await diedAt(api, 'render-committed');

    const intros = (await jobsOf(request.id)).filter((j) => j.kind === 'intro');
    expect(intros).toHaveLength(1);
    const intro = intros[0]!;
    expect(intro).toMatchObject({ response_id: responseId, phase: 'queued', output_key: null });
    expect((await messages('render-output')).filter((m) => m.data.jobId === intro.id).map((m) => m.state)).toEqual(['created']);
    expect((await answersOf(request.id))[0]).toMatchObject({ modified_key: null, intro_generated: false });

    const again = await start('api');
    await start('worker', { WORKER_CONCURRENCY: '1' });
    const read = await until(
      'the intro to be rendered',
      async () => {
        const res = await jobThroughApi(again, me, intro.id);
        if (res.body.phase === 'failed') throw new Error(`the intro failed: ${JSON.stringify(res.body)}`);
        return res.body.phase === 'ready' ? res : null;
      },
      180_000,
    );
    expect(read).toMatchObject({ status: 200, body: { id: intro.id, kind: 'intro', responseId, phase: 'ready', progress: 100 } });
    const [job] = (await jobsOf(request.id)).filter((j) => j.id === intro.id);
    expect(job!.output_key).toBeTruthy();
    expect(await s3.keys()).toContain(job!.output_key);
    expect((await answersOf(request.id))[0]).toMatchObject({ modified_key: job!.output_key, intro_generated: true });
    expect((await messages('render-output')).filter((m) => m.data.jobId === intro.id).map((m) => m.state)).toEqual(['completed']);

    // Nothing is left "in progress": a new intro of the answer is accepted at once.
    const next = await json(
      await fetch(`${again.url}/api/testimonials/response/${responseId}/generate-modified/intro`, {
        method: 'POST',
        headers: me.headers,
        body: JSON.stringify({ language: 'en' }),
      }),
    );
    expect(next.status, JSON.stringify(next.body)).toBe(202);
    expect(next.body.jobId).toEqual(expect.any(String));
    expect(next.body.jobId).not.toBe(intro.id);
  });
});
