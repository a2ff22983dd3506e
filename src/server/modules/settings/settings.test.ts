import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_VIDEO_STYLE } from '../../../contract/constants.js';
import { probe } from '../../media/ffmpeg.js';
import { signedInCompany } from '../../test/accounts.js';
import { multipart } from '../../test/clips.js';
import { createTestApp, type TestApp } from '../../test/harness.js';

describe('settings, profile and logo', () => {
  let t: TestApp;
  let png: Buffer;
  beforeAll(async () => {
    t = await createTestApp();
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
    expect(initial).toEqual({ ...DEFAULT_VIDEO_STYLE, company_logo_url: null });
    const next = { ...DEFAULT_VIDEO_STYLE, font_size_question: 48, font_color_question: '#FFCC00', font_style_question: 'Georgia', background_color: '#102030', show_logo_in_videos: true };
    const saved = await me.post('/api/auth/update-settings', next);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ font_size_question: 48, font_color_question: '#ffcc00', font_style_question: 'Georgia', background_color: '#102030' });
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

  it('stores an uploaded logo, serves it publicly, uses it in settings, and refuses non-images and big files', async () => {
    const me = await signedInCompany(t);
    const res = await upload(me, png);
    expect(res.statusCode, res.body).toBe(200);
    const { logo_url } = res.json();
    expect(logo_url).toMatch(new RegExp(`^http://app\\.test/api/public/logo/${me.companyId}\\?v=`));
    const served = await t.app.inject({ method: 'GET', url: logo_url.replace('http://app.test', '') });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    // What is stored and served is the normalised copy: a PNG of the same size (at most 1024 px), not the upload's bytes.
    const servedFile = path.join(os.tmpdir(), `vr-logo-served-${process.pid}.png`);
    await writeFile(servedFile, served.rawPayload);
    expect((await probe(servedFile)).video).toMatchObject({ codec: 'png', width: 120, height: 60 });
    expect((await me.get('/api/auth/settings')).json().company_logo_url).toBe(logo_url);

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
