/**
 * Pictures that cost far more to decode than to send (issue 15, item 7): a logo of 16000×16000 px is a
 * 780 KB PNG and 1 GB decoded; accepted, one intro with it took 358 s and 3.8 GB of ffmpeg memory. The
 * upload refuses it from its header, what is stored is a copy of at most 1024 px (made by the worker's
 * logo job: the API process decodes nothing), and logos stored before the limit cannot stall a render
 * either.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGO_TOO_MANY_PIXELS_MESSAGE } from '../../src/contract/api/settings.schema.js';
import { DEFAULT_VIDEO_STYLE } from '../../src/contract/constants.js';
import { companies, jobs, testimonialResponses } from '../../src/server/db/schema.js';
import { createMediaTools } from '../../src/server/media/ffmpeg.js';
import { signedInCompany } from '../../src/server/test/accounts.js';
import { multipart } from '../../src/server/test/clips.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';
import { completedTestimonial } from '../../src/server/test/testimonials.js';

const run = promisify(execFile);
const { probe } = createMediaTools({ ffmpegConcurrency: 2 });

/** A one-colour PNG of the given size, made once per machine (a 16000×16000 one compresses to ~780 KB). */
async function png(size: string, color: string): Promise<Buffer> {
  const file = path.join(os.tmpdir(), `vr-logo-${size}-${color.replace('#', '')}.png`);
  if (!existsSync(file)) await run('ffmpeg', ['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', `color=${color}:s=${size}`, '-frames:v', '1', '-update', '1', file]);
  return readFile(file);
}

/** Width and height of a stored or served picture (small ones only: ffprobe decodes it). */
async function pictureSize(data: Buffer): Promise<{ width: number; height: number }> {
  const file = path.join(os.tmpdir(), `vr-logo-probe-${process.pid}-${Math.random().toString(16).slice(2)}.png`);
  await writeFile(file, data);
  const { video } = await probe(file);
  return { width: video?.width ?? 0, height: video?.height ?? 0 };
}

describe('logo pictures too big to decode', () => {
  let t: TestApp;
  let bomb: Buffer;
  let wide: Buffer;
  beforeAll(async () => {
    t = await createTestApp({ work: true });
    bomb = await png('16000x16000', 'white');
    wide = await png('3000x1000', 'red');
  });
  afterAll(async () => {
    await t?.close();
  });

  type Me = Awaited<ReturnType<typeof signedInCompany>>;
  const upload = (me: Me, content: Buffer) => {
    const form = multipart([{ name: 'logo', filename: 'logo.png', content, type: 'image/png' }]);
    return t.app.inject({ method: 'POST', url: '/api/auth/upload-logo', payload: form.payload, headers: { ...me.headers, ...form.headers } });
  };
  const logoKeyOf = async (companyId: string) => (await t.ctx.db.select({ logoKey: companies.logoKey }).from(companies).where(eq(companies.id, companyId)))[0]?.logoKey ?? null;
  const storedFiles = (companyId: string) => readdir(path.join(t.config.mediaDir, 'companies', companyId), { recursive: true }).catch(() => []);
  const readStored = (key: string) => readFile(path.join(t.config.mediaDir, key));

  it('refuses a 16000×16000 PNG of under 1 MB at once, with a message, and stores nothing', async () => {
    expect(bomb.length).toBeLessThan(1024 * 1024); // within the 5 MB upload limit: only its pixels are too many
    const me = await signedInCompany(t);
    const started = Date.now();
    const res = await upload(me, bomb);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ error: LOGO_TOO_MANY_PIXELS_MESSAGE, code: 'invalid_format' });
    // Refused from its header: nothing decoded it (a decode takes seconds and ~1 GB here).
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await logoKeyOf(me.companyId)).toBeNull();
    expect(await storedFiles(me.companyId)).toEqual([]);
    expect((await me.get('/api/auth/settings')).json().company_logo_url).toBeNull();
  });

  it('stores a 3000×1000 logo as a PNG of at most 1024 px, serves that copy, and the intro render shows it', async () => {
    const me = await signedInCompany(t);
    const res = await upload(me, wide);
    expect(res.statusCode, res.body).toBe(200);
    // Decoded by the worker's logo job, not in the request.
    expect(await logoJob(res.json().jobId)).toMatchObject({ phase: 'ready', errorReason: null });
    const key = (await logoKeyOf(me.companyId))!;
    expect(key).toMatch(/-1024\.png$/);
    const stored = await readStored(key);
    expect(await pictureSize(stored)).toEqual({ width: 1024, height: 341 });
    // Only the copy is kept.
    expect((await storedFiles(me.companyId)).filter((f) => String(f).includes('logo') && String(f).endsWith('.png'))).toEqual([path.join('logo', path.basename(key))]);
    // Pages and e-mails show the public address, which serves the copy.
    const publicUrl = (await me.get('/api/auth/settings')).json().company_logo_url as string;
    const served = await t.app.inject({ method: 'GET', url: new URL(publicUrl).pathname });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(stored)).toBe(true);

    // The intro render uses it: the card has the (red) logo at the top.
    await me.post('/api/auth/update-settings', { ...DEFAULT_VIDEO_STYLE, logo_url: publicUrl, show_logo_in_videos: true, background_color: '#000000' });
    const rendered = await renderIntro(me);
    expect(rendered.phase).toBe('ready');
    const { width, height } = (await probe(rendered.file)).video!;
    const logoMiddle = Math.round(height * 0.08 + height * 0.06);
    const { stdout } = await run('ffmpeg', ['-v', 'error', '-ss', '1', '-i', rendered.file, '-frames:v', '1', '-vf', `crop=2:2:${Math.round(width / 2)}:${logoMiddle}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { encoding: 'buffer' });
    expect(stdout[0]).toBeGreaterThan(180);
    expect(stdout[1]).toBeLessThan(80);
  }, 180_000);

  it('fails the logo job of a damaged picture (a valid header, then garbage) with logo_damaged, the logo unchanged', async () => {
    const me = await signedInCompany(t);
    const good = await upload(me, wide);
    expect(await logoJob(good.json().jobId)).toMatchObject({ phase: 'ready' });
    const before = await logoKeyOf(me.companyId);
    // The signature and the IHDR chunk of a real PNG (the header check passes), then no picture at all.
    const damaged = Buffer.concat([wide.subarray(0, 33), Buffer.alloc(4000, 0x5a)]);
    const res = await upload(me, damaged);
    expect(res.statusCode, res.body).toBe(200);
    const job = await logoJob(res.json().jobId);
    expect(job).toMatchObject({ phase: 'failed', errorReason: 'logo_damaged', attempts: 1 });
    const seen = (await me.get(`/api/jobs/${job.id}`)).json();
    expect(seen.error).toEqual({ reason: 'logo_damaged', params: {}, message: 'This image is damaged or incomplete. Please select another file.' });
    expect(await logoKeyOf(me.companyId)).toBe(before);
    expect(await t.ctx.storage.head(String((job.params as { sourceKey: string }).sourceKey))).toBeNull();
    // Not tried again: another file is needed.
    expect((await me.post(`/api/jobs/${job.id}/retry`)).statusCode).toBe(409);
    expect((await storedFiles(me.companyId)).filter((f) => String(f).startsWith(`logo${path.sep}`) && !String(f).endsWith('.meta.json'))).toEqual([path.join('logo', path.basename(before!))]);
  }, 60_000);

  it('does not stall a render on a logo stored before the limits: a huge one is removed, a large one normalised by the render that uses it', async () => {
    const me = await signedInCompany(t);
    await me.post('/api/auth/update-settings', { ...DEFAULT_VIDEO_STYLE, show_logo_in_videos: true });
    // As an upload before this fix stored them: the file itself, under its content hash.
    const legacyBomb = `companies/${me.companyId}/logo/0123456789abcdef.png`;
    await t.ctx.storage.put(legacyBomb, bomb, 'image/png');
    await t.ctx.db.update(companies).set({ logoKey: legacyBomb }).where(eq(companies.id, me.companyId));
    const started = Date.now();
    const rendered = await renderIntro(me);
    expect(rendered.phase).toBe('ready');
    expect(Date.now() - started).toBeLessThan(60_000); // 358 s with the logo decoded for every frame
    expect(await logoKeyOf(me.companyId)).toBeNull();
    expect(await t.ctx.storage.head(legacyBomb)).toBeNull();

    const legacyWide = `companies/${me.companyId}/logo/fedcba9876543210.png`;
    await t.ctx.storage.put(legacyWide, wide, 'image/png');
    await t.ctx.db.update(companies).set({ logoKey: legacyWide }).where(eq(companies.id, me.companyId));
    // The public address serves it as stored (an API process decodes nothing)…
    const served = await t.app.inject({ method: 'GET', url: `/api/public/logo/${me.companyId}` });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(wide)).toBe(true);
    expect(await logoKeyOf(me.companyId)).toBe(legacyWide);
    // …and the worker's render that shows it normalises it, once.
    expect((await renderIntro(me)).phase).toBe('ready');
    const normalised = (await logoKeyOf(me.companyId))!;
    expect(normalised).toMatch(/-1024\.png$/);
    expect(await pictureSize(await readStored(normalised))).toEqual({ width: 1024, height: 341 });
    expect(await t.ctx.storage.head(legacyWide)).toBeNull();
  }, 180_000);

  /** A logo job's row once it is over (the in-process worker runs it). */
  async function logoJob(id: string) {
    const row = async () => (await t.ctx.db.select().from(jobs).where(eq(jobs.id, id)))[0];
    await expect.poll(async () => (await row())?.phase, { timeout: 30_000, interval: 100 }).toMatch(/^(ready|failed|cancelled)$/);
    return (await row())!;
  }

  /** A paid, answered testimonial of `me`, and its intro started through the API and rendered by the worker. */
  async function renderIntro(me: Me) {
    await t.ctx.db.update(companies).set({ credits: 5 }).where(eq(companies.id, me.companyId));
    const tm = await completedTestimonial(t, me);
    await me.post(`/api/testimonials/pay/${tm.id}`);
    await expect
      .poll(async () => (await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id)))[0]?.videoKey, { timeout: 60_000, interval: 300 })
      .toBeTruthy();
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));
    const started = await me.post(`/api/testimonials/response/${response!.id}/generate-modified/intro`, { language: 'en' });
    expect(started.statusCode, started.body).toBe(202);
    const jobId = String(started.json().jobId);
    const job = async () => (await t.ctx.db.select().from(jobs).where(eq(jobs.id, jobId)))[0];
    await expect.poll(async () => (await job())?.phase, { timeout: 120_000, interval: 300 }).toMatch(/^(ready|failed|cancelled)$/);
    const row = await job();
    return { phase: row?.phase, file: path.join(t.config.mediaDir, row?.outputKey ?? 'missing') };
  }
});
