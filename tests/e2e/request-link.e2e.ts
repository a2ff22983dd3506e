import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, screenshot, watchErrors, type BrowserSession } from './support/browser.js';
import { signInInBrowser, signUpCompany } from './support/fixtures.js';
import { startServer, type RunningServer } from './support/server.js';

interface OutboxMessage {
  to: string[] | string;
  subject: string;
}

/**
 * A link to send any way (issue 27, item 11; decision 173): a request made with "Copy the link myself"
 * and no e-mail shows its private link with a Copy button; the row's and the detail's Copy buttons give
 * the same link; no e-mail goes out; the link opens the customer's recording page. The form with the
 * choice and the row's button are photographed at 375 and 1280 px in English and French.
 */
describe('a request sent by copying its link', () => {
  let server: RunningServer;
  let browser: BrowserSession;

  beforeAll(async () => {
    server = await startServer();
    browser = await openBrowser({ locale: 'en-US' });
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('creates a request without e-mail, copies its link from the confirmation, the row and the detail, and the link opens the recording page', async () => {
    const company = await signUpCompany(server, { prefix: 'linker' });
    await company.api('PUT', '/api/user/complete-onboarding', {});
    await company.api('POST', '/api/questions/add', { company_id: company.companyId, text: 'What did we make easier for you?', order_position: 1 });
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInInBrowser(page, server, company);
    await page.click('[data-testid="nav-requests"]');
    await page.waitForSelector('[data-testid="request-question"]');

    // The choice: e-mail by default; "Copy the link myself" makes the e-mail optional.
    expect(await page.getAttribute('[data-testid="request-delivery"]', 'data-value')).toBe('email');
    await page.fill('input[name="customer_name"]', 'Noé Garnier');
    await page.click('[data-testid="request-send"]');
    await page.waitForSelector('[data-testid="request-validation-error"]');
    await page.click('text=Copy the link myself');
    expect(await page.getAttribute('[data-testid="request-delivery"]', 'data-value')).toBe('link');
    expect(await page.innerText('[data-testid="request-send"]')).toBe('Create link');
    await page.waitForSelector('text=Optional: lets you send reminders by e-mail later.');
    await page.click('[data-testid="request-send"]');
    await page.waitForSelector('[data-testid="send-request-dialog"]');
    expect(await page.innerText('[data-testid="send-request-dialog"]')).toContain('No e-mail will be sent');
    const created = page.waitForResponse((r) => r.url().endsWith('/api/testimonials/request') && r.request().method() === 'POST');
    await page.click('[data-testid="confirm-dialog-confirm"]');
    expect((await created).status()).toBe(201);

    // The link shows at once, with a Copy button that puts it on the clipboard and says so.
    await page.waitForSelector('[data-testid="request-link-ready"]');
    const link = await page.inputValue('[data-testid="request-link-value"]');
    expect(link).toMatch(new RegExp(`^${server.url}/testimonial/submit/[A-Za-z0-9_-]{43}$`));
    await page.click('[data-testid="request-link-copy"]');
    await page.waitForSelector('[data-testid="request-link-copy"][data-copied="true"]');
    expect(await page.innerText('[data-testid="request-link-copy"]')).toBe('Link copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await screenshot(page, 'request-link-ready-en-1280');

    // The row: no address, no reminder, and its Copy link gives the same link.
    const row = page.locator('[data-testid="request-row"]').first();
    expect(await row.innerText()).toContain('No e-mail: link sent by you');
    expect(await row.locator('[data-testid="request-remind"]').count()).toBe(0);
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await row.locator('[data-testid="request-copy-link"]').click();
    await row.locator('[data-testid="request-copy-link"][data-copied="true"]').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await page.click('[data-testid="request-link-dismiss"]');
    await screenshot(page, 'request-link-row-en-1280');

    // The detail: the same link, written out and copied.
    const id = await row.getAttribute('data-id');
    await page.goto(`${server.url}/dashboard/request/${id}`);
    await page.waitForSelector('[data-testid="request-detail-link"]');
    expect(await page.innerText('[data-testid="request-detail-link-value"]')).toBe(link);
    expect(await page.locator('[data-testid="request-detail-remind"]').count()).toBe(0);
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await page.click('[data-testid="request-detail-copy-link"]');
    await page.waitForSelector('[data-testid="request-detail-copy-link"][data-copied="true"]');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await screenshot(page, 'request-link-detail-en-1280');

    // No e-mail went out for it (only the owner's own sign-up mail is in the outbox).
    const mails = (await (await fetch(`${server.url}/dev/outbox/messages.json`)).json()) as OutboxMessage[];
    expect(mails.filter((m) => /would love a short video/.test(m.subject))).toEqual([]);

    // The link opens the customer's recording page.
    const customer = await browser.context.newPage();
    expect((await customer.goto(link))?.status()).toBe(200);
    await customer.waitForFunction((name) => document.body.innerText.includes(name), company.companyName, { timeout: 30_000 });
    await customer.close();

    // The form with the choice and the row's button, at 375 and 1280 px, in English and French.
    for (const lang of ['en', 'fr'] as const) {
      await page.context().addCookies([{ name: 'i18next', value: lang, url: server.url }]);
      await page.evaluate((l) => localStorage.setItem('i18nextLng', l), lang);
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${server.url}/dashboard/requests`);
        await page.waitForSelector('[data-testid="request-delivery"]');
        expect(await page.getAttribute('html', 'lang')).toBe(lang);
        await page.click('[data-testid="request-delivery"] label:nth-of-type(2)');
        await screenshot(page, `request-link-form-${lang}-${width}`);
        if (width === 375) {
          await page.click('[data-testid="requests-tab-sent"]');
        }
        await page.waitForSelector('[data-testid="request-copy-link"]');
        await screenshot(page, `request-link-list-${lang}-${width}`);
      }
    }
    expect(errors).toEqual([]);
  });
});
