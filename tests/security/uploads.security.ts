/**
 * Hostile uploads to the two upload calls (the customer's answers, the company's logo): files that
 * lie about what they are, cut files, path tricks in names, oversized headers and floods of parts.
 * Each is refused with the error shape, and nothing is stored: no file, no row, the request still pending.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testimonialRequests, testimonialResponses } from '../../src/server/db/schema.js';
import { signedInCompany } from '../../src/server/test/accounts.js';
import { makeClip, multipart } from '../../src/server/test/clips.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** A 1×1 PNG. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f0c1b40000000049454e44ae426082',
  'hex',
);

describe('hostile uploads', () => {
  let t: TestApp;
  let webm: Buffer;
  let ip = 0;

  beforeAll(async () => {
    t = await createTestApp({ env: { UPLOAD_MAX_BYTES: String(2 * 1024 * 1024) } });
    webm = await readFile(await makeClip({ format: 'webm', seconds: 3 }));
  });
  afterAll(async () => {
    await t?.close();
  });

  async function pendingRequest() {
    const me = await signedInCompany(t);
    const q = (await me.post('/api/questions/add', { company_id: me.companyId, text: 'What changed for you?', order_position: 1 })).json<{ id: string }>();
    const { testimonial } = (
      await me.post('/api/testimonials/request', { customer_email: 'c@client.test', customer_name: 'Nina', question_ids: [q.id], language: 'english' })
    ).json<{ testimonial: { id: string } }>();
    const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, testimonial.id));
    return { me, id: testimonial.id, token: row!.token, questionId: q.id };
  }

  type Request = Awaited<ReturnType<typeof pendingRequest>>;

  function saveBody(r: Request, file: { content: Buffer; filename?: string; type?: string }, extra: { name: string; value: string }[] = []) {
    // The fields first, as the recording page sends them: the server reads no file before the token.
    return multipart([
      { name: 'questionIds[0]', value: r.questionId },
      { name: 'bgColors[0]', value: '#000000' },
      { name: 'name', value: 'Nina' },
      { name: 'testimonialId', value: r.id },
      { name: 'token', value: r.token },
      { name: 'consentVersion', value: 'image-rights-v1' },
      ...extra,
      { name: 'videos', filename: file.filename ?? 'video0.webm', content: file.content, type: file.type ?? 'video/webm' },
    ]);
  }

  const send = (body: { payload: Buffer; headers: Record<string, string> }) =>
    t.app.inject({ method: 'POST', url: '/api/public/testimonial/save', remoteAddress: `10.77.0.${(ip++ % 250) + 1}`, ...body });

  async function expectNothingStored(r: Request, before: string[]) {
    const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, r.id));
    expect(row?.status).toBe('pending');
    expect(await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, r.id))).toHaveLength(0);
    expect(await filesUnder(t.config.mediaDir)).toEqual(before);
  }

  it.each([
    ['a PNG image sent as video/webm', () => PNG],
    ['an HTML page with a script sent as video/webm', () => Buffer.from('<!doctype html><script>alert(document.cookie)</script>')],
    ['a polyglot: a PNG with a WebM appended', () => Buffer.concat([PNG, webm])],
    ['a WebM cut to a third of its length', () => webm.subarray(0, Math.floor(webm.length / 3))],
    ['a WebM header followed by garbage', () => Buffer.concat([webm.subarray(0, 200), Buffer.alloc(60_000, 0x41)])],
    ['an empty file', () => Buffer.alloc(0)],
  ])('refuses %s and stores nothing', async (_name, content) => {
    const r = await pendingRequest();
    const before = await filesUnder(t.config.mediaDir);
    const res = await send(saveBody(r, { content: content() }));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_format', error: expect.any(String) });
    await expectNothingStored(r, before);
  });

  it('never uses the file name for storage: traversal names end up inside the media folder under our own keys', async () => {
    for (const filename of ['../../../../tmp/pwned.webm', '..\\..\\windows\\evil.webm', '/etc/passwd', 'a/../../b.webm%00.png']) {
      const r = await pendingRequest();
      const res = await send(saveBody(r, { content: webm, filename }));
      expect(res.statusCode, `${filename}: ${res.body}`).toBe(200);
      const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, r.id));
      const keys = [response!.originalKey, response!.videoKey].filter((k): k is string => Boolean(k));
      for (const k of keys) {
        expect(k).not.toMatch(/\.\.|passwd|pwned|evil|\\/);
        expect(path.resolve(t.config.mediaDir, k).startsWith(t.config.mediaDir + path.sep)).toBe(true);
      }
    }
    const all = await filesUnder(t.config.dataDir);
    expect(all.some((f) => /pwned|evil|passwd/.test(f))).toBe(false);
  });

  it('refuses a part header of 100 KB without storing anything', async () => {
    const r = await pendingRequest();
    const before = await filesUnder(t.config.mediaDir);
    const boundary = '----hostile';
    const hugeName = 'x'.repeat(100_000);
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\n${r.token}\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="videos"; filename="${hugeName}.webm"\r\nContent-Type: video/webm\r\n\r\n`),
      webm,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await send({ payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json()).toMatchObject({ code: expect.any(String), error: expect.any(String) });
    await expectNothingStored(r, before);
  });

  it('refuses a flood of parts and a flood of files without storing anything', async () => {
    const r = await pendingRequest();
    const before = await filesUnder(t.config.mediaDir);
    const manyFields = Array.from({ length: 400 }, (_, i) => ({ name: `junk${i}`, value: 'x' }));
    const fields = await send(saveBody(r, { content: webm }, manyFields));
    expect(fields.statusCode).toBe(413);
    expect(fields.json()).toMatchObject({ code: 'payload_too_large' });

    // With a valid token first: the request has one question, so the second file is already refused
    // (upload-limits.security.ts covers the files of a token that opens nothing).
    const manyFiles = multipart([
      { name: 'token', value: r.token },
      ...Array.from({ length: 60 }, (_, i) => ({ name: 'videos', filename: `v${i}.webm`, content: webm.subarray(0, 64), type: 'video/webm' })),
    ]);
    const files = await send(manyFiles);
    expect(files.statusCode).toBe(400);
    expect(files.json()).toMatchObject({ code: 'invalid_data', error: expect.stringMatching(/more recordings than questions/) });
    await expectNothingStored(r, before);
  });

  it('refuses a logo that lies about being an image, and an SVG with a script', async () => {
    const me = await signedInCompany(t);
    const before = await filesUnder(t.config.mediaDir);
    for (const [content, filename, type] of [
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'logo.svg', 'image/svg+xml'],
      [Buffer.from('<html><script>alert(1)</script></html>'), 'logo.png', 'image/png'],
      [webm, 'logo.png', 'image/png'],
      [PNG.subarray(0, 20), 'logo.png', 'image/png'],
    ] as const) {
      const form = multipart([{ name: 'logo', filename, content, type }]);
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/upload-logo', payload: form.payload, headers: { ...me.headers, ...form.headers } });
      expect(res.statusCode, `${filename} ${type}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ error: expect.any(String) });
    }
    expect(await filesUnder(t.config.mediaDir)).toEqual(before);
    const settings = (await me.get('/api/auth/settings')).json<{ logo_url: string | null; company_logo_url: string | null }>();
    expect(settings.company_logo_url ?? null).toBeNull();
  });
});
