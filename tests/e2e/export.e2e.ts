import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grabFrame, matchReading, readWords } from '../../src/server/test/ocr.js';
import { openBrowser, screenshot, watchErrors, type BrowserSession } from './support/browser.js';
import { recordTestimonial, signInInBrowser, signUpCompany, type Company } from './support/fixtures.js';
import { startServer, type RunningServer } from './support/server.js';

const run = promisify(execFile);

interface Detail {
  testimonial: {
    testimonial_responses: { id: string; modified_video_url: string | null; render_state?: { output?: string; phase: string; error: string | null } | null }[];
  } | null;
}

async function cropValues(page: Page) {
  const read = async (field: string) => Number(await page.inputValue(`[data-testid="crop-${field}"]`));
  return { x: await read('x'), y: await read('y'), width: await read('width'), height: await read('height') };
}

/** Waits until the smart crop's proposal is known (found or none): the first area is then final. */
async function focusSettled(page: Page) {
  await page.waitForSelector('[data-crop-focus]:not([data-crop-focus="pending"])', { timeout: 30_000 });
}

/** Opens the export dialog from the answer's card and goes to the crop step with the original. */
async function openCropStep(page: Page) {
  const card = page.locator('[data-testid="response-card"]').first();
  await card.locator('[data-testid="action-export"]:enabled').click();
  await page.waitForSelector('[data-testid="export-dialog"]');
  await page.click('[data-testid="export-choice-original"]');
  await page.click('[data-testid="export-next"]');
}

/**
 * The export modal from the testimonial detail (issue 7): an answer with an enhanced version, step 1
 * picks the original, step 2 crops a 640×360 frame to 9:16 (starting at 202×360 around the motion), the area
 * moves with the keyboard, the export renders a real 1080×1920 MP4 and the detail page receives it
 * with export=ready&exportUrl=….
 */
describe('export modal', () => {
  let server: RunningServer;
  let browser: BrowserSession;
  let company: Company;
  let testimonialId = '';

  beforeAll(async () => {
    server = await startServer();
    browser = await openBrowser({ locale: 'en-US' });
    company = await signUpCompany(server, { prefix: 'export' });
    const recorded = await recordTestimonial(server, company, { customerName: 'Grace Hopper', clips: [{ seconds: 3, tone: 440 }] });
    testimonialId = recorded.id;
    await company.api('POST', `/api/testimonials/pay/${testimonialId}`, {});
    // No onboarding tour over the dialog.
    await company.api('PUT', '/api/user/complete-onboarding', {});

    // The detail page offers the export once an enhanced version exists (§4): render the intro first.
    const detailPath = `/api/testimonials/request/${testimonialId}?company_id=${company.companyId}`;
    const first = await company.api<Detail>('GET', detailPath);
    const responseId = first.testimonial!.testimonial_responses[0]!.id;
    // The answer is transcoded first ('still being prepared' until then).
    for (let i = 0; ; i++) {
      try {
        await company.api('POST', `/api/testimonials/response/${responseId}/generate-modified/intro`, { language: 'en' });
        break;
      } catch (error) {
        if (i > 120 || !String(error).includes('409')) throw error;
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
    for (let i = 0; ; i++) {
      const detail = await company.api<Detail>('GET', detailPath);
      const response = detail.testimonial!.testimonial_responses[0]!;
      if (response.modified_video_url && response.render_state?.phase === 'ready') break;
      if (response.render_state?.phase === 'failed') throw new Error(`intro failed: ${response.render_state.error}`);
      if (i > 240) throw new Error('intro not ready after 120 s');
      await new Promise((r) => setTimeout(r, 500));
    }
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('crops a frame to 9:16 and exports a 1080×1920 MP4', async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await signInInBrowser(page, server, company);
    await page.goto(`${server.url}/dashboard/testimonials/${testimonialId}`);

    // English, 1280 px: step 1, then the crop step with the maximal centred 9:16 area.
    await page.locator('[data-testid="response-card"] [data-testid="action-export"]:enabled').first().waitFor();
    await page.locator('[data-testid="response-card"] [data-testid="action-export"]').first().click();
    await page.waitForSelector('[data-testid="export-choice-modified"][data-checked]');
    await screenshot(page, 'export-version-en-1280', { fullPage: false });
    await page.click('[data-testid="export-choice-original"]');
    await page.click('[data-testid="export-next"]');
    await page.waitForSelector('[data-testid="crop-area"]');
    await focusSettled(page);

    // The smart crop (issue 31): the largest 9:16 area, centred on where the test pattern moves most
    // (its moving parts weigh left of centre: x ≈ 0.37 of the frame), not on the frame's centre.
    expect(await page.getAttribute('[data-crop-focus]', 'data-crop-focus')).toBe('found');
    const start = await cropValues(page);
    expect(start.height).toBe(360);
    expect([202, 204]).toContain(start.width);
    expect(start.y).toBe(0);
    expect(Math.abs(start.x + start.width / 2 - 0.37 * 640)).toBeLessThanOrEqual(8);
    expect(await page.isVisible('[data-testid="export-also-square"]')).toBe(true);
    expect(await page.textContent('[data-testid="crop-output"]')).toContain('1080 × 1920');
    expect(await page.textContent('[data-testid="export-platform-shorts"]')).toContain('Shorts / Stories');
    await screenshot(page, 'export-crop-en-1280', { fullPage: false });

    // The LinkedIn format fills a 16:9 source completely; back to Shorts restores the centred area.
    await page.click('[data-testid="export-platform-linkedin"]');
    expect(await cropValues(page)).toEqual({ x: 0, y: 0, width: 640, height: 360 });
    expect(await page.textContent('[data-testid="crop-output"]')).toContain('1920 × 1080');
    await page.click('[data-testid="export-platform-shorts"]');
    expect(await cropValues(page)).toEqual(start);

    // The pointer moves the area and resizes it from a corner with the ratio kept.
    const box = (await page.locator('[data-testid="crop-area"]').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2 + 40, { steps: 5 });
    await page.mouse.up();
    const dragged = await cropValues(page);
    expect(dragged.x).toBeGreaterThan(start.x + 40);
    expect({ y: dragged.y, width: dragged.width, height: dragged.height }).toEqual({ y: 0, width: start.width, height: start.height });
    const handle = (await page.locator('[data-testid="crop-handle-se"]').boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle.x + handle.width / 2 - 40, handle.y + handle.height / 2 - 100, { steps: 5 });
    await page.mouse.up();
    const resized = await cropValues(page);
    expect(resized.height).toBeLessThan(360);
    expect(resized.height).toBeGreaterThan(200);
    expect({ x: resized.x, y: resized.y }).toEqual({ x: dragged.x, y: 0 });
    expect(Math.abs(resized.width - resized.height * (9 / 16))).toBeLessThanOrEqual(2);
    // Typed values are applied in source pixels and clamped to the frame.
    await page.fill('[data-testid="crop-x"]', '5000');
    await page.press('[data-testid="crop-x"]', 'Enter');
    expect((await cropValues(page)).x).toBe(640 - resized.width);
    await page.click('[data-testid="crop-reset"]');
    expect(await cropValues(page)).toEqual(start);

    // Phone width: the preview fits the dialog.
    await page.setViewportSize({ width: 375, height: 812 });
    await page.waitForFunction(() => {
      const stage = document.querySelector('[data-testid="crop-stage"]');
      return stage !== null && stage.getBoundingClientRect().right <= window.innerWidth;
    });
    const stage = await page.locator('[data-testid="crop-stage"]').boundingBox();
    expect(stage!.width).toBeLessThanOrEqual(375 - 32);
    await screenshot(page, 'export-crop-en-375', { fullPage: false });

    // French, both widths.
    await browser.context.addCookies([{ name: 'i18next', value: 'fr', url: server.url }]);
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'fr'));
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.reload();

    // A video that cannot be read: the metadata error, then a retry that works.
    await page.route('**/files/**', (route) => route.abort('failed'));
    await openCropStep(page);
    await page.waitForSelector('[data-testid="crop-frame-error"]');
    expect(await page.textContent('[data-testid="crop-frame-error"]')).toContain('Impossible de lire les métadonnées de la vidéo');
    await page.unroute('**/files/**');
    await page.click('[data-testid="crop-frame-error"] button');
    await page.waitForSelector('[data-testid="crop-area"]');
    await focusSettled(page);
    expect(await cropValues(page)).toEqual(start);
    errors.length = 0; // the refused loads and their logged failure were expected
    // Afresh, so that the page's own players did not meet the refused loads either.
    await page.reload();
    await openCropStep(page);
    await page.waitForSelector('[data-testid="crop-area"]');
    await focusSettled(page);

    expect(await page.textContent('[data-testid="export-dialog"]')).toContain('Zone de recadrage');
    await screenshot(page, 'export-crop-fr-1280', { fullPage: false });
    await page.setViewportSize({ width: 375, height: 812 });
    await screenshot(page, 'export-crop-fr-375', { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 800 });

    // A crop refused by the server shows the server's word on the field; any other failure the
    // message of §8; both leave the dialog open for another try.
    const refusal = 'cropArea.width: The crop area must fit inside the frame (x + width must not exceed 1).';
    await page.route('**/export-v2', (route) =>
      route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: refusal, code: 'invalid_data', field: 'cropArea.width' }) }),
    );
    await page.click('[data-testid="export-start"]');
    await page.waitForSelector('[data-testid="export-error"]');
    expect(await page.textContent('[data-testid="export-error"]')).toContain(refusal);
    await page.unroute('**/export-v2');
    await page.route('**/export-v2', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'Internal error', code: 'server_error' }) }),
    );
    await page.click('[data-testid="export-start"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="export-error"]')?.textContent?.includes('Impossible de lancer'));
    expect(await page.textContent('[data-testid="export-error"]')).toBe('Impossible de lancer l’export. Veuillez réessayer.');
    await page.unroute('**/export-v2');
    expect(await page.locator('[data-testid="crop-area"]').isVisible()).toBe(true);
    errors.length = 0; // the two refused calls were expected

    // The keyboard moves the area (arrows) and resizes it (Shift + arrows), the fields follow.
    await page.focus('[data-testid="crop-area"]');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
    const moved = await cropValues(page);
    expect(moved.x).toBe(start.x - 18);
    expect(moved.width).toBe(start.width);
    await page.keyboard.press('Shift+ArrowDown');
    const smaller = await cropValues(page);
    expect(smaller.height).toBeLessThan(360);
    await page.keyboard.press('Shift+ArrowUp');
    expect((await cropValues(page)).height).toBe(360);
    for (let i = 0; i < 200; i++) await page.keyboard.press('ArrowLeft');
    expect((await cropValues(page)).x).toBe(0);
    await page.keyboard.press('ArrowRight');
    const chosen = await cropValues(page);
    expect(chosen).toMatchObject({ x: 6, y: 0, height: 360 });

    // Export: the progress shows, the dialog stays open, then the detail page gets the address.
    await page.click('[data-testid="export-start"]');
    await page.waitForSelector('[data-testid="export-progress"]');
    await screenshot(page, 'export-progress-fr-1280', { fullPage: false, settle: false });
    expect(await page.locator('[data-testid="export-dialog"]').isVisible()).toBe(true);
    await page.waitForURL(/export=ready&exportUrl=/, { timeout: 150_000 });
    expect(await page.locator('[data-testid="export-dialog"]').count()).toBe(0);
    const url = new URL(page.url());
    expect(url.pathname).toBe(`/dashboard/testimonials/${testimonialId}`);
    const exportUrl = url.searchParams.get('exportUrl');
    expect(exportUrl).toBeTruthy();
    expect(page.url()).toContain(`exportUrl=${encodeURIComponent(exportUrl!)}`);

    const res = await fetch(new URL(exportUrl!, server.url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('video/mp4');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vouchreel-export-'));
    try {
      const file = path.join(dir, 'export.mp4');
      await writeFile(file, Buffer.from(await res.arrayBuffer()));
      const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', file]);
      expect(stdout.trim()).toBe('1080,1920');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    await screenshot(page, 'export-ready-fr-1280', { fullPage: false });

    // The export is stored with the answer (short_video_url_original) and the detail still reads.
    const after = await company.api<{ testimonial: { testimonial_responses: { short_video_url_original: string | null }[] } }>(
      'GET',
      `/api/testimonials/request/${testimonialId}?company_id=${company.companyId}`,
    );
    expect(after.testimonial.testimonial_responses[0]!.short_video_url_original).toContain(new URL(exportUrl!, server.url).pathname);
    expect(errors).toEqual([]);
  }, 420_000);

  it('exports the enhanced version to 9:16: the crop is placed on the answer, the card is laid out anew for the vertical frame', async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await browser.context.addCookies([{ name: 'i18next', value: 'en', url: server.url }]);
    await page.addInitScript(() => localStorage.setItem('i18nextLng', 'en'));
    await page.setViewportSize({ width: 1280, height: 800 });
    await signInInBrowser(page, server, company);
    await page.goto(`${server.url}/dashboard/testimonials/${testimonialId}`);
    await page.locator('[data-testid="response-card"] [data-testid="action-export"]:enabled').first().click();
    await page.waitForSelector('[data-testid="export-choice-modified"][data-checked]');
    await page.click('[data-testid="export-next"]');
    await page.waitForSelector('[data-testid="crop-area"]');

    // The frame under the crop is the answer itself (a colourful test pattern), not the dark, flat card
    // that opens the enhanced version: count the colours of the drawn frame.
    const colours = await page.evaluate(() => {
      const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="crop-stage"] canvas');
      if (!canvas) return 0;
      const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
      const seen = new Set<number>();
      for (let i = 0; i < data.length; i += 4 * 7) seen.add(((data[i]! >> 4) << 8) | ((data[i + 1]! >> 4) << 4) | (data[i + 2]! >> 4));
      return seen.size;
    });
    expect(colours).toBeGreaterThan(40);
    await screenshot(page, 'export-crop-enhanced-en-1280', { fullPage: false });

    await page.click('[data-testid="export-start"]');
    await page.waitForURL(/export=ready&exportUrl=/, { timeout: 150_000 });
    const exportUrl = new URL(page.url()).searchParams.get('exportUrl')!;
    const res = await fetch(new URL(exportUrl, server.url));
    expect(res.status).toBe(200);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vouchreel-export-enhanced-'));
    try {
      const file = path.join(dir, 'export.mp4');
      await writeFile(file, Buffer.from(await res.arrayBuffer()));
      const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', file]);
      expect(stdout.trim()).toBe('1080,1920');
      // The card, laid out for 1080 × 1920: the whole question reads, wrapped for the narrow frame.
      const words = await readWords(await grabFrame(file, 1.5, 'e2e-export-card'));
      const reading = matchReading('What did you like most about working with us?', words.map((w) => w.text).join(' '));
      expect(reading.ratio).toBeGreaterThanOrEqual(0.9);
      expect(reading.tailFound).toBe(true);
      const lines = new Set(words.map((w) => Math.round(w.box.y / 40)));
      expect(lines.size).toBeGreaterThan(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }

    // A 16:9 export of the original, after its 9:16 export (the first test's): each format keeps its
    // own entry (decision 161). The original is only cropped and scaled: a few seconds of ffmpeg.
    await page.goto(`${server.url}/dashboard/testimonials/${testimonialId}`);
    await openCropStep(page);
    await page.waitForSelector('[data-testid="crop-area"]');
    await page.click('[data-testid="export-platform-linkedin"]');
    expect(await page.textContent('[data-testid="crop-output"]')).toContain('1920 × 1080');
    // With the 1:1 square made in the same run (issue 31): one decode, two exports.
    await page.click('[data-testid="export-also-square"]');
    await page.click('[data-testid="export-start"]');
    await page.waitForURL(/export=ready&exportUrl=/, { timeout: 150_000 });

    // The three exports are stored on the answer's card (decisions 149, 161): the 9:16 of each version
    // and the 16:9 of the original, each with its download named after the customer, the question and
    // the format, and its Publish, in English and in French, on a desktop and a phone.
    await page.goto(`${server.url}/dashboard/testimonials/${testimonialId}`);
    const list = page.locator('[data-testid="response-card"]').first().locator('[data-testid="export-list"]');
    const rows = list.locator('li');
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(4);
    expect(await rows.evaluateAll((items) => items.map((li) => li.getAttribute('data-testid')))).toEqual([
      'export-shorts-modified',
      'export-shorts-original',
      'export-linkedin-original',
      'export-square-original',
    ]);
    const row = (id: string) => list.locator(`[data-testid="${id}"]`);
    expect(await row('export-shorts-original').textContent()).toContain('Shorts / Stories (9:16)');
    expect(await row('export-linkedin-original').textContent()).toContain('LinkedIn (16:9)');
    const names = {
      'export-shorts-modified': 'grace-hopper-q1-9x16.mp4',
      'export-shorts-original': 'grace-hopper-q1-9x16-original.mp4',
      'export-linkedin-original': 'grace-hopper-q1-16x9-original.mp4',
      'export-square-original': 'grace-hopper-q1-1x1-original.mp4',
    };
    for (const [id, name] of Object.entries(names)) {
      expect(await row(id).locator('[data-testid="export-file-name"]').textContent()).toBe(name);
      expect(await row(id).locator('[data-testid="export-download"]').getAttribute('download')).toBe(name);
    }
    // The download is the 16:9 file itself, served as an attachment under its name.
    const landscape = await fetch(new URL((await row('export-linkedin-original').locator('[data-testid="export-download"]').getAttribute('href'))!, server.url));
    expect(landscape.status).toBe(200);
    expect(landscape.headers.get('content-disposition')).toContain('grace-hopper-q1-16x9-original.mp4');
    const dir2 = await mkdtemp(path.join(os.tmpdir(), 'vouchreel-export-landscape-'));
    try {
      const file = path.join(dir2, 'export.mp4');
      await writeFile(file, Buffer.from(await landscape.arrayBuffer()));
      const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', file]);
      expect(stdout.trim()).toBe('1920,1080');
    } finally {
      await rm(dir2, { recursive: true, force: true });
    }
    await page.locator('[data-testid="export-publish"]:enabled').first().waitFor();
    await page.locator('[data-testid="export-list"]').first().scrollIntoViewIfNeeded();
    await screenshot(page, 'export-stored-en-1280', { fullPage: false });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.locator('[data-testid="export-list"]').first().scrollIntoViewIfNeeded();
    await screenshot(page, 'export-stored-en-375', { fullPage: false });
    // French in a page of its own (this one keeps English at every load).
    await browser.context.addCookies([{ name: 'i18next', value: 'fr', url: server.url }]);
    const fr = await browser.context.newPage();
    const frErrors = watchErrors(fr);
    await fr.addInitScript(() => localStorage.setItem('i18nextLng', 'fr'));
    await fr.setViewportSize({ width: 375, height: 812 });
    await signInInBrowser(fr, server, company);
    await fr.goto(`${server.url}/dashboard/testimonials/${testimonialId}`);
    await fr.locator('[data-testid="export-publish"]:enabled').first().waitFor();
    expect(await fr.locator('[data-testid="export-list"]').first().textContent()).toContain('Exports');
    expect(await fr.locator('[data-testid="export-list"] li').count()).toBe(4);
    expect(await fr.locator('[data-testid="export-linkedin-original"]').first().textContent()).toContain('Originale');
    expect(await fr.locator('[data-testid="export-publish"]').first().textContent()).toMatch(/Publier/);
    await fr.locator('[data-testid="export-list"]').first().scrollIntoViewIfNeeded();
    await screenshot(fr, 'export-stored-fr-375', { fullPage: false });
    await fr.setViewportSize({ width: 1280, height: 800 });
    await fr.locator('[data-testid="export-list"]').first().scrollIntoViewIfNeeded();
    await screenshot(fr, 'export-stored-fr-1280', { fullPage: false });
    expect(errors).toEqual([]);
    expect(frErrors).toEqual([]);
  }, 300_000);
});
