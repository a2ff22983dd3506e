/**
 * Screenshots of the API reference page (issue 32, decision 214), for the README:
 *
 *   docs/screenshots/integrations/api-reference-en-1280.png          the top of the page, 1280 px
 *   docs/screenshots/integrations/api-reference-publish-en-1280.png  one operation (publish), 1280 px
 *   docs/screenshots/integrations/api-reference-en-375.png           the top of the page, 375 px
 *   docs/screenshots/integrations/api-reference-publish-en-375.png   one operation (publish), 375 px
 *
 * The page is English only, as API documentation is. It starts the built app (`npm run build` first) and
 * opens the page in Debian's Chromium, as the e2e tests do (tests/e2e/support).
 *
 *   npx tsx scripts/api-reference-screenshots.ts
 */
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { V1_REFERENCE_PAGE } from '../src/contract/api/paths.js';
import { openBrowser, screenshot, watchErrors } from '../tests/e2e/support/browser.js';
import { startServer } from '../tests/e2e/support/server.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT_DIR = path.join(ROOT, 'docs/screenshots/integrations');

async function shot(page: Page, name: string) {
  const file = await screenshot(page, name, { fullPage: false });
  await copyFile(file, path.join(OUT_DIR, `${name}.png`));
  console.log(path.join('docs/screenshots/integrations', `${name}.png`));
}

async function main() {
  const server = await startServer();
  const browser = await openBrowser({ locale: 'en-US' });
  try {
    await mkdir(OUT_DIR, { recursive: true });
    for (const [width, height] of [
      [1280, 900],
      [375, 812],
    ] as const) {
      const page = await browser.context.newPage();
      const errors = watchErrors(page);
      await page.setViewportSize({ width, height });
      const res = await page.goto(`${server.url}${V1_REFERENCE_PAGE}`);
      if (res?.status() !== 200) throw new Error(`the reference page answered ${res?.status()}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (overflow > 0) throw new Error(`the page is ${overflow} px wider than the window at ${width} px`);
      await shot(page, `api-reference-en-${width}`);
      await page.locator('#publish').scrollIntoViewIfNeeded();
      await page.evaluate(() => document.getElementById('publish')!.scrollIntoView({ block: 'start' }));
      await shot(page, `api-reference-publish-en-${width}`);
      if (errors.length) throw new Error(`errors on the page:\n${errors.join('\n')}`);
      await page.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
