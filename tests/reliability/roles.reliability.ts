import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip } from '../../src/server/test/clips.js';
import { startS3Server, type TestS3Server } from '../../src/server/test/s3-server.js';
import {
  addQuestions,
  cleanUp,
  entries,
  json,
  processIdOf,
  saveForm,
  scratchDatabase,
  sendRequest,
  signUpCompany,
  startServer,
  until,
  type Company,
  type ScratchDatabase,
  type ServerOptions,
  type ServerProcess,
} from './support.js';

/**
 * The fleet for real: separate API and worker processes against one PostgreSQL database and one
 * S3-compatible bucket. PGlite cannot be shared between processes, so this uses a scratch database of
 * the machine's PostgreSQL.
 */
describe('ROLE=api and ROLE=worker as separate processes on one database and one bucket', () => {
  let scratch: ScratchDatabase;
  let s3: TestS3Server;
  const procs: ServerProcess[] = [];

  const start = async (role: 'api' | 'worker', env: Record<string, string> = {}, more: Partial<ServerOptions> = {}) => {
    // No drafts (issue 31): this test counts its own renders and the files they leave.
    const proc = await startServer({ role, databaseUrl: scratch.url, env: { ...s3.env, DRAFTS: 'off', ...env }, ...more });
    procs.push(proc);
    return proc;
  };

  const jobRows = async (name: string) =>
    (
      await scratch.db.query<{ id: string; state: string; retry_count: number; data: { jobId?: string; _meta?: { requestId?: string } } }>(
        'select id, state, retry_count, data from pgboss.job where name = $1 order by created_on',
        [name],
      )
    ).rows;

  /** The id of an answer's transcode job (its row of `jobs`, which the queue's message names). */
  const transcodeJobOf = async (responseId: string) =>
    (await scratch.db.query<{ id: string }>("select id from jobs where response_id = $1 and kind = 'transcode'", [responseId])).rows[0]?.id;

  /** The `jobs` row of an answer's transcode, as the company follows it. */
  const transcodeRow = async (responseId: string) =>
    (
      await scratch.db.query<{ phase: string; attempts: number; output_key: string | null }>(
        "select phase, attempts, output_key from jobs where response_id = $1 and kind = 'transcode'",
        [responseId],
      )
    ).rows[0];

  /** The queue's messages of an answer's transcode job. */
  const transcodeMessages = async (responseId: string) => {
    const jobId = await transcodeJobOf(responseId);
    return (await jobRows('transcode-answer')).filter((j) => jobId !== undefined && j.data.jobId === jobId);
  };

  /** A request answered by a customer through the API; `slow` holds back half of the body until told. */
  async function submit(api: ServerProcess, me: Company, clipFile: string, slow?: (sendRest: () => void) => void) {
    const [q] = await addQuestions(api, me, ['What changed for you?']);
    const request = await sendRequest(api, me, scratch.db, [q!]);
    const form = await saveForm(request, [clipFile]);
    let body: BodyInit = form.payload;
    if (slow) {
      const half = Math.floor(form.payload.length / 2);
      body = new ReadableStream({
        start(controller) {
          controller.enqueue(form.payload.subarray(0, half));
          slow(() => {
            controller.enqueue(form.payload.subarray(half));
            controller.close();
          });
        },
      });
    }
    const res = await fetch(`${api.url}/api/public/testimonial/save`, {
      method: 'POST',
      headers: { ...form.headers, 'content-length': String(form.payload.length) },
      body,
      ...(slow ? { duplex: 'half' } : {}),
    } as RequestInit);
    const saved = await json(res);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    return { id: request.id, requestId: String(res.headers.get('x-request-id')), responseId: (saved.body.responses as { id: string }[])[0]!.id };
  }

  const videoKeyOf = async (responseId: string) =>
    (await scratch.db.query<{ video_key: string | null }>('select video_key from testimonial_responses where id = $1', [responseId])).rows[0]?.video_key ?? null;

  /** DATA_DIR/tmp holds at most the process's own folder, and that one is empty. */
  async function noTemporaryFiles(p: ServerProcess) {
    const tmp = path.join(p.dataDir, 'tmp');
    const own = p.alive() ? await processIdOf(scratch.db, p) : undefined;
    expect(
      entries(tmp).filter((name) => name !== own),
      p.role,
    ).toEqual([]);
    if (own) expect(entries(path.join(tmp, own)), p.role).toEqual([]);
    expect(entries(p.tmpDir), `${p.role} TMPDIR`).toEqual([]);
  }

  beforeAll(async () => {
    scratch = await scratchDatabase();
    s3 = await startS3Server();
  });

  afterAll(async () => {
    await cleanUp(procs);
    await scratch?.drop();
    await s3?.close();
  });

  it("API processes run no job and workers serve only health, readiness and metrics; the request id reaches the worker's logs", async () => {
    const api = await start('api', { METRICS_TOKEN: 'fleet-metrics-token-123456' });
    const worker = await start('worker', { WORKER_CONCURRENCY: '1', METRICS_TOKEN: 'fleet-metrics-token-123456' });

    const health = await json(await fetch(`${worker.url}/api/health`));
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    const ready = await json(await fetch(`${worker.url}/api/ready`, { headers: { authorization: 'Bearer fleet-metrics-token-123456' } }));
    expect(ready.body).toMatchObject({ status: 'ready', health: { checks: { database: { driver: 'postgres' }, storage: { driver: 's3' } } } });
    const notHere = await json(await fetch(`${worker.url}/api/public/app-config`));
    expect(notHere.status).toBe(404);
    expect(notHere.body.code).toBe('not_found');
    expect((await fetch(`${api.url}/api/public/app-config`)).status).toBe(200);

    const me = await signUpCompany(api, scratch.db);
    const clip = await makeClip({ format: 'webm', seconds: 2, tone: 523 });
    const saved = await submit(api, me, clip);
    const key = await until('the worker to transcode', () => videoKeyOf(saved.responseId));
    expect(await transcodeRow(saved.responseId)).toMatchObject({ phase: 'ready', attempts: 1, output_key: key });
    expect(await s3.keys()).toContain(key);

    // Sent by the API with the request's id, run by the worker, whose log lines carry that id.
    const [job] = await transcodeMessages(saved.responseId);
    expect(job!.data._meta?.requestId).toBe(saved.requestId);
    await until('the job to be completed', async () => (await jobRows('transcode-answer')).find((j) => j.id === job!.id)?.state === 'completed');
    const done = await until("the worker's log line", async () => worker.lines().find((l) => l.msg === 'job completed' && l.jobId === job!.id));
    expect(done).toMatchObject({ reqId: saved.requestId, job: 'transcode-answer' });
    expect(api.lines().some((l) => l.msg === 'job completed')).toBe(false);
    expect(api.lines().some((l) => l.reqId === saved.requestId)).toBe(true);

    // The worker's metrics show its job; the API's show its requests.
    const auth = { authorization: 'Bearer fleet-metrics-token-123456' };
    expect(await (await fetch(`${worker.url}/metrics`, { headers: auth })).text()).toMatch(
      /vouchreel_job_duration_seconds_count\{[^}]*queue="transcode-answer"[^}]*\} [1-9]/,
    );
    expect(await (await fetch(`${api.url}/metrics`, { headers: auth })).text()).toMatch(
      /vouchreel_http_request_duration_seconds_count\{[^}]*route="\/api\/public\/testimonial\/save"/,
    );

    // Paid playback through the API: a redirect to the bucket.
    expect((await me.call(api, 'POST', `/api/testimonials/pay/${saved.id}`)).status).toBe(200);
    const detail = await me.call(api, 'GET', `/api/testimonials/request/${saved.id}?company_id=${me.companyId}`);
    const videoUrl = new URL(String((detail.body.testimonial as { testimonial_responses: { video_url: string }[] }).testimonial_responses[0]!.video_url));
    const redirect = await fetch(`${api.url}${videoUrl.pathname}${videoUrl.search}`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const media = await fetch(String(redirect.headers.get('location')));
    expect(media.status).toBe(200);
    expect(Buffer.from(await media.arrayBuffer()).subarray(4, 8).toString('latin1')).toBe('ftyp');

    // Neither keeps media on its disk, nor temporary files once the work is done.
    for (const p of [api, worker]) {
      expect(existsSync(path.join(p.dataDir, 'media')), p.role).toBe(false);
      await noTemporaryFiles(p);
    }

    // SIGTERM while an upload is in flight: the API finishes it, then exits cleanly.
    let sendRest: () => void = () => undefined;
    const saves = () =>
      api.lines().filter((l) => l.msg === 'incoming request' && (l.req as { url?: string } | undefined)?.url === '/api/public/testimonial/save').length;
    const savesBefore = saves();
    const inFlight = submit(api, me, clip, (rest) => (sendRest = rest));
    await until('the upload to reach the API', async () => saves() > savesBefore, 10_000, 50);
    const apiExit = api.stop();
    await new Promise((r) => setTimeout(r, 500));
    expect(api.child.exitCode).toBeNull();
    sendRest();
    const second = await inFlight;
    expect(second.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await apiExit).toBe(0);
    expect(api.lines().some((l) => l.msg === 'stopped cleanly')).toBe(true);
    await until('the worker to transcode the last upload', () => videoKeyOf(second.responseId));
    expect(await worker.stop()).toBe(0);
    for (const p of [api, worker]) await noTemporaryFiles(p);
  });

  it('SIGTERM hands a job that cannot finish in time back to the queue; another worker finishes it, and finishes what it runs before exiting', async () => {
    const api = await start('api');
    // Long enough to be interrupted: a 19 s 1280×720 answer takes several seconds to transcode here.
    const clip = await makeClip({ format: 'webm', seconds: 19, size: '1280x720', tone: 659 });
    const me = await signUpCompany(api, scratch.db);

    // A worker with one second to finish its jobs on SIGTERM.
    const first = await start('worker', { WORKER_CONCURRENCY: '1', SHUTDOWN_TIMEOUT_SECONDS: '6' });
    const saved = await submit(api, me, clip);
    const active = await until(
      'the first worker to take the job',
      async () => (await transcodeMessages(saved.responseId)).find((j) => j.state === 'active'),
      100_000,
      100,
    );
    expect(await first.stop()).toBe(0);
    const handedBackLines = first.lines().filter((l) => l.msg === 'job interrupted by shutdown: handed back');
    expect(handedBackLines.find((l) => l.jobId === active.id), JSON.stringify(handedBackLines)).toMatchObject({ jobId: active.id, reqId: saved.requestId });
    const handedBack = (await jobRows('transcode-answer')).find((j) => j.id === active.id)!;
    expect(handedBack.state).toBe('created');
    expect(handedBack.retry_count).toBe(0);
    expect(await videoKeyOf(saved.responseId)).toBeNull();
    // Its row waits for the next worker (not failed: the interruption was not the upload's fault).
    expect(await transcodeRow(saved.responseId)).toMatchObject({ phase: 'queued', attempts: 1, output_key: null });
    await noTemporaryFiles(first);
    // Gone cleanly: its row and leases are gone with it.
    expect((await scratch.db.query('select 1 from workers where pid = $1', [first.pid])).rowCount).toBe(0);
    expect((await scratch.db.query('select 1 from job_leases where job_id = $1', [active.id])).rowCount).toBe(0);

    // A second worker takes it; SIGTERM while it runs: with time enough, it finishes, then exits.
    const second = await start('worker', { WORKER_CONCURRENCY: '1', SHUTDOWN_TIMEOUT_SECONDS: '120' });
    await until('the second worker to take the job', async () => (await jobRows('transcode-answer')).find((j) => j.id === active.id)?.state === 'active', 30_000, 100);
    expect(await second.stop()).toBe(0);
    const finished = (await jobRows('transcode-answer')).find((j) => j.id === active.id)!;
    expect(finished.state).toBe('completed');
    expect(finished.retry_count).toBe(0);
    expect(await videoKeyOf(saved.responseId)).toMatch(/answer\.mp4$/);
    expect(await transcodeRow(saved.responseId)).toMatchObject({ phase: 'ready', attempts: 2, output_key: await videoKeyOf(saved.responseId) });
    expect(second.lines().filter((l) => l.msg === 'job completed' && l.jobId === active.id)).toHaveLength(1);
    await noTemporaryFiles(second);
    expect(await api.stop()).toBe(0);
  });
});
