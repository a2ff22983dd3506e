import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, screenshot, watchErrors, type BrowserSession } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';

interface OutboxMessage {
  subject: string;
  links: string[];
}

/**
 * Credits in test mode and the transactions screen: a purchase through the labelled test checkout
 * (the same fulfilment as Stripe's webhook) shows up in the header and in the list, in both languages.
 */
describe('transactions', () => {
  let server: RunningServer;
  let browser: BrowserSession;
  const email = `tx.${Date.now()}@studio.test`;

  beforeAll(async () => {
    server = await startServer();
    browser = await openBrowser({ locale: 'en-US' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('lists the welcome credits and a test-mode purchase, as a table and as cards', async () => {
    const signup = await fetch(`${server.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ firstname: 'Tom', lastname: 'Ledger', email, companyName: `Ledger Co ${Date.now()}`, password: 'secret12', lang: 'en' }),
    });
    expect(signup.status).toBe(201);
    let link = '';
    for (let i = 0; i < 120 && !link; i++) {
      const mails = (await (await fetch(`${server.url}/dev/outbox/messages.json?to=${encodeURIComponent(email)}`)).json()) as OutboxMessage[];
      link = mails.flatMap((m) => m.links).find((l) => l.includes('/api/auth/confirm-email')) ?? '';
      if (!link) await new Promise((r) => setTimeout(r, 250));
    }
    await fetch(link, { redirect: 'manual' });

    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${server.url}/signin`);
    await page.fill('input[name="email"]', email);
    await page.fill('input[name="password"]', 'secret12');
    await page.click('[data-testid="signin-submit"]');
    await page.waitForURL(`${server.url}/dashboard`);

    // Buy the Medium package through the test-mode checkout page, as a customer would on Stripe's.
    const { url } = await page.evaluate(async () => {
      const res = await fetch('/api/payment/checkout-session', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${sessionStorage.getItem('token') ?? localStorage.getItem('token') ?? ''}` },
        body: JSON.stringify({ priceId: 'medium' }),
      });
      return (await res.json()) as { url: string };
    });
    await page.goto(url);
    expect(await page.textContent('[data-testid="test-mode-banner"]')).toContain('TEST MODE');
    await page.click('[data-testid="test-pay"]');
    await page.waitForURL(/\/dashboard\/payment\?success=true/);

    await page.goto(`${server.url}/dashboard/transaction`);
    await page.waitForSelector('[data-testid="transaction-row"]');
    expect(await page.locator('[data-testid="transaction-row"]').count()).toBe(2);
    expect(await page.textContent('[data-testid="transactions-list"]')).toContain('250.00');
    expect(await page.locator('[data-testid="transaction-row"][data-type="signup_bonus"]').textContent()).toMatch(/(^|[^0-9])1([^0-9]|$)/);
    await page.waitForSelector('[data-testid="header-credits"]');
    expect(await page.textContent('[data-testid="header-credits"]')).toContain('26');
    await screenshot(page, 'transactions-en-1280');

    await page.setViewportSize({ width: 375, height: 800 });
    await browser.context.addCookies([{ name: 'i18next', value: 'fr', url: server.url }]);
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'fr'));
    await page.reload();
    await page.waitForSelector('[data-testid="transaction-row"]');
    expect(await page.textContent('[data-testid="transactions-list"]')).toContain('250,00');
    expect(await page.locator('[data-testid="transaction-row"][data-type="signup_bonus"]').textContent()).toMatch(/(^|[^0-9])1([^0-9]|$)/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, 'transactions-fr-375');
    expect(errors).toEqual([]);
  });
});
