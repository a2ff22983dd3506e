import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, screenshot, watchErrors, type BrowserSession } from './support/browser.js';
import { recordTestimonial, signInInBrowser, signUpCompany, type Company } from './support/fixtures.js';
import { startServer, type RunningServer } from './support/server.js';

const run = promisify(execFile);

interface StyleSettings {
  font_size_question: number;
  font_color_question: string;
  font_style_question: string;
  font_bold_question: boolean;
  font_size_subtitle: number;
  font_style_subtitle: string;
  font_bold_subtitle: boolean;
  subtitle_border: boolean;
  background_color: string;
  show_logo_in_videos: boolean;
  logo_url: string;
  company_logo_url: string | null;
}

const statusIs = (page: Page, testId: string, text: string) =>
  page.waitForFunction(
    ([id, expected]) => document.querySelector(`[data-testid="${id}"]`)?.textContent?.includes(expected) ?? false,
    [testId, text] as const,
  );

/** The first line of the intro card preview, as drawn. */
async function previewLine(page: Page) {
  const line = page.locator('[data-testid="preview-question-line"]').first();
  return {
    family: await line.getAttribute('data-family'),
    fill: await line.getAttribute('fill'),
    size: await line.getAttribute('font-size'),
    weight: await line.getAttribute('font-weight'),
  };
}

/** Waits until the preview's fonts have arrived (the preview draws with the shipped files). */
async function fontsReady(page: Page, families: string[]) {
  await page.waitForFunction(
    (names) =>
      names.every((name) =>
        [...document.fonts].some((face) => face.family.replace(/"/g, '') === name && face.status === 'loaded'),
      ),
    families,
  );
}

/**
 * Settings: the account (name_exists, mail language), the video style with its live preview, the logo
 * (refused when not an image, then uploaded), all saved and still there after a reload and through
 * GET /api/auth/settings; screenshots at 375 and 1280 px in English and French.
 */
describe('settings', () => {
  let server: RunningServer;
  let browser: BrowserSession;
  let workDir: string;
  /** The company whose style and logo the first journey saves, used by the second. */
  let company: Company;

  beforeAll(async () => {
    server = await startServer();
    browser = await openBrowser({ locale: 'en-US' });
    workDir = await mkdtemp(path.join(os.tmpdir(), 'vouchreel-settings-'));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('saves the account and the video style, with a logo, and keeps them after a reload', async () => {
    const rival = await signUpCompany(server, { prefix: 'rival' });
    company = await signUpCompany(server, { prefix: 'settings' });
    // The onboarding tour would cover the page: this journey is about the settings.
    await company.api('PUT', '/api/user/complete-onboarding', {});
    const logo = path.join(workDir, 'logo.png');
    await run('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'color=c=red:s=200x80',
      '-frames:v',
      '1',
      logo,
    ]);

    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInInBrowser(page, server, company);
    await page.goto(`${server.url}/dashboard/settings`);

    // My account: the stored values, and Save only once something changed.
    await page.waitForSelector('[data-testid="settings-account-form"]');
    expect(await page.inputValue('[data-testid="company-name"]')).toBe(company.companyName);
    expect(await page.isChecked('[data-testid="mail-language-en"]')).toBe(true);
    expect(await page.isDisabled('[data-testid="account-save"]')).toBe(true);

    // Another company's name is refused (name_exists), next to the field.
    await page.fill('[data-testid="company-name"]', rival.companyName);
    await page.click('[data-testid="account-save"]');
    await page.waitForSelector('#settings-company_name-error');
    expect(await page.textContent('#settings-company_name-error')).toBe(
      'A company with this name already exists. Please choose another name.',
    );

    // A free name and French e-mails.
    const newName = `Lumen Films ${Date.now()}`;
    await page.fill('[data-testid="company-name"]', newName);
    expect(await page.locator('#settings-company_name-error').count()).toBe(0);
    await page.check('[data-testid="mail-language-fr"]');
    await page.click('[data-testid="account-save"]');
    await statusIs(page, 'account-save-status', 'All changes saved');
    expect(await page.isDisabled('[data-testid="account-save"]')).toBe(true);
    // The signed-in user follows, so the name is right wherever the dashboard shows it.
    const stored = await page.evaluate(() => sessionStorage.getItem('user') ?? localStorage.getItem('user'));
    expect(JSON.parse(stored ?? '{}')).toMatchObject({
      company: { name: newName },
      mail_language: 'fr',
    });
    await screenshot(page, 'settings-account-en-1280', { fullPage: false });

    // Video personalisation: the defaults first (the 'ink' theme, picked).
    await page.click('[data-testid="settings-tab-video"]');
    await page.waitForSelector('[data-testid="settings-video-form"]');
    expect(page.url()).toContain('tab=video');
    expect(await page.isChecked('[data-testid="theme-ink-input"]')).toBe(true);
    expect(await previewLine(page)).toEqual({
      family: 'Fira Sans',
      fill: '#ffffff',
      size: '40',
      weight: '700',
    });
    expect(await page.isDisabled('[data-testid="style-save"]')).toBe(true);

    // The question's font, colour, size and bold, seen at once in the preview.
    await page.selectOption('[data-testid="question-font"]', 'Georgia');
    await page.fill('[data-testid="question-color"]', 'FFCC00');
    await page.locator('[data-testid="question-color"]').blur();
    expect(await page.inputValue('[data-testid="question-color"]')).toBe('#ffcc00');
    await page.fill('[data-testid="question-size"]', '80');
    await page.locator('[data-testid="question-size"]').blur();
    expect(await page.textContent('#settings-font_size_question-error')).toBe('Size must be between 12 and 72');
    await page.fill('[data-testid="question-size"]', '48');
    expect(await page.locator('#settings-font_size_question-error').count()).toBe(0);
    // Bold is on already (the default theme's question is bold).
    expect(await page.getAttribute('[data-testid="question-bold"]', 'aria-checked')).toBe('true');
    expect(await previewLine(page)).toEqual({
      family: 'Gelasio',
      fill: '#ffcc00',
      size: '48',
      weight: '700',
    });
    await page.fill('[data-testid="background-color"]', '#1e3a8a');
    expect(await page.getAttribute('[data-testid="preview-intro"] rect', 'fill')).toBe('#1e3a8a');

    // Subtitles: bigger and regular; without the outline the preview draws libass's shadow alone.
    await page.fill('[data-testid="subtitle-size"]', '40');
    await page.click('[data-testid="subtitle-bold"]');
    await page.click('[data-testid="subtitle-border"]');
    expect(await page.getAttribute('[data-testid="preview-subtitle"]', 'data-border')).toBe('off');
    expect(await page.getAttribute('[data-testid="preview-subtitle-line"]', 'stroke')).toBeNull();
    await page.click('[data-testid="subtitle-border"]');
    expect(await page.getAttribute('[data-testid="preview-subtitle"]', 'data-border')).toBe('on');
    expect(await page.getAttribute('[data-testid="preview-subtitle-line"]', 'stroke')).toBe('#000000');
    expect(await page.getAttribute('[data-testid="preview-subtitle-line"]', 'font-weight')).toBe('400');
    // A style of its own: no theme is picked any more.
    expect(await page.locator('[data-testid="theme-picker"] input:checked').count()).toBe(0);
    expect(await page.isEnabled('[data-testid="style-save"]')).toBe(true);
    await statusIs(page, 'style-save-status', 'Unsaved changes');

    // A file that is not an image never leaves the browser.
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/auth/upload-logo')) uploads.push(request.method());
    });
    await page.setInputFiles('[data-testid="logo-input"]', {
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not a picture'),
    });
    await page.waitForSelector('[data-testid="logo-error"]');
    expect(await page.textContent('[data-testid="logo-error"]')).toBe('Please select an image file');
    expect(uploads).toEqual([]);

    // The PNG is uploaded at once and shown while a worker prepares it (its logo job), then the stored
    // logo replaces it; the switch puts it on the card.
    await page.setInputFiles('[data-testid="logo-input"]', logo);
    await page.waitForSelector('[data-testid="logo-current"][src*="/api/public/logo/"]:not([data-preparing])');
    expect(await page.locator('[data-testid="logo-job"]').count()).toBe(0);
    expect(uploads).toEqual(['POST']);
    expect(await page.locator('[data-testid="logo-error"]').count()).toBe(0);
    const logoUrl = (await page.getAttribute('[data-testid="logo-current"]', 'src')) ?? '';
    expect(logoUrl).toContain('/api/public/logo/');
    // A logo is uploaded to be seen (issue 27): the switch turned on with it, and the card shows it.
    expect(await page.getAttribute('[data-testid="show-logo-switch"]', 'aria-checked')).toBe('true');
    await page.waitForSelector('[data-testid="preview-logo"]');
    expect(await page.getAttribute('[data-testid="preview-logo"]', 'href')).toBe(logoUrl);
    expect(await page.evaluate(async (src) => (await fetch(src)).headers.get('content-type'), logoUrl)).toBe(
      'image/png',
    );

    await fontsReady(page, ['Gelasio', 'Fira Sans']);
    await page.click('[data-testid="style-save"]');
    await statusIs(page, 'style-save-status', 'All changes saved');
    expect(await page.isDisabled('[data-testid="style-save"]')).toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'settings-video-en-1280', { fullPage: false });
    await page.locator('[data-testid="logo-dropzone"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-video-logo-en-1280', { fullPage: false });

    // What the server now holds.
    const saved = await company.api<StyleSettings>('GET', '/api/auth/settings');
    expect(saved).toMatchObject({
      font_style_question: 'Georgia',
      font_color_question: '#ffcc00',
      font_size_question: 48,
      font_bold_question: true,
      font_size_subtitle: 40,
      font_style_subtitle: 'Trebuchet MS',
      font_bold_subtitle: false,
      subtitle_border: true,
      background_color: '#1e3a8a',
      show_logo_in_videos: true,
    });
    expect(saved.company_logo_url).toBe(logoUrl);
    expect(saved.logo_url).toBe(logoUrl);
    const profile = await company.api<{
      user: { company: { name: string }; mail_language: string };
    }>('GET', '/api/user/profile');
    expect(profile.user).toMatchObject({
      company: { name: newName },
      mail_language: 'fr',
    });

    // After a reload, the page shows the same values (the tab too).
    await page.reload();
    await page.waitForSelector('[data-testid="settings-video-form"]');
    expect(await page.inputValue('[data-testid="question-font"]')).toBe('Georgia');
    expect(await page.inputValue('[data-testid="question-color"]')).toBe('#ffcc00');
    expect(await page.inputValue('[data-testid="question-size"]')).toBe('48');
    expect(await page.getAttribute('[data-testid="question-bold"]', 'aria-checked')).toBe('true');
    expect(await page.getAttribute('[data-testid="subtitle-bold"]', 'aria-checked')).toBe('false');
    expect(await page.inputValue('[data-testid="subtitle-size"]')).toBe('40');
    expect(await page.getAttribute('[data-testid="show-logo-switch"]', 'aria-checked')).toBe('true');
    expect(await page.getAttribute('[data-testid="logo-current"]', 'src')).toBe(logoUrl);
    expect(await page.getAttribute('[data-testid="preview-logo"]', 'href')).toBe(logoUrl);
    expect(await previewLine(page)).toEqual({
      family: 'Gelasio',
      fill: '#ffcc00',
      size: '48',
      weight: '700',
    });
    await page.click('[data-testid="settings-tab-account"]');
    expect(await page.inputValue('[data-testid="company-name"]')).toBe(newName);
    expect(await page.isChecked('[data-testid="mail-language-fr"]')).toBe(true);

    // Reset to defaults asks first, changes the form only, and can be discarded.
    await page.click('[data-testid="settings-tab-video"]');
    await page.click('[data-testid="style-reset"]');
    await page.waitForSelector('[data-testid="style-reset-dialog"]');
    await page.click('[data-testid="confirm-dialog-confirm"]');
    expect(await previewLine(page)).toEqual({
      family: 'Fira Sans',
      fill: '#ffffff',
      size: '40',
      weight: '700',
    });
    expect(await page.getAttribute('[data-testid="show-logo-switch"]', 'aria-checked')).toBe('false');
    expect(await page.getAttribute('[data-testid="logo-current"]', 'src')).toBe(logoUrl);
    // Leaving with unsaved changes asks first; staying keeps them.
    await page.click('[data-testid="nav-overview"]');
    await page.waitForSelector('[data-testid="settings-leave-dialog"]');
    await page.click('[data-testid="settings-leave-dialog"] [data-testid="confirm-dialog-cancel"]');
    expect(new URL(page.url()).pathname).toBe('/dashboard/settings');
    expect(await previewLine(page)).toEqual({
      family: 'Fira Sans',
      fill: '#ffffff',
      size: '40',
      weight: '700',
    });
    await page.click('[data-testid="style-discard"]');
    expect(await previewLine(page)).toEqual({
      family: 'Gelasio',
      fill: '#ffcc00',
      size: '48',
      weight: '700',
    });
    expect(await page.isDisabled('[data-testid="style-save"]')).toBe(true);

    // Phone width, English.
    await page.setViewportSize({ width: 375, height: 812 });
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, 'settings-video-en-375', { fullPage: false });
    await page.locator('[data-testid="question-color"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-video-fields-en-375', { fullPage: false });

    // French, both widths.
    await browser.context.addCookies([{ name: 'i18next', value: 'fr', url: server.url }]);
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'fr'));
    await page.reload();
    await page.waitForSelector('[data-testid="settings-video-form"]');
    await fontsReady(page, ['Gelasio', 'Fira Sans']);
    expect(await page.textContent('[data-testid="settings-tab-video"]')).toContain('Personnalisation des vidéos');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, 'settings-video-fr-375', { fullPage: false });
    await page.locator('[data-testid="logo-dropzone"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-video-logo-fr-375', { fullPage: false });
    // Unsaved changes on a phone: the bar keeps Save and Discard in reach.
    // Scrolled to the middle of the screen: the sticky preview keeps the top of it.
    await page.locator('[data-testid="subtitle-border"]').evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await page.click('[data-testid="subtitle-border"]');
    await statusIs(page, 'style-save-status', 'Modifications non enregistrées');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, 'settings-video-unsaved-fr-375', {
      fullPage: false,
    });
    await page.click('[data-testid="style-discard"]');
    await statusIs(page, 'style-save-status', 'Tout est enregistré');
    await page.click('[data-testid="settings-tab-account"]');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'settings-account-fr-375', { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, 'settings-account-fr-1280', { fullPage: false });
    await page.click('[data-testid="settings-tab-video"]');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'settings-video-fr-1280', { fullPage: false });

    // The only error the browser reported is the refused name (409, shown to the person above).
    expect(errors.filter((e) => !e.includes('status of 409'))).toEqual([]);
  });
  it('puts the saved question style, background and logo into a generated intro, which plays', { timeout: 180_000 }, async () => {
    expect(company, 'the first journey saved a style').toBeDefined();
    const recorded = await recordTestimonial(server, company, { questions: ['What changed for your team?'], clips: [{ seconds: 2, tone: 520 }] });
    await company.api('POST', `/api/testimonials/pay/${recorded.id}`, {});
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInInBrowser(page, server, company);
    await page.goto(`${server.url}/dashboard/testimonials/${recorded.id}`);
    const card = page.locator('[data-testid="response-card"]').first();
    await card.locator('[data-testid="action-intro"]:not([disabled])').waitFor();
    await card.locator('[data-testid="action-intro"]').click();
    await page.click('[data-testid="confirm-action"]');
    await page.waitForSelector('[data-testid="success-banner"]', { timeout: 150_000 });
    expect(await card.getAttribute('data-has-modified')).toBe('true');

    // It plays in the page…
    const video = card.locator('[data-testid="answer-video"]');
    await video.evaluate((element: HTMLVideoElement) => {
      element.muted = true;
      return element.play();
    });
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 15_000 }).toBeGreaterThan(0.3);

    // …and its card, one second in, is drawn in the saved style: background, logo, question colour.
    const { testimonial } = await company.api<{ testimonial: { testimonial_responses: { modified_video_url: string | null }[] } }>(
      'GET',
      `/api/testimonials/request/${recorded.id}?company_id=${company.companyId}`,
    );
    const url = new URL(testimonial.testimonial_responses[0]!.modified_video_url!, server.url).toString();
    const file = path.join(workDir, 'intro.mp4');
    const res = await fetch(url);
    expect(res.status).toBe(200);
    await writeFile(file, Buffer.from(await res.arrayBuffer()));
    const { stdout: size } = await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', file]);
    const [width, height] = size.trim().split(',').map(Number) as [number, number];
    const { stdout: frame } = await run('ffmpeg', ['-v', 'error', '-ss', '1', '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], {
      encoding: 'buffer',
      maxBuffer: 64 * 1024 * 1024,
    });
    const pixel = (x: number, y: number) => {
      const i = (Math.round(y) * width + Math.round(x)) * 3;
      return [frame[i]!, frame[i + 1]!, frame[i + 2]!] as const;
    };
    const near = (p: readonly number[], hex: string, tolerance = 40) =>
      [1, 3, 5].every((o, k) => Math.abs(p[k]! - parseInt(hex.slice(o, o + 2), 16)) <= tolerance);
    expect(near(pixel(4, height - 4), '#1e3a8a'), `corner ${pixel(4, height - 4).join(',')}`).toBe(true);
    // The logo sits at the top, centred (red in this test).
    expect(near(pixel(width / 2, height * 0.14), '#ff0000', 60), `logo ${pixel(width / 2, height * 0.14).join(',')}`).toBe(true);
    let questionPixels = 0;
    for (let y = Math.round(height * 0.3); y < height * 0.8; y += 1) {
      for (let x = 0; x < width; x += 1) if (near(pixel(x, y), '#ffcc00', 50)) questionPixels += 1;
    }
    expect(questionPixels, 'pixels in the question colour').toBeGreaterThan(300);
    expect(errors).toEqual([]);
    await page.close();
  });
});
