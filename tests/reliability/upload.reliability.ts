import http from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip } from '../../src/server/test/clips.js';
import { startS3Server, type TestS3Server } from '../../src/server/test/s3-server.js';
import {
  addQuestions,
  cleanUp,
  entries,
  freePort,
  processIdOf,
  saveForm,
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
 * The API process dies (SIGKILL) while a customer's answers are arriving. The customer's page sends
 * them again to the restarted API (same address, as behind a load balancer): the submission completes
 * once, and nothing of the first attempt remains — no row, no stored file, no temporary file.
 */
describe('the API killed in the middle of an upload', () => {
  let scratch: ScratchDatabase;
  let s3: TestS3Server;
  const procs: ServerProcess[] = [];

  beforeAll(async () => {
    scratch = await scratchDatabase();
    s3 = await startS3Server();
  });

  afterAll(async () => {
    await cleanUp(procs);
    await scratch?.drop();
    await s3?.close();
  });

  const rowsOf = async (sql: string, values: unknown[]) => (await scratch.db.query(sql, values)).rows;

  /** An API process on the bucket of `env`, and a customer about to send three 1 s answers. */
  async function customerWaiting(env: Record<string, string>) {
    const dataDir = await tempDir('api-data');
    const port = await freePort();
    const options = { role: 'api' as const, databaseUrl: scratch.url, dataDir, port, env: { ...env, TRUST_PROXY: '1' } };
    const api = await startServer(options);
    procs.push(api);
    const apiId = await processIdOf(scratch.db, api);
    const me = await signUpCompany(api, scratch.db);
    const questions = await addQuestions(api, me, ['What was the problem?', 'What changed?', 'Would you recommend us?']);
    const request = await sendRequest(api, me, scratch.db, questions);
    const clips = await Promise.all([440, 550, 660].map((tone) => makeClip({ format: 'webm', seconds: 1, tone })));
    return { dataDir, port, options, api, apiId, me, request, clips };
  }

  it("completes the client's retry once and leaves no partial testimonial, orphan object or temporary file", async () => {
    const { dataDir, port, options, api, apiId, request, clips } = await customerWaiting(s3.env);
    const form = await saveForm(request, clips);

    // The first answer and half of the second arrive; the rest never comes.
    const second = await readFile(clips[1]!);
    const cut = form.payload.indexOf(second) + Math.floor(second.length / 2);
    const upload = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/public/testimonial/save',
      headers: { ...form.headers, 'content-length': String(form.payload.length), 'x-forwarded-for': '10.1.0.1' },
    });
    const firstAttempt = new Promise<{ status?: number; error?: string }>((resolve) => {
      upload.on('response', (res) => resolve({ status: res.statusCode }));
      upload.on('error', (error) => resolve({ error: (error as NodeJS.ErrnoException).code ?? error.message }));
    });
    upload.write(form.payload.subarray(0, cut));
    const ownTmp = path.join(dataDir, 'tmp', apiId);
    const uploadDir = await until(
      'part of the upload to reach the API',
      async () => {
        for (const dir of entries(ownTmp).filter((d) => d.startsWith('upload-'))) {
          const size = await stat(path.join(ownTmp, dir, 'answer-1')).then(
            (s) => s.size,
            () => 0,
          );
          if (size > 0) return path.join(ownTmp, dir);
        }
        return undefined;
      },
      20_000,
      20,
    );
    await api.kill();
    expect(await firstAttempt).toEqual({ error: expect.stringMatching(/ECONNRESET|socket hang up/) });

    // What the killed process left: half an upload on its disk, nothing recorded, nothing stored.
    expect(entries(uploadDir)).toEqual(['answer-0', 'answer-1']);
    expect((await stat(path.join(uploadDir, 'answer-0'))).size).toBe((await readFile(clips[0]!)).length);
    expect((await stat(path.join(uploadDir, 'answer-1'))).size).toBeLessThan(second.length);
    expect(await rowsOf('select status from testimonial_requests where id = $1', [request.id])).toEqual([{ status: 'pending' }]);
    expect(await rowsOf('select id from testimonial_responses where request_id = $1', [request.id])).toEqual([]);
    expect((await s3.keys()).filter((k) => k.startsWith('companies/'))).toEqual([]);

    // Restarted at the same address: it finds its predecessor dead (same machine, pid gone) and removes
    // the temporary folder it left, before serving.
    const restarted = await startServer({ ...options, tmpDir: api.tmpDir });
    procs.push(restarted);
    expect(entries(path.join(dataDir, 'tmp')).filter((d) => d === apiId)).toEqual([]);
    expect(await rowsOf('select id from workers where id = $1', [apiId])).toEqual([]);
    expect(restarted.lines().find((l) => l.msg === 'process ended without stopping: removed')).toMatchObject({ worker: apiId, why: 'gone' });

    // The customer's page sends the answers again: saved once. A second retry (its answer lost) gets
    // the same result, not a second testimonial.
    const saved = await submitAnswers(restarted, request, clips, '10.1.0.1');
    expect(saved).toHaveLength(3);
    expect(await submitAnswers(restarted, request, clips, '10.1.0.1')).toEqual(saved);

    const responses = await rowsOf('select id, original_key from testimonial_responses where request_id = $1 order by order_position', [request.id]);
    expect(responses.map((r) => (r as { id: string }).id)).toEqual(saved);
    expect(await rowsOf('select status from testimonial_requests where id = $1', [request.id])).toEqual([{ status: 'completed' }]);
    expect(await rowsOf('select count(*)::int n from consents where request_id = $1', [request.id])).toEqual([{ n: 1 }]);
    // Storage holds exactly the files of the completed submission (no worker runs here: no transcode).
    expect((await s3.keys()).filter((k) => k.startsWith('companies/'))).toEqual(responses.map((r) => (r as { original_key: string }).original_key).sort());

    expect(await restarted.stop()).toBe(0);
    expect(entries(path.join(dataDir, 'tmp'))).toEqual([]);
    expect(entries(api.tmpDir)).toEqual([]);
    expect(await rowsOf('select id from workers', [])).toEqual([]);
  });
  it('removes the stored answers of an API killed after storing them and before committing, and completes the retry', async () => {
    // The bucket is reached through a relay that holds back the answer to the third answer's upload:
    // the three objects are in the bucket, and the API is killed while it waits to commit its rows.
    let held: (() => void) | undefined;
    const third = new Promise<void>((resolve) => (held = resolve));
    let answerPuts = 0;
    const upstream = new URL(s3.endpoint);
    const relay = http.createServer((req, res) => {
      const forward = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        if (req.method === 'PUT' && req.url?.includes('/answers/') && ++answerPuts === 3) {
          answer.resume();
          answer.on('end', () => held?.());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.on('error', () => res.destroy());
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const relayPort = (relay.address() as { port: number }).port;
    try {
      const { options, api, apiId, me, request, clips } = await customerWaiting({ ...s3.env, S3_ENDPOINT: `http://127.0.0.1:${relayPort}` });
      const before = (await s3.keys()).filter((k) => k.startsWith('companies/'));

      const attempt = submitAnswers(api, request, clips, '10.2.0.1').then(
        () => 'answered',
        () => 'cut',
      );
      await third;
      await api.kill();
      expect(await attempt).toBe('cut');

      // Stored, recorded as pending by the dead process, never committed.
      const orphans = (await s3.keys()).filter((k) => k.startsWith('companies/') && !before.includes(k));
      expect(orphans).toHaveLength(3);
      expect(orphans.every((k) => k.startsWith(`companies/${me.companyId}/requests/${request.id}/answers/`))).toBe(true);
      expect(await rowsOf('select key from pending_objects where holder = $1 order by key', [apiId])).toEqual(orphans.map((key) => ({ key })));
      expect(await rowsOf('select id from testimonial_responses where request_id = $1', [request.id])).toEqual([]);

      // Restarted: it finds its predecessor dead and deletes what it had stored for nothing.
      const restarted = await startServer({ ...options, tmpDir: api.tmpDir });
      procs.push(restarted);
      expect((await s3.keys()).filter((k) => orphans.includes(k))).toEqual([]);
      expect(await rowsOf('select key from pending_objects', [])).toEqual([]);
      expect(restarted.lines().find((l) => l.msg === 'removed stored objects a process that ended without stopping had not committed')).toMatchObject({
        objects: expect.arrayContaining(orphans),
      });

      // The customer's page sends the answers again: saved once, and the bucket holds exactly its files.
      const saved = await submitAnswers(restarted, request, clips, '10.2.0.1');
      expect(saved).toHaveLength(3);
      const responses = (await rowsOf('select original_key from testimonial_responses where request_id = $1', [request.id])) as { original_key: string }[];
      expect((await s3.keys()).filter((k) => k.startsWith(`companies/${me.companyId}/`))).toEqual(responses.map((r) => r.original_key).sort());
      expect(await rowsOf('select key from pending_objects', [])).toEqual([]);
      expect(await restarted.stop()).toBe(0);
    } finally {
      relay.closeAllConnections();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    }
  });
});
