/**
 * Screenshots of the settings' live preview on the 1:1 and 4:5 frames (issue 31), with the lower-third and
 * the end card on, for the README:
 *
 *   docs/screenshots/studio/preview-square-en-1280.png    1:1, English, 1280 px: the lower-third and the end card side by side
 *   docs/screenshots/studio/preview-portrait-fr-375.png   4:5, French, 375 px: the lower-third
 *
 * and, in test-results/ only, checks at other widths (the end card at 375 px, 768 px, 4:5 at 1280 px).
 *
 * It starts the built app (`npm run build` first) with a fresh data folder, signs a company up, and drives
 * the settings page in Debian's Chromium, as the e2e tests do (tests/e2e/support).
 *
 *   npx tsx scripts/preview-screenshots.ts
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { openBrowser, screenshot, watchErrors } from '../tests/e2e/support/browser.js';
import { signInInBrowser, signUpCompany } from '../tests/e2e/support/fixtures.js';
import { startServer } from '../tests/e2e/support/server.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');
const OUT_DIR = path.join(ROOT, 'docs/screenshots/studio');

/** Waits until the preview's fonts have arrived (the preview draws with the shipped files). */
async function fontsReady(page: Page) {
  await page.waitForFunction(() => [...document.fonts].filter((face) => face.status === 'loading').length === 0);
  await page.evaluate(() => document.fonts.ready);
}

async function pickFormat(page: Page, format: string) {
  await page.click(`label:has([data-testid="preview-format-${format}"])`);
  await page.waitForSelector(`[data-testid="settings-preview"][data-format="${format}"]`);
}

/** The preview at the top of the screen, under the header, so no sticky bar hides its frames. */
async function previewOnTop(page: Page) {
  await page.evaluate(() => {
    const top = document.querySelector('[data-testid="settings-preview"]')!.getBoundingClientRect().top + window.scrollY;
    window.scrollTo(0, Math.max(0, top - 80));
  });
}

/** A screenshot in test-results/, copied to the README's folder when `keep`. */
async function shot(page: Page, name: string, keep = true) {
  await fontsReady(page);
  const file = await screenshot(page, name, { fullPage: false });
  if (keep) await copyFile(file, path.join(OUT_DIR, `${name}.png`));
  console.log(keep ? path.join('docs/screenshots/studio', `${name}.png`) : path.relative(ROOT, file));
}

async function main() {
  const server = await startServer();
  const browser = await openBrowser({ locale: 'en-US' });
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'vouchreel-preview-'));
  try {
    await mkdir(OUT_DIR, { recursive: true });
    const company = await signUpCompany(server, { prefix: 'preview' });
    await company.api('PUT', '/api/user/complete-onboarding', {});
    // A wide two-colour wordmark stand-in, as in the themes' e2e test, so the end card shows its logo band.
    const logo = path.join(workDir, 'logo.png');
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=#f5f1e8:s=360x96', '-vf', 'drawbox=x=0:y=0:w=96:h=96:color=#e4572e:t=fill', '-frames:v', '1', logo]);

    let page = await browser.context.newPage();
    let errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInInBrowser(page, server, company);
    await page.goto(`${server.url}/dashboard/settings?tab=video`);
    await page.waitForSelector('[data-testid="settings-video-form"]');

    // The ocean theme, the logo, the lower-third and an end card, saved.
    await page.click('label:has([data-testid="theme-ocean-input"])');
    await page.setInputFiles('[data-testid="logo-input"]', logo);
    await page.waitForSelector('[data-testid="logo-current"][src*="/api/public/logo/"]:not([data-preparing])');
    await page.click('[data-testid="lower-third"]');
    await page.click('[data-testid="end-card"]');
    await page.fill('[data-testid="end-card-text"]', 'Book your free estimate');
    await page.fill('[data-testid="end-card-address"]', 'northwind-renovations.com');
    await page.click('[data-testid="style-save"]');
    await page.waitForSelector('[data-testid="style-save"][disabled]');
    await page.waitForSelector('[data-testid="preview-logo"]', { state: 'attached' });

    // 1:1 in English at 1280 px: the lower-third and the end card side by side. Picked with the keyboard,
    // as in any radio group: two steps right of the answer (16:9, then 1:1).
    await page.focus('[data-testid="preview-format-answer"]');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('[data-testid="settings-preview"][data-format="square"]');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('[data-testid="video-extras"]').scrollIntoViewIfNeeded();
    await shot(page, 'preview-square-en-1280');
    // Checks kept out of the README: 4:5 at 1280 px, and 1:1 at 768 and 375 px, in English.
    await pickFormat(page, 'portrait');
    await shot(page, 'preview-portrait-en-1280', false);
    await pickFormat(page, 'square');
    for (const width of [768, 375]) {
      await page.setViewportSize({ width, height: width === 768 ? 1024 : 812 });
      await previewOnTop(page);
      await shot(page, `preview-square-en-${width}`, false);
    }

    // 4:5 in French at 375 px: one frame at a time, the lower-third then the end card.
    // A new page at the phone's size, signed in again: resizing one page several times shifted its screenshots.
    await browser.context.addCookies([{ name: 'i18next', value: 'fr', url: server.url }]);
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'fr'));
    if (errors.length) throw new Error(`errors on the page:\n${errors.join('\n')}`);
    await page.close();
    page = await browser.context.newPage();
    errors = watchErrors(page);
    await page.setViewportSize({ width: 375, height: 812 });
    await signInInBrowser(page, server, company);
    await page.goto(`${server.url}/dashboard/settings?tab=video`);
    await page.waitForSelector('[data-testid="settings-video-form"]');
    await page.waitForSelector('[data-testid="preview-logo"]', { state: 'attached' });
    await pickFormat(page, 'portrait');
    await page.getByRole('button', { name: 'Nom', exact: true }).click();
    await previewOnTop(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (overflow > 0) throw new Error(`the page is ${overflow} px wider than the phone`);
    await shot(page, 'preview-portrait-fr-375');
    await page.getByRole('button', { name: 'Fin', exact: true }).click();
    await shot(page, 'preview-portrait-fr-375-end', false);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.locator('[data-testid="video-extras"]').scrollIntoViewIfNeeded();
    await shot(page, 'preview-portrait-fr-1280', false);
    if (errors.length) throw new Error(`errors on the page:\n${errors.join('\n')}`);
  } finally {
    await browser.close();
    await server.stop();
    await rm(workDir, { recursive: true, force: true });
  }
}

await main();
