/**
 * What the customer's save call may cost before and after it checks the link (issue 15, items 3 and 5):
 * the call reads no file before it knows a valid token, reads no more files than the link has questions,
 * counts the bytes each address writes, and measures an answer's length from its packets rather than
 * from what its container claims, with a sane frame size; the transcode caps what it reads anyway.
 */
import { execFile } from 'node:child_process';
import { watch, type FSWatcher } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, testimonialRequests, testimonialResponses } from '../../src/server/db/schema.js';
import { createMediaTools } from '../../src/server/media/ffmpeg.js';
import { CARD_SECONDS, composeArgs, layoutCard, type CardStyle, type Frame } from '../../src/server/media/render.js';
import { checkAnswer } from '../../src/server/modules/submissions/submissions.service.js';
import { transcodeAnswer } from '../../src/server/modules/submissions/transcode.service.js';
import { signedInCompany } from '../../src/server/test/accounts.js';
import { makeClip, multipart } from '../../src/server/test/clips.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';

const run = promisify(execFile);
const { probe, probeUpload, runFfmpeg } = createMediaTools({ ffmpegConcurrency: 2 });
const clipDir = path.join(os.tmpdir(), 'vouchreel-test-clips');

type Part = { name: string; value: string } | { name: string; filename: string; content: Buffer; type: string };

async function filesUnder(dir: string): Promise<{ file: string; size: number }[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return Promise.all(
    entries
      .filter((e) => e.isFile())
      .map(async (e) => {
        const file = path.join(e.parentPath, e.name);
        return { file, size: (await stat(file).catch(() => ({ size: 0 }))).size };
      }),
  );
}

/**
 * Everything created under `dir` while it runs (inotify, so even a file created and removed within the
 * call is seen), and the most bytes found there at any moment (polled every few milliseconds).
 */
function watchWrites(dir: string) {
  const created = new Set<string>();
  let peakBytes = 0;
  const watcher: FSWatcher = watch(dir, { recursive: true }, (_event, name) => {
    if (name) created.add(String(name));
  });
  const poll = setInterval(() => {
    void filesUnder(dir).then((files) => {
      peakBytes = Math.max(peakBytes, files.reduce((n, f) => n + f.size, 0));
    });
  }, 5);
  return {
    stop: async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      clearInterval(poll);
      watcher.close();
      return { created: [...created], peakBytes };
    },
  };
}

/**
 * A WebM whose EBML Duration element (ID 0x4489, in TimecodeScale units: milliseconds) is rewritten to
 * `seconds`, keeping the float's width: what the attack did to pass a 120 s file as a 5 s one.
 */
function withDuration(webm: Buffer, seconds: number): Buffer {
  const out = Buffer.from(webm);
  const at = out.indexOf(Buffer.from([0x44, 0x89]));
  if (at < 0 || at > 4096) throw new Error('no Duration element in the WebM header');
  const size = out[at + 2];
  if (size === 0x88) out.writeDoubleBE(seconds * 1000, at + 3);
  else if (size === 0x84) out.writeFloatBE(seconds * 1000, at + 3);
  else throw new Error(`unexpected Duration size byte ${size}`);
  return out;
}

/** A small real clip made by ffmpeg with the given video input and codec arguments (cached by name). */
async function clip(name: string, args: string[], remux: string[] = []): Promise<Buffer> {
  await mkdir(clipDir, { recursive: true });
  const file = path.join(clipDir, `limits-${name}`);
  const made = await stat(file).then(
    () => true,
    () => false,
  );
  if (!made) {
    const tmp = `${file}.${process.pid}.tmp${path.extname(name)}`;
    await run('ffmpeg', ['-hide_banner', '-v', 'error', '-y', ...args, tmp]);
    if (remux.length > 0) {
      await run('ffmpeg', ['-hide_banner', '-v', 'error', '-y', '-i', tmp, '-c', 'copy', ...remux, file]);
      await rm(tmp, { force: true });
    } else {
      await rename(tmp, file);
    }
  }
  return readFile(file);
}

const lavfi = (video: string, seconds: number) => ['-f', 'lavfi', '-i', `${video}:duration=${seconds}`, '-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${seconds}`];
const vp8 = ['-c:v', 'libvpx', '-b:v', '100k', '-deadline', 'realtime', '-cpu-used', '8', '-c:a', 'libopus', '-b:a', '24k'];
const h264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '40', '-pix_fmt', 'yuv420p', '-c:a', 'aac'];

describe('the save call checks the link before it writes, and the answer before it is kept', () => {
  let t: TestApp;
  let ip = 0;
  let webm: Buffer;
  const nextAddress = () => `10.88.${Math.floor(ip / 250)}.${(ip++ % 250) + 1}`;

  beforeAll(async () => {
    t = await createTestApp({ env: { UPLOAD_MAX_BYTES: String(4 * 1024 * 1024) } });
    webm = await readFile(await makeClip({ format: 'webm', seconds: 3 }));
    await mkdir(t.ctx.tmpDir, { recursive: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function pendingRequest(app: TestApp = t, questions = 1, language: 'english' | 'french' = 'english') {
    const me = await signedInCompany(app);
    const ids: string[] = [];
    for (let i = 0; i < questions; i++) {
      ids.push((await me.post('/api/questions/add', { company_id: me.companyId, text: `Question ${i + 1}?`, order_position: i + 1 })).json<{ id: string }>().id);
    }
    const { testimonial } = (
      await me.post('/api/testimonials/request', { customer_email: 'c@client.test', customer_name: 'Nina', question_ids: ids, language })
    ).json<{ testimonial: { id: string } }>();
    const [row] = await app.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, testimonial.id));
    return { id: testimonial.id, token: row!.token, questionIds: ids };
  }
  type Request = Awaited<ReturnType<typeof pendingRequest>>;

  /** The fields of a save call for `r`, one answer per question, as the recording page sends them. */
  const fieldsOf = (r: Request, token = r.token): Part[] => [
    { name: 'token', value: token },
    { name: 'testimonialId', value: r.id },
    { name: 'name', value: 'Nina' },
    { name: 'consentVersion', value: 'image-rights-v1' },
    ...r.questionIds.flatMap((q, i) => [
      { name: `questionIds[${i}]`, value: q },
      { name: `bgColors[${i}]`, value: '#000000' },
    ]),
  ];
  const video = (content: Buffer, i = 0): Part => ({ name: 'videos', filename: `video${i}.webm`, content, type: 'video/webm' });

  const send = (parts: Part[], options: { app?: TestApp; from?: string; url?: string; headers?: Record<string, string> } = {}) => {
    const form = multipart(parts);
    return (options.app ?? t).app.inject({
      method: 'POST',
      url: options.url ?? '/api/public/testimonial/save',
      remoteAddress: options.from ?? nextAddress(),
      payload: form.payload,
      headers: { ...form.headers, ...options.headers },
    });
  };

  async function expectNothingKept(r: Request, app: TestApp = t) {
    const [row] = await app.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, r.id));
    expect(row?.status).toBe('pending');
    expect(await app.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, r.id))).toHaveLength(0);
    expect((await filesUnder(app.config.mediaDir)).filter((f) => f.file.includes(r.id))).toEqual([]);
    expect(await filesUnder(app.ctx.tmpDir)).toEqual([]);
  }

  describe('item 3: no file is written before a valid link is known', () => {
    const junk = Buffer.alloc(2 * 1024 * 1024, 0x42);

    it('writes nothing for 40 parts of 2 MB sent with token=nope, before or after the files, and answers 404 in the error shape', async () => {
      const forty = Array.from({ length: 40 }, (_, i) => video(junk, i));
      const stored = await filesUnder(t.config.mediaDir);
      for (const parts of [
        // The attack as it was made: the files, then a token that opens nothing.
        [...forty, { name: 'token', value: 'nope' }],
        // The same with the token first.
        [{ name: 'token', value: 'nope' }, ...forty],
      ]) {
        const watcher = watchWrites(t.ctx.tmpDir);
        const res = await send(parts);
        const { created, peakBytes } = await watcher.stop();
        expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
        expect(res.statusCode).toBeLessThan(500);
        expect(res.json()).toMatchObject({ error: expect.any(String), code: expect.any(String) });
        expect(created).toEqual([]);
        expect(peakBytes).toBe(0);
      }
      expect(await filesUnder(t.config.mediaDir)).toEqual(stored);
    });

    it('answers a token that opens nothing with the invalid-link error, whether in the form, a header or the address', async () => {
      const r = await pendingRequest();
      for (const options of [{}, { headers: { 'x-request-token': 'nope' } }, { url: '/api/public/testimonial/save?token=nope' }]) {
        const watcher = watchWrites(t.ctx.tmpDir);
        const parts = 'headers' in options || 'url' in options ? [...fieldsOf(r).slice(1), video(webm)] : [...fieldsOf(r, 'nope'), video(webm)];
        const res = await send(parts, options);
        const { created } = await watcher.stop();
        expect(res.statusCode, JSON.stringify(options)).toBe(404);
        expect(res.json()).toMatchObject({ code: 'not_found', error: expect.stringMatching(/not valid/) });
        expect(created).toEqual([]);
      }
      await expectNothingKept(r);
    });

    it("refuses a file sent before the token without writing it, and takes the spec's fields in any order when the token is in a header", async () => {
      const r = await pendingRequest();
      const watcher = watchWrites(t.ctx.tmpDir);
      const first = await send([video(webm), ...fieldsOf(r)]);
      expect((await watcher.stop()).created).toEqual([]);
      expect(first.statusCode).toBe(400);
      expect(first.json()).toMatchObject({ code: 'missing_fields', field: 'token', error: expect.stringMatching(/token must come before the videos/) });
      await expectNothingKept(r);

      // A client that sends the token in the header may send the files first, as the spec lists them.
      const ok = await send([video(webm), ...fieldsOf(r)], { headers: { 'x-request-token': r.token } });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({ success: true, testimonialId: r.id });
    });

    it('refuses a token in the form that differs from the one in the header', async () => {
      const [r, other] = [await pendingRequest(), await pendingRequest()];
      const res = await send([...fieldsOf(r), video(webm)], { headers: { 'x-request-token': other.token } });
      expect(res.statusCode).toBe(404);
      await expectNothingKept(r);
      await expectNothingKept(other);
    });

    it('refuses more files than the request has questions: the extra file is never written, nothing is kept', async () => {
      const r = await pendingRequest(t, 2);
      const watcher = watchWrites(t.ctx.tmpDir);
      const res = await send([...fieldsOf(r), video(webm, 0), video(webm, 1), ...Array.from({ length: 30 }, (_, i) => video(junk, i + 2))]);
      const { created, peakBytes } = await watcher.stop();
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_data', error: 'There are more recordings than questions in this request.' });
      // The two answers the request asks for, no more.
      expect(created.filter((n) => /answer-\d+$/.test(n)).map((n) => path.basename(n)).sort()).toEqual(['answer-0', 'answer-1']);
      expect(peakBytes).toBeLessThanOrEqual(2 * webm.length);
      await expectNothingKept(r);

      // A file whose name points past the questions is refused the same way.
      const past = await send([...fieldsOf(r).filter((p) => !p.name.endsWith('[1]')), video(webm, 5)]);
      expect(past.statusCode).toBe(400);
      expect(past.json()).toMatchObject({ code: 'invalid_data', error: 'Each recording must belong to one question.' });
      await expectNothingKept(r);
    });

    it('counts the bytes each address writes: past its hour budget it gets 429 with Retry-After, others are not affected', async () => {
      const small = await createTestApp({ env: { UPLOAD_MAX_BYTES: String(4 * 1024 * 1024), UPLOAD_BUDGET_BYTES_PER_HOUR: String(Math.floor(2.5 * webm.length)) } });
      try {
        await mkdir(small.ctx.tmpDir, { recursive: true });
        const from = '10.99.0.1';
        for (let i = 0; i < 2; i++) {
          const r = await pendingRequest(small);
          const ok = await send([...fieldsOf(r), video(webm)], { app: small, from });
          expect(ok.statusCode, ok.body).toBe(200);
        }
        const r = await pendingRequest(small);
        const refused = await send([...fieldsOf(r), video(webm)], { app: small, from });
        expect(refused.statusCode, refused.body).toBe(429);
        expect(refused.json()).toMatchObject({ code: 'rate_limited', errorKey: 'rateLimited', error: expect.stringMatching(/Too many videos/) });
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
        await expectNothingKept(r, small);
        // Spent: the next call is refused before it writes a byte.
        const watcher = watchWrites(small.ctx.tmpDir);
        const again = await send([...fieldsOf(r), video(webm)], { app: small, from });
        expect(again.statusCode).toBe(429);
        expect((await watcher.stop()).created).toEqual([]);
        // Another address has its own budget.
        const elsewhere = await send([...fieldsOf(r), video(webm)], { app: small, from: '10.99.0.2' });
        expect(elsewhere.statusCode, elsewhere.body).toBe(200);
      } finally {
        await small.close();
      }
    });

    it('over a real connection, answers token=nope at once and reads the rest of a 40 × 2 MB body into nothing', async () => {
      const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = new URL(address);
      const form = multipart([{ name: 'token', value: 'nope' }, ...Array.from({ length: 40 }, (_, i) => video(junk, i))]);
      const watcher = watchWrites(t.ctx.tmpDir);
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          { host: '127.0.0.1', port: Number(port), method: 'POST', path: '/api/public/testimonial/save', headers: { ...form.headers, 'content-length': form.payload.length } },
          (res) => {
            let body = '';
            res.on('data', (d: Buffer) => (body += d.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.end(form.payload);
      });
      const { created, peakBytes } = await watcher.stop();
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'not_found', error: expect.any(String) });
      expect(created).toEqual([]);
      expect(peakBytes).toBe(0);
    });
  });

  describe('item 5: the real length and a sane frame', () => {
    it('refuses a 120 s WebM whose container says 5 s, with its reason, and stores nothing; the probe reads it fast', async () => {
      const long = await clip('long-120s.webm', [...lavfi('testsrc2=size=64x48:rate=5', 120), ...vp8]);
      const lying = withDuration(long, 5);
      const file = path.join(clipDir, 'limits-lying.webm');
      await writeFile(file, lying);
      // The container lies: this is what the old check believed.
      expect((await probe(file)).durationSeconds).toBeCloseTo(5, 1);
      const started = Date.now();
      const measured = await probeUpload(file, 21);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(measured.durationSeconds).toBeGreaterThan(21);

      // The reason key, whatever the request's language: the customer's page translates it.
      for (const language of ['english', 'french'] as const) {
        const r = await pendingRequest(t, 1, language);
        const res = await send([...fieldsOf(r), video(lying)]);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toMatchObject({
          code: 'invalid_format',
          reason: 'answer_too_long',
          params: { answer: 1, seconds: 20 },
          error: expect.stringMatching(/lasts more than 20 seconds/),
        });
        await expectNothingKept(r);
      }
    });

    it('refuses a 5000×200 frame and a 4096×2160 one, in the error shape, and stores nothing', async () => {
      const wide = await clip('wide-5000x200.webm', [...lavfi('testsrc2=size=5000x200:rate=5', 1), ...vp8]);
      const dci = await clip('dci-4096x2160.mp4', [...lavfi('testsrc2=size=4096x2160:rate=2', 1), ...h264]);
      for (const [content, size] of [
        [wide, '5000×200'],
        [dci, '4096×2160'],
      ] as const) {
        const r = await pendingRequest();
        const res = await send([...fieldsOf(r), { name: 'videos', filename: 'video0.webm', content, type: 'video/webm' }]);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toMatchObject({ code: 'invalid_format', error: expect.stringContaining(`picture of ${size} pixels`) });
        await expectNothingKept(r);
      }
    });

    it('still accepts a normal 4 s answer, a portrait phone video (1920×1080 turned 90°) and a 4K UHD one', async () => {
      const normal = await readFile(await makeClip({ format: 'webm', seconds: 4 }));
      const portrait = await clip('portrait-1080x1920.mov', [...lavfi('testsrc2=size=1920x1080:rate=5', 2), ...h264], ['-metadata:s:v:0', 'rotate=90']);
      const uhd = await clip('uhd-3840x2160.mp4', [...lavfi('testsrc2=size=3840x2160:rate=2', 1), ...h264]);
      for (const [content, filename] of [
        [normal, 'video0.webm'],
        [portrait, 'video0.mp4'],
        [uhd, 'video0.mp4'],
      ] as const) {
        const r = await pendingRequest();
        const res = await send([...fieldsOf(r), { name: 'videos', filename, content, type: 'video/webm' }]);
        expect(res.statusCode, `${filename} ${content.length}: ${res.body}`).toBe(200);
        const [row] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, r.id));
        expect(row?.durationSeconds).toBeGreaterThan(0.5);
        expect(row?.durationSeconds).toBeLessThan(4.5);
      }
      const file = path.join(clipDir, 'limits-portrait-1080x1920.mov');
      const turned = (await probeUpload(file, 21)).video;
      expect(turned).toMatchObject({ width: 1920, height: 1080 });
      expect(Math.abs(turned!.rotation)).toBe(90);
    });

    // The inputs seen to work end to end (architecture.md), made small: the real length and the frame
    // check read each of them as the old probe did.
    const aac = ['-c:a', 'aac'];
    const x264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];
    it.each([
      ['Chrome VP8 WebM without a duration (MediaRecorder)', 'chrome-vp8-live.webm', [...lavfi('testsrc2=size=640x480:rate=30', 2), ...vp8, '-live', '1', '-f', 'webm'], []],
      ['Chrome VP9 WebM', 'chrome-vp9.webm', [...lavfi('testsrc2=size=320x240:rate=30', 2), '-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '100k', '-c:a', 'libopus'], []],
      ['Chrome H.264 in Matroska', 'chrome-h264.mkv', [...lavfi('testsrc2=size=320x240:rate=30', 2), ...x264, '-c:a', 'libopus', '-f', 'matroska'], []],
      ['Safari fragmented MP4', 'safari-frag.mp4', [...lavfi('testsrc2=size=320x240:rate=30', 2), ...x264, ...aac, '-movflags', 'frag_keyframe+empty_moov+default_base_moof'], []],
      ['iPhone HEVC .mov turned 90°', 'iphone-hevc.mov', [...lavfi('testsrc2=size=320x240:rate=30', 2), '-c:v', 'libx265', '-preset', 'ultrafast', '-tag:v', 'hvc1', '-x265-params', 'log-level=error', ...aac], ['-metadata:s:v:0', 'rotate=90']],
      ['iPhone H.264 .mov turned 90°', 'iphone-h264.mov', [...lavfi('testsrc2=size=320x240:rate=30', 2), ...x264, ...aac], ['-metadata:s:v:0', 'rotate=90']],
      ['Android H.264 with mono 44.1 kHz AAC', 'android.mp4', [...lavfi('testsrc2=size=320x240:rate=30', 2), ...x264, ...aac, '-ac', '1', '-ar', '44100'], []],
      ['variable frame rate', 'vfr.mp4', [...lavfi('testsrc2=size=320x240:rate=30', 2), '-vf', "select='not(mod(n\\,3))+lt(n\\,10)'", '-vsync', 'vfr', ...x264, ...aac], []],
      ['60 fps', '60fps.mp4', [...lavfi('testsrc2=size=320x240:rate=60', 2), ...x264, ...aac], []],
      ['an odd frame size', 'odd.webm', [...lavfi('testsrc2=size=161x121:rate=15', 2), ...vp8], []],
      ['AV1', 'av1.mp4', [...lavfi('testsrc2=size=160x120:rate=15', 2), '-c:v', 'libaom-av1', '-cpu-used', '8', '-crf', '50', '-row-mt', '1', ...aac], []],
    ])('still reads %s as a 2 s answer', async (_name, name, args, remux) => {
      await clip(name, args, remux);
      const probed = await probeUpload(path.join(clipDir, `limits-${name}`), 21);
      expect(checkAnswer(probed, 1)).toMatchObject({ extension: expect.stringMatching(/webm|mp4/) });
      expect(probed.durationSeconds).toBeGreaterThan(1.8);
      expect(probed.durationSeconds).toBeLessThan(2.3);
    });

    it('caps the transcode at the limit even for a stored original that got past the checks', async () => {
      const r = await pendingRequest();
      const ok = await send([...fieldsOf(r), video(webm)]);
      expect(ok.statusCode, ok.body).toBe(200);
      const [row] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, r.id));
      // The original replaced behind the checks' back by the 120 s file that claims 5 s.
      const long = await clip('long-120s.webm', [...lavfi('testsrc2=size=64x48:rate=5', 120), ...vp8]);
      await t.ctx.storage.put(row!.originalKey, withDuration(long, 5), 'video/webm');
      // Run as the worker runs it: the answer's transcode job (this app runs no worker).
      const [job] = await t.ctx.db.select().from(jobs).where(and(eq(jobs.responseId, row!.id), eq(jobs.kind, 'transcode')));
      await transcodeAnswer(t.ctx, job!.id, { attempt: 0 });
      const [done] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, row!.id));
      const info = await probe(path.join(t.config.mediaDir, done!.videoKey!));
      expect(info.durationSeconds).toBeLessThanOrEqual(21.1);
      expect(info.durationSeconds).toBeGreaterThan(20);
    });

    it('caps an intro render at the card plus the limit when the answer is longer than it says', async () => {
      const long = await clip('long-120s.webm', [...lavfi('testsrc2=size=64x48:rate=5', 120), ...vp8]);
      const dir = await mkdtemp(path.join(os.tmpdir(), 'vouchreel-render-cap-'));
      try {
        const answer = path.join(dir, 'answer.webm');
        await writeFile(answer, withDuration(long, 5));
        const output = path.join(dir, 'intro.mp4');
        const frame: Frame = { width: 320, height: 180, kind: 'answer' };
        const style: CardStyle = { background: '#000000', color: '#ffffff', size: 36, face: { font: 'Arial', bold: false }, fontFile: '/unused.ttf' };
        const card = { fit: layoutCard({ text: '', frame, style, logo: false }), lineFiles: [] };
        await runFfmpeg(composeArgs({ output, frame, style, segments: [{ answer, source: { width: 64, height: 48 }, card }] }));
        const info = await probe(output);
        expect(info.durationSeconds).toBeLessThanOrEqual(CARD_SECONDS + 21.1);
        expect(info.durationSeconds).toBeGreaterThan(CARD_SECONDS + 20);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
});
