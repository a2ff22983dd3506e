import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TJob } from '../../../contract/api/jobs.schema.js';
import { companies, jobs, testimonialRequests, testimonialResponses } from '../../db/schema.js';
import { jobRegistry } from '../../worker.js';
import { signedInCompany } from '../../test/accounts.js';
import { makeClip, multipart } from '../../test/clips.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { transcodeAnswer } from './transcode.service.js';

type Company = Awaited<ReturnType<typeof signedInCompany>>;

/**
 * The transcode of an upload as a job (issue 16). The app is an API process without workers: the
 * submission only queues. The first tests call the handler the registry calls for a delivery; the last
 * one starts a real worker (whose late deliveries of the earlier jobs then find them final).
 */
describe('transcode jobs', () => {
  let t: TestApp;
  let me: Company;
  let webm: Buffer;
  let mp4: Buffer;
  let n = 0;

  beforeAll(async () => {
    t = await createTestApp();
    me = await signedInCompany(t);
    webm = await readFile(await makeClip({ format: 'webm', seconds: 3, tone: 520 }));
    mp4 = await readFile(await makeClip({ format: 'mp4', seconds: 2, tone: 530 }));
  });
  afterAll(async () => {
    await t.close();
  });

  /** A request of `me` answered through the real save call; returns the answers' ids in order. */
  async function submit(clips: Buffer[]): Promise<{ requestId: string; responseIds: string[] }> {
    n += 1;
    const questions = [];
    for (const [i] of clips.entries()) {
      questions.push((await me.post('/api/questions/add', { company_id: me.companyId, text: `Transcode ${n}.${i}?`, order_position: i + 1 })).json().id as string);
    }
    const { testimonial } = (
      await me.post('/api/testimonials/request', { customer_email: `t${n}@client.test`, customer_name: 'Sam', question_ids: questions, language: 'english' })
    ).json();
    const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, testimonial.id));
    const form = multipart([
      ...questions.map((q, i) => ({ name: `questionIds[${i}]`, value: q })),
      ...questions.map((_, i) => ({ name: `bgColors[${i}]`, value: '#000000' })),
      { name: 'name', value: 'Sam' },
      { name: 'testimonialId', value: testimonial.id },
      { name: 'token', value: row!.token },
      { name: 'consentVersion', value: 'image-rights-v1' },
      ...clips.map((content, i) => ({ name: 'videos', filename: `video${i}.${content === mp4 ? 'mp4' : 'webm'}`, content, type: 'video/webm' })),
    ]);
    const res = await t.app.inject({ method: 'POST', url: '/api/public/testimonial/save', remoteAddress: `10.9.0.${n}`, ...form });
    expect(res.statusCode, res.body).toBe(200);
    return { requestId: testimonial.id, responseIds: (res.json().responses as { id: string }[]).map((r) => r.id) };
  }

  const transcodeJobOf = async (responseId: string) => {
    const [row] = await t.ctx.db.select().from(jobs).where(and(eq(jobs.responseId, responseId), eq(jobs.kind, 'transcode')));
    return row!;
  };
  const getJob = async (id: string, company: Company = me) => {
    const res = await company.get(`/api/jobs/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as TJob;
  };

  it('does the work once when the job is delivered twice', async () => {
    const { responseIds } = await submit([webm]);
    const job = await transcodeJobOf(responseIds[0]!);
    // Delivered: the handler the registry calls (no worker runs yet in this file).
    const phases: string[] = [];
    const first = transcodeAnswer(t.ctx, job.id, { attempt: 0 });
    await expect.poll(async () => (phases.push((await getJob(job.id)).phase), phases.at(-1)), { timeout: 30_000, interval: 10 }).toMatch(/running|ready/);
    expect(phases).toContain('running');
    await first;
    const done = await getJob(job.id);
    expect(done.phase).toBe('ready');
    const [answer] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, responseIds[0]!));
    const file = path.join(t.config.mediaDir, answer!.videoKey!);
    const written = (await stat(file)).mtimeMs;
    // The poster, taken in the loudness measurement's run: a JPEG of the upload's picture.
    expect((await t.ctx.media.probe(path.join(t.config.mediaDir, answer!.posterKey!))).video).toMatchObject({ codec: 'mjpeg', width: 160, height: 120 });

    // Delivered again (a redelivery after the queue lost track of it): nothing runs, nothing changes.
    await transcodeAnswer(t.ctx, job.id, { attempt: 1 });
    await transcodeAnswer(t.ctx, job.id, { attempt: 0 });
    const again = await getJob(job.id);
    // The output address is signed again at each read (its expiry moves with the clock): same file.
    const unsigned = (j: TJob) => ({ ...j, outputUrl: j.outputUrl?.split('?')[0] });
    expect(unsigned(again)).toEqual(unsigned(done));
    expect(again.attempts).toBe(1);
    expect((await stat(file)).mtimeMs).toBe(written);
  }, 60_000);

  it('ends failed with a translatable reason when the stored upload cannot be read, and a retry is a new job', async () => {
    const { responseIds } = await submit([webm]);
    const [answer] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, responseIds[0]!));
    const job = await transcodeJobOf(responseIds[0]!);
    // The stored upload replaced by bytes no tool can read (it passed the checks, then storage damaged it).
    await t.ctx.storage.put(answer!.originalKey, Readable.from([Buffer.alloc(64 * 1024, 0x5a)]), 'video/webm');
    await transcodeAnswer(t.ctx, job.id, { attempt: 0 });
    const failed = await getJob(job.id);
    expect(failed).toMatchObject({
      phase: 'failed',
      outputUrl: null,
      error: { reason: 'unreadable_upload', params: {}, message: 'The recording could not be read. Ask the customer to record this answer again.' },
    });
    expect(failed.attempts).toBe(1);
    const [still] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, responseIds[0]!));
    expect(still!.videoKey).toBeNull();

    // The company asks again once the customer's file is back: a new job, which does the work.
    await t.ctx.storage.put(answer!.originalKey, Readable.from([webm]), 'video/webm');
    const retry = await me.post(`/api/jobs/${job.id}/retry`);
    expect(retry.statusCode, retry.body).toBe(202);
    const next = retry.json() as TJob;
    expect(next).toMatchObject({ kind: 'transcode', responseId: responseIds[0], phase: 'queued' });
    expect(next.id).not.toBe(job.id);
    await transcodeAnswer(t.ctx, next.id, { attempt: 0 });
    expect(await getJob(next.id)).toMatchObject({ phase: 'ready', error: null });
    expect(await getJob(job.id)).toMatchObject({ phase: 'failed' });
  }, 120_000);

  it('stores the poster of an upload without sound, then fails at its sound as before, retried until transcode_failed', async () => {
    const { responseIds } = await submit([webm]);
    const [answer] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, responseIds[0]!));
    const job = await transcodeJobOf(responseIds[0]!);
    // The stored upload replaced by a clip without sound (the save call refuses those: here storage changed it).
    await t.ctx.storage.put(answer!.originalKey, Readable.from([await readFile(await makeClip({ format: 'webm', seconds: 2, audio: false }))]), 'video/webm');
    await expect(transcodeAnswer(t.ctx, job.id, { attempt: 0 })).rejects.toThrow(/matches no streams/);
    expect(await getJob(job.id)).toMatchObject({ phase: 'queued', error: null, attempts: 1 });
    const [after] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, responseIds[0]!));
    expect(after!.posterKey).toMatch(/poster\.jpg$/);
    expect((await t.ctx.media.probe(path.join(t.config.mediaDir, after!.posterKey!))).video).toMatchObject({ codec: 'mjpeg', width: 160, height: 120 });
    expect(after!.videoKey).toBeNull();
    // The queue's last attempt: the poster is there, only the measurement runs, and fails again.
    await expect(transcodeAnswer(t.ctx, job.id, { attempt: 4 })).rejects.toThrow(/matches no streams/);
    expect(await getJob(job.id)).toMatchObject({ phase: 'failed', attempts: 2, error: { reason: 'transcode_failed' } });
  }, 60_000);

  it('leaves a job that fails for another reason queued for the retry, and records transcode_failed on the last attempt', async () => {
    const { responseIds } = await submit([webm]);
    const job = await transcodeJobOf(responseIds[0]!);
    const realStorage = t.ctx.storage;
    // The storage is unreachable for this answer's files: nothing about the upload itself.
    t.ctx.storage = { ...realStorage, get: async (key) => (key.includes(responseIds[0]!) ? Promise.reject(new Error('storage unreachable')) : realStorage.get(key)) };
    try {
      await expect(transcodeAnswer(t.ctx, job.id, { attempt: 0 })).rejects.toThrow(/storage unreachable/);
      expect(await getJob(job.id)).toMatchObject({ phase: 'queued', error: null, attempts: 1 });
      // The queue's last attempt (transcode-answer retries 4 times).
      await expect(transcodeAnswer(t.ctx, job.id, { attempt: 4 })).rejects.toThrow(/storage unreachable/);
    } finally {
      t.ctx.storage = realStorage;
    }
    expect(await getJob(job.id)).toMatchObject({
      phase: 'failed',
      attempts: 2,
      error: { reason: 'transcode_failed', message: 'This answer could not be prepared for playback.' },
    });
  }, 60_000);

  it('commits one queued transcode job per answer with the submission, with its queue message; a worker takes them to ready, first answers first', async () => {
    const { requestId, responseIds } = await submit([webm, mp4]);
    // A second customer sends at the same time: both first answers are prepared before either second one.
    const other = await submit([mp4, webm]);
    const rows = await Promise.all(responseIds.map(transcodeJobOf));
    const otherRows = await Promise.all(other.responseIds.map(transcodeJobOf));
    for (const [i, row] of rows.entries()) {
      expect(row).toMatchObject({ companyId: me.companyId, requestId, responseId: responseIds[i], phase: 'queued', attempts: 0 });
      expect(await getJob(row.id)).toMatchObject({ kind: 'transcode', testimonialId: requestId, responseId: responseIds[i], phase: 'queued', progress: 0, error: null, outputUrl: null });
    }
    // What the save call read of each upload travels with its job: the worker does not read it again.
    for (const row of [...rows, ...otherRows]) {
      expect(row.params).toMatchObject({
        upload: { startSeconds: expect.any(Number), video: { index: expect.any(Number), width: 160, height: 120 }, videoSpan: { start: expect.any(Number), end: expect.any(Number) } },
      });
    }
    // Each row's message is in the queue, committed with it: it names the row.
    const { rows: messages } = (await t.ctx.database.executeSql("select data from pgboss.job where name = 'transcode-answer'")) as { rows: { data: { jobId?: string } }[] };
    for (const row of rows) expect(messages.map((m) => m.data.jobId)).toContain(row.id);
    // Another company does not see them.
    const stranger = await signedInCompany(t);
    expect((await stranger.get(`/api/jobs/${rows[0]!.id}`)).statusCode).toBe(404);

    // A worker starts: the phases seen through GET /api/jobs/:id go queued → running → ready.
    const seen: string[][] = rows.map(() => []);
    await t.ctx.queue.work(jobRegistry(t.ctx), { concurrency: 1, pollIntervalMs: 100 });
    await expect
      .poll(
        async () => {
          for (const [i, row] of rows.entries()) {
            const phase = (await getJob(row.id)).phase;
            if (seen[i]!.at(-1) !== phase) seen[i]!.push(phase);
          }
          return seen.every((s) => s.at(-1) === 'ready');
        },
        { timeout: 60_000, interval: 20 },
      )
      .toBe(true);
    for (const phases of seen) expect(['queued', 'running', 'ready'].filter((p) => phases.includes(p))).toEqual(phases);
    // One at a time (concurrency 1): the second waited queued while the first ran, then ran itself.
    expect(seen.flat()).toContain('running');
    await expect.poll(async () => (await Promise.all(otherRows.map((r) => getJob(r.id)))).every((j) => j.phase === 'ready'), { timeout: 60_000 }).toBe(true);
    const started = async (row: { id: string }) => Date.parse((await getJob(row.id)).startedAt!);
    const firsts = [await started(rows[0]!), await started(otherRows[0]!)];
    const seconds = [await started(rows[1]!), await started(otherRows[1]!)];
    expect(Math.max(...firsts)).toBeLessThan(Math.min(...seconds));
    // An H.264 upload is stored with its picture copied; a WebM's picture is encoded.
    const results = await t.ctx.db.select({ id: jobs.id, result: jobs.result }).from(jobs).where(and(eq(jobs.requestId, requestId), eq(jobs.kind, 'transcode')));
    const resultOf = (id: string) => results.find((r) => r.id === id)?.result as { video: string; loudness: number } | undefined;
    expect(resultOf(rows[0]!.id)).toMatchObject({ video: 'encoded' });
    expect(resultOf(rows[1]!.id)).toMatchObject({ video: 'copied' });

    // The outputs play once the testimonial is unlocked.
    await t.ctx.db.update(companies).set({ credits: 1 }).where(eq(companies.id, me.companyId));
    expect((await me.post(`/api/testimonials/pay/${requestId}`)).statusCode).toBe(200);
    for (const [i, row] of rows.entries()) {
      const job = await getJob(row.id);
      expect(job).toMatchObject({ phase: 'ready', progress: 100, error: null, attempts: 1, startedAt: expect.any(String), finishedAt: expect.any(String) });
      // The output is the answer's video, which the answer row now names.
      const [answer] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, responseIds[i]!));
      expect(answer!.videoKey).toMatch(/answer\.mp4$/);
      expect(answer!.posterKey).toMatch(/poster\.jpg$/);
      expect((await transcodeJobOf(responseIds[i]!)).outputKey).toBe(answer!.videoKey);
      const media = await t.app.inject({ method: 'GET', url: new URL(job.outputUrl!).pathname + new URL(job.outputUrl!).search });
      expect(media.statusCode).toBe(200);
      expect(media.rawPayload.subarray(4, 8).toString('latin1')).toBe('ftyp');
      const info = await t.ctx.media.probe(path.join(t.config.mediaDir, answer!.videoKey!));
      expect(info.video?.codec).toBe('h264');
      expect(info.audio?.codec).toBe('aac');
    }
  }, 120_000);
});
