/**
 * Issue 28: a logo lost by a settings write-back. While a new logo is prepared by its job, the settings
 * read as the client reads them must not tell it "no logo": a client that writes them back (the
 * specification's read-then-update) would remove the logo and cancel its job. Replayed through the API,
 * as an API client does it: upload, read at once (no worker runs yet), write back with the logo shown,
 * then the workers start, and the intro card is rendered and looked at. An explicit removal still
 * removes the logo and cancels its job (decision 177).
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZJob } from '../../../contract/api/jobs.schema.js';
import { ZGetSettingsResponse, ZUploadLogoResponse } from '../../../contract/api/settings.schema.js';
import { companies, testimonialResponses } from '../../db/schema.js';
import { jobRegistry } from '../../worker.js';
import { signedInCompany } from '../../test/accounts.js';
import { multipart } from '../../test/clips.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { colourBox, grabFrame } from '../../test/ocr.js';
import { completedTestimonial } from '../../test/testimonials.js';
import { normaliseUploadedLogo } from './logo.job.js';

const run = promisify(execFile);
/** The logo: a block of pure magenta; the card's default theme has none. */
const isLogo = (r: number, g: number, b: number) => r > 200 && g < 70 && b > 200;

/** A signed address without its signature and expiry (they change with the second it was signed in). */
const unsigned = (url: string) => url.split('?')[0];

describe('a logo being prepared, and a settings write-back', () => {
  let t: TestApp;
  let magenta: Buffer;
  beforeAll(async () => {
    // No worker yet: the logo job waits, queued, as it does between an upload and a busy worker.
    t = await createTestApp();
    const file = path.join(os.tmpdir(), `vr-logo-write-back-${process.pid}.png`);
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0xff00ff:s=300x100', '-frames:v', '1', file]);
    magenta = await readFile(file);
  });
  afterAll(async () => {
    await t?.close();
  });

  type Me = Awaited<ReturnType<typeof signedInCompany>>;
  const upload = (me: Me) => {
    const form = multipart([{ name: 'logo', filename: 'logo.png', content: magenta, type: 'image/png' }]);
    return t.app.inject({ method: 'POST', url: '/api/auth/upload-logo', ...form, headers: { ...form.headers, ...me.headers } });
  };
  const job = async (me: Me, id: string) => ZJob.parse((await me.get(`/api/jobs/${id}`)).json());
  const logoKeyOf = async (companyId: string) => (await t.ctx.db.select({ logoKey: companies.logoKey }).from(companies).where(eq(companies.id, companyId)))[0]?.logoKey ?? null;
  const fileOf = (url: string) => path.join(t.config.mediaDir, decodeURIComponent(new URL(url).pathname.replace('/files/', '')));

  // Before the workers start (the next test starts them).
  it('still removes the logo, and cancels its job, on an explicit removal', async () => {
    const me = await signedInCompany(t);
    // A logo in place, then a new one being prepared.
    const first = ZUploadLogoResponse.parse((await upload(me)).json());
    await normaliseUploadedLogo(t.ctx, first.jobId, { attempt: 0 });
    expect(await logoKeyOf(me.companyId)).toBe(`companies/${me.companyId}/logo/${first.jobId}-1024.png`);
    const second = ZUploadLogoResponse.parse((await upload(me)).json());
    const settings = ZGetSettingsResponse.parse((await me.get('/api/auth/settings')).json());
    expect(settings).toMatchObject({ logo_job_id: second.jobId });
    expect(unsigned(settings.logo_url)).toBe(unsigned(second.logo_url));
    expect(settings.company_logo_url).toMatch(/\/api\/public\/logo\//);

    const removed = await me.post('/api/auth/update-settings', { ...settings, logo_url: '' });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toMatchObject({ logo_url: '', company_logo_url: null });
    expect(removed.json()).not.toHaveProperty('logo_job_id');
    expect((await job(me, second.jobId)).phase).toBe('cancelled');
    expect(await logoKeyOf(me.companyId)).toBeNull();
    expect((await me.get('/api/auth/settings')).json()).toMatchObject({ logo_url: '', company_logo_url: null });
  });

  it('keeps the logo when the settings read during its job are written back, and the intro card shows it', async () => {
    const me = await signedInCompany(t);
    await t.ctx.db.update(companies).set({ credits: 1 }).where(eq(companies.id, me.companyId));
    const tm = await completedTestimonial(t, me);
    expect((await me.post(`/api/testimonials/pay/${tm.id}`)).statusCode).toBe(200);

    const uploaded = await upload(me);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const { logo_url, jobId } = ZUploadLogoResponse.parse(uploaded.json());

    // Read at once, before the job ran: the upload shows, as in the upload's answer, with its job.
    const read = await me.get('/api/auth/settings');
    expect(read.statusCode, read.body).toBe(200);
    const settings = ZGetSettingsResponse.parse(read.json());
    expect((await job(me, jobId)).phase).toBe('queued');
    expect(settings).toMatchObject({ logo_job_id: jobId, company_logo_url: null, show_logo_in_videos: false });
    expect(unsigned(settings.logo_url)).toBe(unsigned(logo_url));

    // Written back whole, as read, with the logo shown in videos.
    const written = await me.post('/api/auth/update-settings', { ...settings, show_logo_in_videos: true });
    expect(written.statusCode, written.body).toBe(200);
    const writtenSettings = ZGetSettingsResponse.parse(written.json());
    expect(writtenSettings).toMatchObject({ logo_job_id: jobId, show_logo_in_videos: true });
    expect(unsigned(writtenSettings.logo_url)).toBe(unsigned(logo_url));
    expect((await job(me, jobId)).phase).toBe('queued');

    // The workers start: the logo job makes the upload the company's logo.
    await t.ctx.queue.work(jobRegistry(t.ctx), { concurrency: 1, pollIntervalMs: 100 });
    await expect.poll(async () => (await job(me, jobId)).phase, { timeout: 60_000, interval: 200 }).toBe('ready');
    expect(await logoKeyOf(me.companyId)).toBe(`companies/${me.companyId}/logo/${jobId}-1024.png`);
    const after = (await me.get('/api/auth/settings')).json();
    expect(after).toMatchObject({ logo_url: after.company_logo_url, show_logo_in_videos: true });
    expect(after.company_logo_url).toMatch(new RegExp(`^http://app\\.test/api/public/logo/${me.companyId}\\?v=`));
    expect(after).not.toHaveProperty('logo_job_id');

    // An intro: its card carries the logo.
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));
    await expect.poll(async () => (await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, response!.id)))[0]?.videoKey, { timeout: 60_000, interval: 300 }).toBeTruthy();
    const intro = await me.post(`/api/testimonials/response/${response!.id}/generate-modified/intro`, { language: 'en' });
    expect(intro.statusCode, intro.body).toBe(202);
    await expect.poll(async () => (await job(me, intro.json().jobId)).phase, { timeout: 90_000, interval: 300 }).toBe('ready');
    const detail = (await me.get(`/api/testimonials/request/${tm.id}?company_id=${me.companyId}`)).json().testimonial;
    const card = await grabFrame(fileOf(detail.testimonial_responses[0].modified_video_url), 1, 'logo-write-back-card');
    expect(await colourBox(card, isLogo)).not.toBeNull();
  }, 180_000);
});
