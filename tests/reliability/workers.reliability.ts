import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import PgBoss from 'pg-boss';
import PostalMime from 'postal-mime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip } from '../../src/server/test/clips.js';
import { startS3Server, type TestS3Server } from '../../src/server/test/s3-server.js';
import {
  addQuestions,
  cleanUp,
  entries,
  inBatches,
  processIdOf,
  scratchDatabase,
  sendRequest,
  signUpCompany,
  sleep,
  startServer,
  submitAnswers,
  tempDir,
  until,
  type ScratchDatabase,
  type SentRequest,
  type ServerProcess,
} from './support.js';

/**
 * Three workers share 60 short renders; one is killed with SIGKILL in the middle and started again.
 * Every render finishes exactly once: one output per answer, each render named in exactly one 'video
 * ready' e-mail of its testimonial, no failed job, and no temporary file anywhere once the processes stop.
 */
describe('three workers, one killed with SIGKILL mid-way and restarted', () => {
  let scratch: ScratchDatabase;
  let s3: TestS3Server;
  let dataDir: string;
  const procs: ServerProcess[] = [];

  beforeAll(async () => {
    scratch = await scratchDatabase();
    s3 = await startS3Server();
    // One DATA_DIR for the fleet (one machine): the outbox and DATA_DIR/tmp are shared; each process
    // has its own TMPDIR and its own folder under DATA_DIR/tmp.
    dataDir = await tempDir('fleet-data');
  });

  afterAll(async () => {
    await cleanUp(procs);
    await scratch?.drop();
    await s3?.close();
  });

  const start = async (role: 'api' | 'worker', tmpDir?: string) => {
    const proc = await startServer({
      role,
      databaseUrl: scratch.url,
      dataDir,
      ...(tmpDir ? { tmpDir } : {}),
      // 'Ready' e-mails gathered for a second, at most one per testimonial every two seconds (600 s in production).
      env: { ...s3.env, TRUST_PROXY: '1', WORKER_CONCURRENCY: '1', READY_MAIL_GATHER_SECONDS: '1', READY_MAIL_INTERVAL_SECONDS: '2', DRAFTS: 'off' },
    });
    procs.push(proc);
    return proc;
  };

  const count = async (sql: string, values: unknown[] = []) => Number((await scratch.db.query<{ n: string }>(sql, values)).rows[0]!.n);

  it('finishes each of 60 renders exactly once, with one output each, named in one e-mail each, and leaves no temporary file', async () => {
    const api = await start('api');
    const workers = [await start('worker'), await start('worker'), await start('worker')];
    const clips = await Promise.all([440, 550, 660].map((tone) => makeClip({ format: 'webm', seconds: 1, tone })));

    // 20 customers answer 3 questions each, through the real save call.
    const me = await signUpCompany(api, scratch.db);
    const questions = await addQuestions(api, me, ['What was the problem?', 'What changed?', 'Would you recommend us?']);
    const requests: SentRequest[] = [];
    for (let i = 0; i < 20; i++) requests.push(await sendRequest(api, me, scratch.db, questions, `Customer ${i}`));
    const responseIds = (await inBatches(requests, 3, (request, i) => submitAnswers(api, request, clips, `10.0.${i}.1`))).flat();
    expect(responseIds).toHaveLength(60);

    // Credits bought in the test checkout, then each testimonial unlocked.
    // The test checkout's pay step takes the cookie its signed-in opening set (bound to this company).
    const checkout = await fetch(`${api.url}/api/payment/checkout-session`, { method: 'POST', headers: me.headers, body: JSON.stringify({ priceId: 'medium' }) });
    expect(checkout.status).toBe(200);
    const checkoutUrl = String(((await checkout.json()) as { url: string }).url);
    const pay = await fetch(`${api.url}${new URL(checkoutUrl).pathname}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: String(checkout.headers.get('set-cookie')).split(';')[0]! },
      redirect: 'manual',
    });
    expect(pay.status).toBe(303);
    for (const request of requests) expect((await me.call(api, 'POST', `/api/testimonials/pay/${request.id}`)).status).toBe(200);
    await until('the 60 answers to be transcoded', async () => (await count('select count(*) n from testimonial_responses where video_key is not null')) === 60, 180_000, 250);

    // 60 intro renders, started through the API.
    const started = await inBatches(responseIds, 6, (id) => me.call(api, 'POST', `/api/testimonials/response/${id}/generate-modified/intro`, { language: 'en' }));
    expect(started.map((s) => s.status)).toEqual(responseIds.map(() => 202));

    // Mid-way, while it holds a render, one worker is killed without notice. It is frozen first (SIGSTOP)
    // so that what it holds and leaves on disk can be read exactly, then killed (SIGKILL).
    const victim = workers[1]!;
    const victimId = await processIdOf(scratch.db, victim);
    const renderLeases = async () =>
      (await scratch.db.query<{ job_id: string }>(`select job_id from job_leases where worker_id = $1 and queue = 'render-output'`, [victimId])).rows.map((r) => r.job_id);
    let held: string[] = [];
    while (!held.length) {
      await until(
        'the victim to hold a render, a quarter of the renders done',
        async () => (await count(`select count(*) n from pgboss.job where name = 'render-output' and state = 'completed'`)) >= 15 && (await renderLeases()).length > 0,
        120_000,
        10,
      );
      victim.child.kill('SIGSTOP');
      await sleep(200);
      held = await renderLeases();
      if (!held.length) victim.child.kill('SIGCONT');
    }
    expect(held).toHaveLength(1);
    expect(existsSync(path.join(dataDir, 'tmp', victimId))).toBe(true);
    await victim.kill();
    const completedAtKill = await count(`select count(*) n from pgboss.job where name = 'render-output' and state = 'completed'`);
    expect(completedAtKill).toBeLessThan(60);

    // Restarted (same TMPDIR): the dead process is found at once (same machine, pid gone), its job requeued.
    const restarted = await start('worker', victim.tmpDir);
    await until('every render to complete', async () => (await count(`select count(*) n from pgboss.job where name = 'render-output' and state = 'completed'`)) === 60, 180_000, 250);

    // Exactly once: 60 jobs, none failed; the held one ran a second, counted attempt elsewhere.
    const jobs = (
      await scratch.db.query<{ id: string; state: string; retry_count: number; output: { worker?: string } | null; response_id: string; media_job_id: string; phase: string; output_key: string | null }>(
        `select q.id, q.state, q.retry_count, q.output, m.response_id, m.id as media_job_id, m.phase, m.output_key
           from pgboss.job q join jobs m on m.id::text = q.data->>'jobId' where q.name = 'render-output'`,
      )
    ).rows;
    expect(jobs).toHaveLength(60);
    expect(new Set(jobs.map((j) => j.response_id))).toEqual(new Set(responseIds));
    for (const job of jobs) {
      expect(job.state).toBe('completed');
      expect(job.retry_count, job.id).toBe(held.includes(job.id) ? 1 : 0);
    }
    for (const id of held) expect(jobs.find((j) => j.id === id)!.output?.worker).not.toBe(victimId);
    const everyone = [api, ...workers, restarted];
    const completions = everyone.flatMap((p) => p.lines()).filter((l) => l.msg === 'job completed' && l.job === 'render-output');
    expect(completions.map((l) => l.jobId).sort()).toEqual(jobs.map((j) => j.id).sort());
    const handedBack = everyone.flatMap((p) => p.lines()).filter((l) => l.msg === 'jobs of a dead process handed back to the queue');
    const requeued = handedBack.flatMap((l) => l.jobs as { id: string; queue: string; state: string }[]);
    expect(requeued.filter((j) => j.queue === 'render-output').map((j) => [j.id, j.state])).toEqual(held.map((id) => [id, 'retry']));

    // One output per answer: the key the answer points at, derived from its render's job key.
    const answers = (
      await scratch.db.query<{ id: string; modified_key: string }>('select id, modified_key from testimonial_responses')
    ).rows;
    const keys = (await s3.keys()).filter((k) => k.startsWith('companies/'));
    for (const answer of answers) {
      const job = jobs.find((j) => j.response_id === answer.id)!;
      // The answer points at its render's output, the render's job row says ready with that output.
      expect(job).toMatchObject({ phase: 'ready', output_key: answer.modified_key });
      expect(answer.modified_key).toMatch(new RegExp(`/answers/${answer.id}/intro-${job.media_job_id}\\.mp4$`));
      // One output and its poster beside it (posters.ts), however many times the render was delivered.
      expect(keys.filter((k) => k.includes(`/answers/${answer.id}/intro-`)).sort()).toEqual([answer.modified_key.replace(/\.mp4$/, '.jpg'), answer.modified_key]);
    }
    // Nothing else in the bucket: per answer the upload, its transcode, its poster, its intro and the intro's poster.
    expect(keys).toHaveLength(60 * 5);

    // Nobody followed the renders: each is named in exactly one 'video ready' e-mail of its testimonial
    // (its renders gathered into one e-mail or a few, never one named twice).
    const outbox = async () => {
      const files = entries(path.join(dataDir, 'outbox'));
      const mails = await Promise.all(files.filter((f) => f.endsWith('.eml')).map(async (f) => PostalMime.parse(await readFile(path.join(dataDir, 'outbox', f)))));
      return { files, ready: mails.filter((m) => / — Cleo$/.test(m.subject ?? '')) };
    };
    const mailQueues = `name in ('ready-mail', 'send-mail')`;
    await until('the e-mails to be sent', async () => (await count(`select count(*) n from pgboss.job where ${mailQueues} and state <> 'completed'`)) === 0 && (await count('select count(*) n from jobs where notify_pending')) === 0, 60_000);
    expect(await count(`select count(*) n from pgboss.job where state <> 'completed'`)).toBe(0);
    const mail = await outbox();
    const named = (request: SentRequest, question: string) =>
      mail.ready.filter((m) => (m.text ?? '').includes(`/dashboard/testimonials/${request.id}`)).flatMap((m) => (m.text ?? '').split('\n').filter((l) => l === `• Answer with intro — “${question}”`));
    for (const request of requests) {
      for (const question of ['What was the problem?', 'What changed?', 'Would you recommend us?']) expect(named(request, question), request.id).toHaveLength(1);
    }
    const readyCount = mail.ready.length;
    expect(readyCount).toBeGreaterThanOrEqual(20);
    expect(readyCount).toBeLessThanOrEqual(60);
    expect(mail.files.filter((f) => !f.endsWith('.eml'))).toEqual([]);

    // The same render delivered once more (a duplicate or an expired lease): nothing new is made or sent.
    const duplicate = jobs.find((j) => held.includes(j.id))!;
    const boss = new PgBoss({ connectionString: scratch.url, supervise: false, schedule: false, migrate: false, max: 1 });
    await boss.start();
    const again = await boss.send('render-output', { jobId: duplicate.media_job_id });
    await boss.stop({ graceful: false, close: true });
    await until('the duplicate to complete', async () => (await count(`select count(*) n from pgboss.job where id = $1 and state = 'completed'`, [again])) === 1, 30_000);
    expect((await s3.keys()).filter((k) => k.startsWith('companies/'))).toEqual(keys);
    await until('the mail queues to be idle', async () => (await count(`select count(*) n from pgboss.job where ${mailQueues} and state <> 'completed'`)) === 0, 30_000);
    expect((await outbox()).ready).toHaveLength(readyCount);

    // The killed worker's temporary folder was removed when it was found dead.
    expect(existsSync(path.join(dataDir, 'tmp', victimId))).toBe(false);
    expect(everyone.flatMap((p) => p.lines()).find((l) => l.msg === 'process ended without stopping: removed' && l.worker === victimId)).toBeDefined();

    // Everyone stops cleanly; no temporary file is left, in DATA_DIR/tmp or any TMPDIR; no row, no lease.
    for (const p of [api, workers[0]!, workers[2]!, restarted]) expect(await p.stop(), p.role).toBe(0);
    expect(entries(path.join(dataDir, 'tmp'))).toEqual([]);
    for (const p of everyone) expect(entries(p.tmpDir), `${p.role} ${p.pid} TMPDIR`).toEqual([]);
    expect(await count('select count(*) n from workers')).toBe(0);
    expect(await count('select count(*) n from job_leases')).toBe(0);
  });
});
