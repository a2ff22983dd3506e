/**
 * Forced transcription as an attacker with an account would use it (issue 15, item 13): parallel
 * `{ force: true }` calls used to start one pocketsphinx child of the API process each (or one paid
 * TRANSCRIBE_URL call each). Now the API only queues transcription jobs, within per-company limits;
 * the engine runs in the worker's job handler. The app here is an API process without workers: an
 * engine run before a worker is started here could only come from the request path.
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, jobs, testimonialResponses, transcriptions } from '../../src/server/db/schema.js';
import { renderOutputJob } from '../../src/server/queue/definitions.js';
import { jobRegistry } from '../../src/server/worker.js';
import { TRANSCRIPTION_LIMITS } from '../../src/server/modules/transcription/transcription.service.js';
import { signedInCompany } from '../../src/server/test/accounts.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';
import { completedTestimonial } from '../../src/server/test/testimonials.js';

type Company = Awaited<ReturnType<typeof signedInCompany>>;

/** `count` paid testimonials of one answer each, uploaded through the real save call: their answer ids. */
async function paidAnswers(t: TestApp, company: Company, count: number): Promise<string[]> {
  await t.ctx.db.update(companies).set({ credits: count + 5 }).where(eq(companies.id, company.companyId));
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const testimonial = await completedTestimonial(t, company);
    expect((await company.post(`/api/testimonials/pay/${testimonial.id}`)).statusCode).toBe(200);
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, testimonial.id));
    ids.push(response!.id);
  }
  return ids;
}

/**
 * The worker's jobs without the renders: a paid testimonial's draft (issue 31) transcribes its answers in
 * its own render job, which would add engine runs of its own; these tests count the forced calls' runs.
 */
const workerWithoutRenders = (t: TestApp) => jobRegistry(t.ctx).filter((job) => job.definition.name !== renderOutputJob.name);

const force = (company: Company, responseId: string) => company.post(`/api/testimonials/response/${responseId}/transcribe`, { force: true });

/** The company's transcription jobs (rows of `jobs`). */
async function jobsOf(t: TestApp, companyId: string) {
  return t.ctx.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.companyId, companyId), inArray(jobs.kind, ['transcription', 'merged_transcription'])));
}

describe('forced transcription: limited per company, and run only by the worker (pocketsphinx)', () => {
  let t: TestApp;
  let dir: string;
  let engineLog: string;
  let company: Company;
  let answers: string[];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'vr-stt-attack-'));
    engineLog = path.join(dir, 'engine-runs.log');
    // A stand-in for pocketsphinx_continuous: records each run (with the process that started it) and
    // prints one word in pocketsphinx's output format.
    const engine = path.join(dir, 'pocketsphinx_continuous');
    await writeFile(engine, `#!/bin/sh\necho "run by $PPID" >> '${engineLog}'\necho "hello 0.100 0.500 0.990"\n`);
    await chmod(engine, 0o755);
    t = await createTestApp({ env: { POCKETSPHINX_PATH: engine } });
    company = await signedInCompany(t);
    answers = await paidAnswers(t, company, 8);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const engineRuns = async () => (await readFile(engineLog, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;

  it('accepts at most the limit of 8 parallel forced calls, refuses the rest with 429, and spawns no engine from the API', async () => {
    const replies = await Promise.all(answers.map((id) => force(company, id)));
    const accepted = replies.filter((r) => r.statusCode === 202);
    const refused = replies.filter((r) => r.statusCode === 429);
    expect(accepted.length + refused.length, replies.map((r) => `${r.statusCode} ${r.body}`).join('\n')).toBe(8);
    expect(accepted.length).toBe(TRANSCRIPTION_LIMITS.running);
    for (const reply of accepted) expect(reply.json()).toEqual({ transcription: [], jobId: expect.any(String), status: 'queued' });
    for (const reply of refused) {
      expect(reply.json()).toEqual({ error: expect.stringMatching(/too many transcriptions/i), code: 'rate_limited' });
      expect(Number(reply.headers['retry-after'])).toBeGreaterThan(0);
    }

    // The same answer asked again, in parallel: the unfinished job is joined, nothing new is queued.
    const acceptedAnswer = answers[replies.indexOf(accepted[0]!)]!;
    const again = await Promise.all([1, 2, 3, 4].map(() => force(company, acceptedAnswer)));
    for (const reply of again) expect(reply.statusCode, reply.body).toBe(202);
    expect(new Set(again.map((r) => r.json().jobId))).toEqual(new Set([accepted[0]!.json().jobId]));
    expect(await jobsOf(t, company.companyId)).toHaveLength(TRANSCRIPTION_LIMITS.running);

    // Nothing ran in the API process, even given time: no engine, no transcription; the jobs wait.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await engineRuns()).toBe(0);
    for (const reply of accepted) {
      expect((await company.get(`/api/jobs/${reply.json().jobId}`)).json()).toMatchObject({ kind: 'transcription', phase: 'queued', progress: 0 });
      expect((await company.get(`/api/testimonials/transcription-job/${reply.json().jobId}/status`)).json()).toEqual({ status: 'queued', merged_url: null, error: null });
    }
    expect(await t.ctx.db.select().from(transcriptions).where(inArray(transcriptions.responseId, answers))).toEqual([]);

    // A worker takes the jobs: the engine runs there, once per accepted job, and the cues are stored.
    await t.ctx.queue.work(workerWithoutRenders(t), { concurrency: 2, pollIntervalMs: 100 });
    await expect
      .poll(async () => (await jobsOf(t, company.companyId)).map((j) => j.phase).sort(), { timeout: 60_000, interval: 250 })
      .toEqual(Array(TRANSCRIPTION_LIMITS.running).fill('ready'));
    expect(await engineRuns()).toBe(TRANSCRIPTION_LIMITS.running);
    const stored = await t.ctx.db.select().from(transcriptions).where(inArray(transcriptions.responseId, answers));
    expect(stored).toHaveLength(TRANSCRIPTION_LIMITS.running);
    for (const reply of accepted) expect((await company.get(`/api/jobs/${reply.json().jobId}`)).json()).toMatchObject({ phase: 'ready', progress: 100, error: null });
    const status = await company.get(`/api/testimonials/transcription-job/${accepted[0]!.json().jobId}/status`);
    expect(JSON.parse(status.json().merged_url)).toEqual([expect.objectContaining({ responseId: acceptedAnswer, transcription: [expect.objectContaining({ start: 0.1, text: 'hello' })], error: null })]);
  }, 120_000);

  it('also limits how many a company starts in a minute, even when none is running', async () => {
    // The first test's jobs are done; the minute's allowance is what is left of TRANSCRIPTION_LIMITS.perMinute.
    const left = TRANSCRIPTION_LIMITS.perMinute - (await jobsOf(t, company.companyId)).length;
    expect(left).toBeGreaterThan(0);
    for (const id of answers.slice(0, left)) {
      const reply = await force(company, id);
      expect(reply.statusCode, reply.body).toBe(202);
      await expect.poll(async () => (await jobsOf(t, company.companyId)).every((j) => j.phase === 'ready'), { timeout: 60_000, interval: 250 }).toBe(true);
    }
    const runsBefore = await engineRuns();
    const over = await force(company, answers[7]!);
    expect(over.statusCode, over.body).toBe(429);
    expect(over.json().code).toBe('rate_limited');
    // The merged transcription counts too: it would run the engine on every answer.
    const [first] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, answers[0]!));
    expect((await company.post(`/api/testimonials/${first!.requestId}/transcribe-merged-responses`, {})).statusCode).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await engineRuns()).toBe(runsBefore);

    // Another company is not held back by this one.
    const other = await signedInCompany(t);
    const [otherAnswer] = await paidAnswers(t, other, 1);
    expect((await force(other, otherAnswer!)).statusCode).toBe(202);
  }, 120_000);
});

describe('forced transcription with a paid service (TRANSCRIBE_URL): no call from the API', () => {
  let t: TestApp;
  let server: http.Server;
  let calls = 0;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        calls += 1;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ text: 'Hello.', segments: [{ id: 0, start: 0, end: 1, text: ' Hello.' }] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t = await createTestApp({ env: { TRANSCRIBE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, TRANSCRIBE_API_KEY: 'sk-test' } });
  });
  afterAll(async () => {
    await t?.close();
    server?.close();
  });

  it('queues at most the limit of parallel forced calls and calls the service only from the worker', async () => {
    const company = await signedInCompany(t);
    const answers = await paidAnswers(t, company, TRANSCRIPTION_LIMITS.running + 2);
    const replies = await Promise.all(answers.map((id) => force(company, id)));
    expect(replies.filter((r) => r.statusCode === 202)).toHaveLength(TRANSCRIPTION_LIMITS.running);
    expect(replies.filter((r) => r.statusCode === 429)).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(calls).toBe(0);

    await t.ctx.queue.work(workerWithoutRenders(t), { concurrency: 2, pollIntervalMs: 100 });
    await expect
      .poll(async () => (await jobsOf(t, company.companyId)).every((j) => j.phase === 'ready'), { timeout: 60_000, interval: 250 })
      .toBe(true);
    expect(calls).toBe(TRANSCRIPTION_LIMITS.running);
  }, 120_000);
});
