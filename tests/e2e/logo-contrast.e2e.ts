import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, screenshot, watchErrors, type BrowserSession } from './support/browser.js';
import { signInInBrowser, signUpCompany, waitForMailLink, type Company } from './support/fixtures.js';
import { startServer, type RunningServer } from './support/server.js';

const run = promisify(execFile);

/**
 * Logos that read (issue 27, item 7; decision 172), in Chromium: a dark wide logo uploaded on the dark
 * default card makes the preview warn that it is hard to see and put it on a light plate (a switch the
 * company can turn off); the customer's recording page shows the wide logo at its own shape, not
 * squeezed into a square. Screenshots at 375 and 1280 px in English and French.
 */
describe('logos that read', () => {
  let server: RunningServer;
  let browser: BrowserSession;
  let workDir: string;
  let company: Company;
  let questionId: string;

  beforeAll(async () => {
    server = await startServer();
    browser = await openBrowser({ locale: 'en-US' });
    workDir = await mkdtemp(path.join(os.tmpdir(), 'vouchreel-logo-'));
    company = await signUpCompany(server, { prefix: 'logo' });
    await company.api('PUT', '/api/user/complete-onboarding', {});
    questionId = (await company.api<{ id: string }>('POST', '/api/questions/add', { company_id: company.companyId, text: 'What did you like most?', order_position: 1 })).id;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  /** The settings' logo notice in view, then a screenshot at each width. */
  async function shootSettings(page: Page, lang: 'en' | 'fr') {
    for (const width of [1280, 375]) {
      await page.setViewportSize(width === 1280 ? { width: 1280, height: 900 } : { width: 375, height: 812 });
      await page.locator('[data-testid="logo-contrast"]').scrollIntoViewIfNeeded();
      await screenshot(page, `logo-contrast-settings-${lang}-${width}`, { fullPage: false });
    }
  }

  /** The recording page's logo: its drawn box and the picture's own aspect. */
  const logoShape = (page: Page) =>
    page.evaluate(() => {
      const img = document.querySelector<HTMLImageElement>('header [data-testid="company-logo"]')!;
      const box = img.getBoundingClientRect();
      return { width: box.width, height: box.height, box: box.width / box.height, picture: img.naturalWidth / img.naturalHeight, fit: getComputedStyle(img).objectFit };
    });

  it('warns of a dark logo on a dark card, puts it on a plate, and shows a wide logo at its shape to the customer', async () => {
    // A navy 4:1 wordmark stand-in (transparent margins left and right), on the default dark 'ink' card.
    const logo = path.join(workDir, 'navy-wide.png');
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=#1b2a4a:s=600x200', '-vf', 'drawbox=x=40:y=60:w=520:h=80:color=#3a5a9a:t=fill,format=rgba,pad=800:200:100:0:color=black@0', '-frames:v', '1', logo]);

    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInInBrowser(page, server, company);
    await page.goto(`${server.url}/dashboard/settings?tab=video`);
    await page.waitForSelector('[data-testid="settings-video-form"]');
    expect(await page.locator('[data-testid="logo-contrast"]').count()).toBe(0);

    await page.setInputFiles('[data-testid="logo-input"]', logo);
    await page.waitForSelector('[data-testid="logo-current"][src*="/api/public/logo/"]:not([data-preparing])');
    // Measured by the logo job: hard to see on the dark card, so it sits on the plate (automatic).
    const warning = page.locator('[data-testid="logo-contrast-warning"]');
    await warning.waitFor();
    expect(await warning.innerText()).toContain('Your logo is hard to see on this background');
    expect(await page.getAttribute('[data-testid="logo-plate"]', 'aria-checked')).toBe('true');
    await page.waitForSelector('[data-testid="preview-intro"] [data-testid="preview-logo-plate"]');
    await shootSettings(page, 'en');

    // The company can take the plate away (the warning stays), and put it back.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.click('[data-testid="logo-plate"]');
    expect(await page.getAttribute('[data-testid="logo-plate"]', 'aria-checked')).toBe('false');
    expect(await page.locator('[data-testid="preview-logo-plate"]').count()).toBe(0);
    expect(await warning.innerText()).not.toContain('plate');
    await page.click('[data-testid="logo-plate"]');
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/auth/update-settings'));
    await page.click('[data-testid="style-save"]');
    expect((await (await saved).json()).logo_plate).toBe('on');

    // A light card: the logo reads, no warning (the chosen plate's switch stays, to turn it off).
    await page.fill('[data-testid="background-color"]', '#f5f1e8');
    expect(await page.locator('[data-testid="logo-contrast-warning"]').count()).toBe(0);
    expect(await page.getAttribute('[data-testid="logo-plate"]', 'aria-checked')).toBe('true');
    await page.click('[data-testid="style-discard"]');

    await browser.context.addCookies([{ name: 'i18next', value: 'fr', url: server.url }]);
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'fr'));
    await page.reload();
    await warning.waitFor();
    expect(await warning.innerText()).toContain('Votre logo se voit mal sur ce fond');
    await shootSettings(page, 'fr');

    // The customer's page: the wide logo keeps its shape in the header (no square).
    for (const language of ['english', 'french'] as const) {
      const customerEmail = `customer.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
      await company.api('POST', '/api/testimonials/request', { customer_email: customerEmail, customer_name: 'Sam Carter', question_ids: [questionId], language });
      const link = await waitForMailLink(server, customerEmail, '/testimonial/submit/');
      for (const width of [375, 1280]) {
        await page.setViewportSize(width === 1280 ? { width: 1280, height: 900 } : { width: 375, height: 812 });
        await page.goto(link);
        await page.waitForFunction(() => document.querySelector<HTMLImageElement>('header [data-testid="company-logo"]')?.complete);
        const shape = await logoShape(page);
        expect(shape.picture).toBeCloseTo(4, 1);
        expect(shape.box, JSON.stringify(shape)).toBeCloseTo(shape.picture, 1);
        expect(shape.height).toBeGreaterThanOrEqual(36);
        expect(shape.height).toBeLessThanOrEqual(48);
        expect(shape.fit).toBe('contain');
        await screenshot(page, `logo-recording-${language === 'english' ? 'en' : 'fr'}-${width}`, { fullPage: false });
      }
    }
    expect(errors).toEqual([]);
  }, 180_000);
});
