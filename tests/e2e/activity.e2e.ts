import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, screenshot, setLanguage, watchErrors, type BrowserSession } from './support/browser.js';
import { signInInBrowser, signUpCompany } from './support/fixtures.js';
import { startServer, type RunningServer } from './support/server.js';

/**
 * The activity log (issue 32, decision 220) in Chromium: the owner's own actions (a request sent by
 * e-mail, a link created, an API key created and revoked) read as sentences with their name, the
 * filter goes to the address, and the screen holds at 375 and 1280 px in English and French.
 */
describe('activity log', () => {
  let server: RunningServer;
  let browser: BrowserSession;

  beforeAll(async () => {
    server = await startServer();
    browser = await openBrowser({ locale: 'en-US' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows who did what, filters by group in the address, as a table and as cards, in both languages', async () => {
    const company = await signUpCompany(server);
    // This journey is about the log, not the onboarding tour (dashboard.e2e.ts covers it).
    await company.api('PUT', '/api/user/complete-onboarding', {});
    const q = await company.api<{ id: string }>('POST', '/api/questions/add', {
      company_id: company.companyId,
      text: 'What did you like?',
      order_position: 1,
    });
    await company.api('POST', '/api/testimonials/request', {
      customer_email: 'marie@client.test',
      customer_name: 'Marie Dupont',
      question_ids: [q.id],
      language: 'english',
    });
    await company.api('POST', '/api/testimonials/request', {
      delivery: 'link',
      customer_name: 'Jean Moreau',
      question_ids: [q.id],
      language: 'french',
    });
    const key = await company.api<{ id: string }>('POST', '/api/api-keys', {
      name: 'Zapier',
      scope: 'read',
    });
    await company.api('DELETE', `/api/api-keys/${key.id}`);

    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await signInInBrowser(page, server, company);
    await page.click('[data-testid="nav-activity"]');
    await page.waitForURL(`${server.url}/dashboard/activity`);
    await page.waitForSelector('[data-testid="activity-row"]');
    const sentences = await page.locator('[data-testid="activity-sentence"]').allTextContents();
    expect(sentences).toEqual([
      'Alex Martin revoked the API key “Zapier”',
      'Alex Martin created the API key “Zapier”',
      'Alex Martin created a request link for Jean Moreau',
      'Alex Martin sent a request to Marie Dupont',
    ]);
    await screenshot(page, 'activity-en-1280');

    await page.selectOption('[data-testid="activity-filter-type"]', 'apiKeys');
    await page.waitForURL(/\/dashboard\/activity\?group=apiKeys$/);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="activity-row"]').length === 2);
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, 'activity-en-375-filtered');

    await setLanguage(page, server, browser, 'fr');
    await page.waitForSelector('[data-testid="activity-row"]');
    expect(await page.locator('[data-testid="activity-sentence"]').first().textContent()).toBe('Alex Martin a révoqué la clé d’API « Zapier »');
    await page.selectOption('[data-testid="activity-filter-type"]', '');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="activity-row"]').length === 4);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, 'activity-fr-375');
    await page.setViewportSize({ width: 1280, height: 800 });
    await screenshot(page, 'activity-fr-1280');
    expect(errors).toEqual([]);
  });
});
