/**
 * Screenshots of the settings' API keys card (issue 32), for the README:
 *
 *   docs/screenshots/integrations/api-keys-en-1280.png          the list, English, 1280 px
 *   docs/screenshots/integrations/api-key-created-en-1280.png   the new key shown once, English, 1280 px
 *   docs/screenshots/integrations/api-keys-fr-375.png           the list, French, 375 px
 *   docs/screenshots/integrations/api-key-created-fr-375.png    the new key shown once, French, 375 px
 *
 * It starts the built app (`npm run build` first), signs a company up, makes two keys (one revoked, one
 * used) and drives the settings page in Debian's Chromium, as the e2e tests do (tests/e2e/support).
 *
 *   npx tsx scripts/api-keys-screenshots.ts
 */
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { openBrowser, screenshot, watchErrors } from '../tests/e2e/support/browser.js';
import { signInInBrowser, signUpCompany } from '../tests/e2e/support/fixtures.js';
import { startServer } from '../tests/e2e/support/server.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT_DIR = path.join(ROOT, 'docs/screenshots/integrations');

async function shot(page: Page, name: string) {
  const file = await screenshot(page, name, { fullPage: false });
  await copyFile(file, path.join(OUT_DIR, `${name}.png`));
  console.log(path.join('docs/screenshots/integrations', `${name}.png`));
}

async function cardOnTop(page: Page) {
  // Every card above loaded first (the reminders' form), so the card no longer moves down after the scroll.
  await page.waitForSelector('[data-testid="reminder-save"]');
  await page.waitForLoadState('networkidle');
  // Playwright scrolls whichever element scrolls (the dashboard's layout), as a click would: the list's last row into view.
  await page.locator('[data-testid^="api-key-row-"]').last().scrollIntoViewIfNeeded();
}

async function createKey(page: Page, name: string, scopeLabel: string) {
  await page.click('[data-testid="api-keys-create"]');
  await page.fill('[data-testid="api-key-name"]', name);
  await page.selectOption('[data-testid="api-key-scope"]', { label: scopeLabel });
  await page.click('[data-testid="api-key-submit"]');
  await page.waitForSelector('[data-testid="api-key-created"]');
}

async function main() {
  const server = await startServer();
  const browser = await openBrowser({ locale: 'en-US' });
  try {
    await mkdir(OUT_DIR, { recursive: true });
    const company = await signUpCompany(server, { prefix: 'keys' });
    await company.api('PUT', '/api/user/complete-onboarding', {});
    const old = await company.api<{ id: string }>('POST', '/api/api-keys', { name: 'Old website', scope: 'read' });
    await company.api('DELETE', `/api/api-keys/${old.id}`);
    const crm = await company.api<{ key: string }>('POST', '/api/api-keys', { name: 'HubSpot sync', scope: 'read' });
    const used = await fetch(`${server.url}/api/v1/testimonials`, { headers: { authorization: `Bearer ${crm.key}` } });
    if (used.status !== 200) throw new Error(`the key did not work: ${used.status}`);

    let page = await browser.context.newPage();
    let errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInInBrowser(page, server, company);
    await page.goto(`${server.url}/dashboard/settings`);
    await page.waitForSelector('[data-testid^="api-key-row-"]');
    await cardOnTop(page);
    await shot(page, 'api-keys-en-1280');
    await createKey(page, 'Zapier', 'Read and write');
    await shot(page, 'api-key-created-en-1280');
    await page.click('[data-testid="api-key-done"]');
    if (errors.length) throw new Error(`errors on the page:\n${errors.join('\n')}`);

    await browser.context.addCookies([{ name: 'i18next', value: 'fr', url: server.url }]);
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'fr'));
    await page.close();
    page = await browser.context.newPage();
    errors = watchErrors(page);
    await page.setViewportSize({ width: 375, height: 812 });
    await signInInBrowser(page, server, company);
    await page.goto(`${server.url}/dashboard/settings`);
    await page.waitForSelector('[data-testid^="api-key-row-"]');
    await cardOnTop(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (overflow > 0) throw new Error(`the page is ${overflow} px wider than the phone`);
    await shot(page, 'api-keys-fr-375');
    await createKey(page, 'Site web', 'Lecture');
    await shot(page, 'api-key-created-fr-375');
    if (errors.length) throw new Error(`errors on the page:\n${errors.join('\n')}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
