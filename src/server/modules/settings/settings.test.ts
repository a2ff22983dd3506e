import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isFinalJobPhase, ZJob, type TJob } from '../../../contract/api/jobs.schema.js';
import { ZUploadLogoResponse } from '../../../contract/api/settings.schema.js';
import { DEFAULT_VIDEO_STYLE } from '../../../contract/constants.js';
import { logoContrastLow } from '../../../contract/logo-contrast.js';
import { DEFAULT_THEME, luminance, matchingTheme } from '../../../contract/video-themes.js';
import { companies, users, videoStyleSettings } from '../../db/schema.js';
import { createMediaTools } from '../../media/ffmpeg.js';
import { signedInCompany } from '../../test/accounts.js';
import { multipart } from '../../test/clips.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { defaultStyleRow } from './default-style.js';
import { measuredLogoLuminance, normaliseUploadedLogo } from './logo.job.js';

/** The objects stored under a company's logo folder (local storage: without their metadata files). */
const logoFilesIn = async (mediaDir: string, companyId: string) =>
  (await readdir(path.join(mediaDir, 'companies', companyId, 'logo'))).filter((f) => !f.endsWith('.meta.json')).sort();

describe('settings, profile and logo', () => {
  let t: TestApp;
  let png: Buffer;
  beforeAll(async () => {
    t = await createTestApp({ work: true });
    const file = path.join(os.tmpdir(), `vr-logo-${process.pid}.png`);
    await promisify(execFile)('ffmpeg', ['-hide_banner', '-y', '-f', 'lavfi', '-i', 'color=c=#6d28d9:s=120x60', '-frames:v', '1', file]);
    png = await readFile(file);
  });
  afterAll(async () => {
    await t.close();
  });

  const upload = (me: Awaited<ReturnType<typeof signedInCompany>>, content: Buffer, type = 'image/png', name = 'logo') => {
    const form = multipart([{ name, filename: 'logo.png', content, type }]);
    return t.app.inject({ method: 'POST', url: '/api/auth/upload-logo', ...form, headers: { ...form.headers, ...me.headers } });
  };

  it('starts from the default style and saves a valid one', async () => {
    const me = await signedInCompany(t);
    const initial = (await me.get('/api/auth/settings')).json();
    expect(initial).toEqual({ ...DEFAULT_VIDEO_STYLE, company_logo_url: null, logo_luminance: null, logo_aspect: null });
    const next = { ...DEFAULT_VIDEO_STYLE, font_size_question: 48, font_color_question: '#FFCC00', font_style_question: 'Georgia', background_color: '#102030', show_logo_in_videos: true };
    const saved = await me.post('/api/auth/update-settings', next);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ font_size_question: 48, font_color_question: '#ffcc00', font_style_question: 'Georgia', background_color: '#102030' });
  });

  it('gives a company signed up through the API the designed default: the ink theme', async () => {
    const suffix = `${process.pid}-${Date.now()}`;
    const email = `ink-${suffix}@company.test`;
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      remoteAddress: '10.77.0.1',
      payload: { firstname: 'Ines', lastname: 'Kahn', email, companyName: `Ink Studio ${suffix}`, password: 'secret12', lang: 'fr' },
    });
    expect(signup.statusCode, signup.body).toBe(201);
    // The confirmation link is the auth tests' business: confirmed here as signedInCompany does.
    await t.ctx.db.update(users).set({ emailConfirmedAt: new Date() }).where(eq(users.email, email));
    const signin = await t.app.inject({ method: 'POST', url: '/api/auth/signin', remoteAddress: '10.77.0.1', payload: { email, password: 'secret12' } });
    expect(signin.statusCode, signin.body).toBe(200);
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/settings', headers: { authorization: `Bearer ${(signin.json() as { token: string }).token}` } });
    expect(res.statusCode, res.body).toBe(200);
    const settings = res.json();
    expect(settings).toEqual({ ...DEFAULT_VIDEO_STYLE, company_logo_url: null, logo_luminance: null, logo_aspect: null });
    expect(DEFAULT_THEME.id).toBe('ink');
    expect(matchingTheme(settings)?.id).toBe('ink');
    expect(settings).toMatchObject({ font_style_question: 'Trebuchet MS', font_bold_question: true, background_color: '#15171f', font_size_subtitle: 34 });
  });

  it('has column defaults equal to DEFAULT_VIDEO_STYLE (migration 0012) for a row written without values', async () => {
    const [bare] = await t.ctx.db.insert(companies).values({ name: `Bare ${process.pid}-${Date.now()}` }).returning();
    await t.ctx.db.insert(videoStyleSettings).values({ companyId: bare!.id });
    const [row] = await t.ctx.db.select().from(videoStyleSettings).where(eq(videoStyleSettings.companyId, bare!.id));
    expect(row).toMatchObject(defaultStyleRow(bare!.id));
  });

  it('validates sizes, colours and fonts as §5 says', async () => {
    const me = await signedInCompany(t);
    for (const [field, value, message] of [
      ['font_size_question', 80, /between 12 and 72/],
      ['font_size_subtitle', 11, /between 12 and 48/],
      ['font_color_subtitle', 'red', /hex value/],
      ['font_style_question', 'Papyrus', /available fonts/],
    ] as const) {
      const res = await me.post('/api/auth/update-settings', { ...DEFAULT_VIDEO_STYLE, [field]: value });
      expect(res.statusCode, field).toBe(400);
      expect(res.json()).toMatchObject({ field, error: expect.stringMatching(message) });
    }
  });

  it('saves the lower third, the end card and the caption style, keeps them when a client leaves them out, and refuses bad ones', async () => {
    const me = await signedInCompany(t);
    const on = { lower_third: true, end_card: true, end_card_text: '  Book a call  ', end_card_address: 'acme.com', caption_style: 'word' };
    const saved = await me.post('/api/auth/update-settings', { ...DEFAULT_VIDEO_STYLE, ...on });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ ...on, end_card_text: 'Book a call' });
    // A client of before issue 31 (no such fields) changes the font and leaves them as they are.
    const { lower_third: _a, end_card: _b, end_card_text: _c, end_card_address: _d, caption_style: _e, ...older } = DEFAULT_VIDEO_STYLE;
    const kept = await me.post('/api/auth/update-settings', { ...older, font_style_question: 'Georgia' });
    expect(kept.json()).toMatchObject({ font_style_question: 'Georgia', lower_third: true, end_card: true, end_card_text: 'Book a call', caption_style: 'word' });
    for (const [field, value, message] of [
      ['caption_style', 'karaoke', /line or word-by-word/],
      ['end_card_text', 'x'.repeat(61), /at most 60 characters/],
      ['end_card_address', 'x'.repeat(81), /at most 80 characters/],
      ['lower_third', 'yes', /on or off/],
    ] as const) {
      const res = await me.post('/api/auth/update-settings', { ...DEFAULT_VIDEO_STYLE, [field]: value });
      expect(res.statusCode, field).toBe(400);
      expect(res.json()).toMatchObject({ field, error: expect.stringMatching(message) });
    }
    expect((await me.get('/api/auth/settings')).json()).toMatchObject({ end_card_text: 'Book a call', caption_style: 'word' });
  });

  type Me = Awaited<ReturnType<typeof signedInCompany>>;
  const logoFiles = (companyId: string) => logoFilesIn(t.config.mediaDir, companyId);
  const logoKeyOf = async (companyId: string) => (await t.ctx.db.select({ logoKey: companies.logoKey }).from(companies).where(eq(companies.id, companyId)))[0]?.logoKey ?? null;

  /** Follows a job through GET /api/jobs/{id} until it is over. */
  async function follow(me: Me, id: string): Promise<TJob> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const res = await me.get(`/api/jobs/${id}`);
      expect(res.statusCode, res.body).toBe(200);
      const job = ZJob.parse(res.json());
      if (isFinalJobPhase(job.phase)) return job;
      if (Date.now() > deadline) throw new Error(`logo job ${id} still ${job.phase}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** The path and query of an absolute address of the app. */
  const local = (url: string) => {
    const { pathname, search } = new URL(url);
    return pathname + search;
  };

  it('answers an upload at once with the file and its logo job; the worker stores the normalised copy, served publicly', async () => {
    const me = await signedInCompany(t);
    const res = await upload(me, png);
    expect(res.statusCode, res.body).toBe(200);
    const { logo_url, jobId } = ZUploadLogoResponse.parse(res.json());
    // The file as uploaded, at a signed address, to show at once.
    expect(logo_url).toMatch(new RegExp(`^http://app\\.test/files/companies/${me.companyId}/logo/upload-[0-9a-f-]+\\.png\\?exp=`));
    const sourceKey = decodeURIComponent(new URL(logo_url).pathname.replace('/files/', ''));

    const job = await follow(me, jobId);
    expect(job).toMatchObject({ id: jobId, kind: 'logo', testimonialId: null, responseId: null, phase: 'ready', progress: 100, error: null, params: { sourceKey } });
    const key = (await logoKeyOf(me.companyId))!;
    expect(key).toBe(`companies/${me.companyId}/logo/${jobId}-1024.png`);
    expect(job.outputUrl).toContain(`/files/companies/${me.companyId}/logo/${jobId}-1024.png?`);
    // The upload is deleted once its job is over (after the job's commit): only the normalised copy is kept.
    await expect.poll(() => t.ctx.storage.head(sourceKey), { timeout: 10_000, interval: 50 }).toBeNull();

    const publicUrl = `http://app.test/api/public/logo/${me.companyId}?v=${createHash('sha256').update(key).digest('hex').slice(0, 10)}`;
    expect((await me.get('/api/auth/settings')).json().company_logo_url).toBe(publicUrl);
    const served = await t.app.inject({ method: 'GET', url: local(publicUrl) });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    // What is stored and served is the normalised copy: a PNG of the same size (at most 1024 px), not the upload's bytes.
    expect(served.rawPayload.equals(png)).toBe(false);
    const servedFile = path.join(os.tmpdir(), `vr-logo-served-${process.pid}.png`);
    await writeFile(servedFile, served.rawPayload);
    expect((await t.ctx.media.probe(servedFile)).video).toMatchObject({ codec: 'png', width: 120, height: 60 });

    const text = await upload(me, Buffer.from('<svg onload="alert(1)"></svg>'), 'image/svg+xml');
    expect(text.statusCode).toBe(400);
    expect(text.json().error).toMatch(/Please select an image file/);
    const big = await upload(me, Buffer.concat([png, Buffer.alloc(5_242_881)]));
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toBe('File size must be less than 5MB');

    // Removing the logo through the settings.
    await me.post('/api/auth/update-settings', { ...DEFAULT_VIDEO_STYLE, logo_url: '' });
    expect((await me.get('/api/auth/settings')).json().company_logo_url).toBeNull();
  });

  it('keeps the latest of two uploads, whichever job ends first, and replaces the logo before', async () => {
    const me = await signedInCompany(t);
    const first = ZUploadLogoResponse.parse((await upload(me, png)).json());
    await follow(me, first.jobId);
    const before = (await logoKeyOf(me.companyId))!;
    const older = ZUploadLogoResponse.parse((await upload(me, png)).json());
    const newer = ZUploadLogoResponse.parse((await upload(me, png)).json());
    const [a, b] = await Promise.all([follow(me, older.jobId), follow(me, newer.jobId)]);
    expect(b).toMatchObject({ phase: 'ready', outputUrl: expect.stringContaining(`${newer.jobId}-1024.png`) });
    // The older one ended without touching the logo, and left nothing behind.
    expect(a).toMatchObject({ phase: 'ready', outputUrl: null });
    expect(await logoKeyOf(me.companyId)).toBe(`companies/${me.companyId}/logo/${newer.jobId}-1024.png`);
    // Files are deleted after the jobs' commits: the leftovers go within moments.
    await expect.poll(() => t.ctx.storage.head(`companies/${me.companyId}/logo/${older.jobId}-1024.png`), { timeout: 10_000, interval: 50 }).toBeNull();
    await expect.poll(() => t.ctx.storage.head(before), { timeout: 10_000, interval: 50 }).toBeNull();
    await expect.poll(() => logoFiles(me.companyId), { timeout: 10_000, interval: 50 }).toEqual([`${newer.jobId}-1024.png`]);
  });

  it('measures a dark wide logo as the job stores it, and keeps the company\'s plate choice (decision 172)', async () => {
    const me = await signedInCompany(t);
    // A navy 3:1 wordmark with transparent margins: the measure counts its opaque pixels only.
    const file = path.join(os.tmpdir(), `vr-logo-navy-${process.pid}.png`);
    await promisify(execFile)('ffmpeg', ['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=#1b2a4a:s=300x100', '-vf', 'format=rgba,pad=500:140:100:20:color=black@0', '-frames:v', '1', file]);
    const { jobId } = ZUploadLogoResponse.parse((await upload(me, await readFile(file))).json());
    expect((await follow(me, jobId)).phase).toBe('ready');
    const settings = (await me.get('/api/auth/settings')).json();
    expect(settings.logo_luminance).toBeCloseTo(luminance('#1b2a4a'), 2);
    expect(settings.logo_aspect).toBeCloseTo(3, 1);
    expect(settings.logo_plate).toBe('auto');
    expect(logoContrastLow(settings.logo_luminance, DEFAULT_VIDEO_STYLE.background_color)).toBe(true);

    // A logo stored before logos were measured (migration 0021 leaves it null) is measured by the
    // first render that draws it, and the measure is kept for the settings and the share page.
    await t.ctx.db.update(companies).set({ logoLuminance: null, logoAspect: null }).where(eq(companies.id, me.companyId));
    const [stored] = await t.ctx.db.select({ key: companies.logoKey }).from(companies).where(eq(companies.id, me.companyId));
    expect(await measuredLogoLuminance(t.ctx, me.companyId, stored!.key!)).toBeCloseTo(luminance('#1b2a4a'), 2);
    expect((await me.get('/api/auth/settings')).json()).toMatchObject({ logo_luminance: settings.logo_luminance, logo_aspect: settings.logo_aspect });

    const wrong = await me.post('/api/auth/update-settings', { ...DEFAULT_VIDEO_STYLE, logo_url: settings.logo_url, logo_plate: 'sideways' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatch(/logo plate/);
    const off = await me.post('/api/auth/update-settings', { ...DEFAULT_VIDEO_STYLE, logo_url: settings.logo_url, logo_plate: 'off' });
    expect(off.json()).toMatchObject({ logo_plate: 'off' });
    // A save that does not name the plate keeps the choice.
    const { logo_plate: _omitted, ...withoutPlate } = DEFAULT_VIDEO_STYLE;
    expect((await me.post('/api/auth/update-settings', { ...withoutPlate, logo_url: settings.logo_url })).json()).toMatchObject({ logo_plate: 'off' });
    // Removing the logo forgets its measure.
    await me.post('/api/auth/update-settings', { ...DEFAULT_VIDEO_STYLE, logo_url: '' });
    expect((await me.get('/api/auth/settings')).json()).toMatchObject({ company_logo_url: null, logo_luminance: null, logo_aspect: null });
  });

  it('renames the company (unique without regard to case) and sets the mail language', async () => {
    const me = await signedInCompany(t, { companyName: 'Fleurs Dupont' });
    const other = await signedInCompany(t);
    const res = await t.app.inject({ method: 'PUT', url: '/api/user/update-company', headers: other.headers, payload: { company_name: 'FLEURS dupont', mail_language: 'fr' } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'name_exists' });
    const ok = await t.app.inject({ method: 'PUT', url: '/api/user/update-company', headers: me.headers, payload: { company_name: 'Fleurs & Co', mail_language: 'fr' } });
    expect(ok.json().user).toMatchObject({ company: { name: 'Fleurs & Co' }, mail_language: 'fr' });
    expect((await me.get('/api/user/profile')).json().user.company.name).toBe('Fleurs & Co');
  });
});

/**
 * An API process (ROLE=api) runs no media tool but ffprobe (issue 16): its logo upload stores the file
 * and queues the job, and decodes nothing; neither does the logo's public address, even for a logo
 * stored before logos were normalised.
 */
describe('the logo in an API process', () => {
  let t: TestApp;
  let png: Buffer;
  const ffmpegRuns: string[][] = [];
  beforeAll(async () => {
    // The database is the test's own (DATABASE_URL only satisfies ROLE=api's configuration); no workers run.
    t = await createTestApp({ env: { ROLE: 'api', DATABASE_URL: 'postgres://unused@127.0.0.1:9/unused', JWT_SECRET: 'j'.repeat(40) } });
    expect(t.config.role).toBe('api');
    t.ctx.media = {
      ...t.ctx.media,
      runFfmpeg: async (args) => {
        ffmpegRuns.push(args);
        throw new Error('an API process runs no ffmpeg');
      },
    };
    const file = path.join(os.tmpdir(), `vr-logo-api-${process.pid}.png`);
    await promisify(execFile)('ffmpeg', ['-hide_banner', '-y', '-f', 'lavfi', '-i', 'color=c=#16a34a:s=90x30', '-frames:v', '1', file]);
    png = await readFile(file);
  });
  afterAll(async () => {
    await t?.close();
  });

  const upload = (me: Awaited<ReturnType<typeof signedInCompany>>, content: Buffer) => {
    const form = multipart([{ name: 'logo', filename: 'logo.png', content, type: 'image/png' }]);
    return t.app.inject({ method: 'POST', url: '/api/auth/upload-logo', ...form, headers: { ...form.headers, ...me.headers } });
  };
  const logoFiles = (companyId: string) => logoFilesIn(t.config.mediaDir, companyId);
  const logoKeyOf = async (companyId: string) => (await t.ctx.db.select({ logoKey: companies.logoKey }).from(companies).where(eq(companies.id, companyId)))[0]?.logoKey ?? null;

  it('stores the upload and queues its job without running ffmpeg; the worker makes it the logo', async () => {
    const me = await signedInCompany(t);
    const res = await upload(me, png);
    expect(res.statusCode, res.body).toBe(200);
    const { logo_url, jobId } = ZUploadLogoResponse.parse(res.json());
    expect(ffmpegRuns).toEqual([]);
    // The file as uploaded is served at its signed address, byte for byte; no normalised copy exists yet.
    const source = await t.app.inject({ method: 'GET', url: new URL(logo_url).pathname + new URL(logo_url).search });
    expect(source.statusCode).toBe(200);
    expect(source.headers['content-type']).toBe('image/png');
    expect(source.rawPayload.equals(png)).toBe(true);
    expect(await logoFiles(me.companyId)).toEqual([path.basename(new URL(logo_url).pathname)]);
    expect(await logoKeyOf(me.companyId)).toBeNull();
    expect((await me.get('/api/auth/settings')).json().company_logo_url).toBeNull();
    const queued = ZJob.parse((await me.get(`/api/jobs/${jobId}`)).json());
    expect(queued).toMatchObject({ kind: 'logo', phase: 'queued', testimonialId: null });
    const [message] = (await t.ctx.database.transaction((executeSql) => executeSql("select data from pgboss.job where name = 'normalise-logo'"))).rows as { data: { jobId: string } }[];
    expect(message?.data.jobId).toBe(jobId);

    // A worker (here the registry's handler itself, with real ffmpeg) takes the job.
    await normaliseUploadedLogo({ ...t.ctx, media: createMediaTools(t.config) }, jobId, { attempt: 0 });
    expect(ZJob.parse((await me.get(`/api/jobs/${jobId}`)).json())).toMatchObject({ phase: 'ready', error: null });
    expect(await logoKeyOf(me.companyId)).toBe(`companies/${me.companyId}/logo/${jobId}-1024.png`);
    expect(await logoFiles(me.companyId)).toEqual([`${jobId}-1024.png`]);
    expect(ffmpegRuns).toEqual([]);
  });

  it('serves a logo stored before logos were normalised as it is, decoding nothing', async () => {
    const me = await signedInCompany(t);
    const legacy = `companies/${me.companyId}/logo/0123456789abcdef.png`;
    await t.ctx.storage.put(legacy, png, 'image/png');
    await t.ctx.db.update(companies).set({ logoKey: legacy }).where(eq(companies.id, me.companyId));
    const served = await t.app.inject({ method: 'GET', url: `/api/public/logo/${me.companyId}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(png)).toBe(true);
    expect(await logoKeyOf(me.companyId)).toBe(legacy);
    expect(ffmpegRuns).toEqual([]);
  });

  it('cancels a logo still being prepared when the company removes its logo', async () => {
    const me = await signedInCompany(t);
    const { logo_url, jobId } = ZUploadLogoResponse.parse((await upload(me, png)).json());
    const saved = await me.post('/api/auth/update-settings', { ...DEFAULT_VIDEO_STYLE, logo_url: '' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(ZJob.parse((await me.get(`/api/jobs/${jobId}`)).json()).phase).toBe('cancelled');
    // The worker then finds nothing to do, and deletes the upload.
    await normaliseUploadedLogo({ ...t.ctx, media: createMediaTools(t.config) }, jobId, { attempt: 0 });
    expect(await logoKeyOf(me.companyId)).toBeNull();
    expect(await t.ctx.storage.head(decodeURIComponent(new URL(logo_url).pathname.replace('/files/', '')))).toBeNull();
    expect(ffmpegRuns).toEqual([]);
  });
});
