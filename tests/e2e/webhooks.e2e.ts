import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookReceiver } from '../../src/server/test/webhook-receiver.js';
import { openBrowser, screenshot, setLanguage, watchErrors, type BrowserSession } from './support/browser.js';
import { signInInBrowser, signUpCompany } from './support/fixtures.js';
import { startServer, type RunningServer } from './support/server.js';
import { until } from './support/until.js';

/**
 * Webhooks in the dashboard (issue 32): an owner adds an endpoint pointing at a receiver on loopback
 * (the server runs with WEBHOOKS_ALLOW_PRIVATE), copies the secret shown once, sends a test event; the
 * receiver verifies it with the standardwebhooks library; the delivery log shows the attempt with its
 * response code. Screenshots of the card at 375 and 1280 px, in English and French.
 */
describe('webhooks', () => {
  let server: RunningServer;
  let browser: BrowserSession;
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>;

  beforeAll(async () => {
    server = await startServer({ WEBHOOKS_ALLOW_PRIVATE: 'on' });
    browser = await openBrowser({ locale: 'en-US' });
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    receiver = await webhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await browser?.close();
    await server?.stop();
  });

  const showCard = async (page: Page) => {
    await page.locator('[data-testid="webhooks"]').scrollIntoViewIfNeeded();
    await page.evaluate(() => document.querySelector('[data-testid="webhooks"]')?.scrollIntoView({ block: 'start' }));
  };

  it('adds an endpoint, copies its secret once, sends a test event the receiver verifies, and logs the attempt', async () => {
    const company = await signUpCompany(server, { prefix: 'hooks' });
    await company.api('PUT', '/api/user/complete-onboarding', {});
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInInBrowser(page, server, company);
    await page.goto(`${server.url}/dashboard/settings`);
    await page.waitForSelector('[data-testid="webhooks-empty"]');

    // Add the endpoint: the address of the receiver, two events.
    await page.click('[data-testid="webhooks-create"]');
    await page.fill('[data-testid="webhook-url"]', receiver.url);
    await page.check('[data-testid="webhook-event-render.ready"]');
    await page.check('[data-testid="webhook-event-publication.published"]');
    await screenshot(page, 'webhooks-create-en-1280', { fullPage: false });
    await page.click('[data-testid="webhook-submit"]');

    // The secret, shown once, copied with the button.
    await page.waitForSelector('[data-testid="webhook-created"]');
    const shown = await page.inputValue('[data-testid="webhook-secret"]');
    expect(shown).toMatch(/^whsec_/);
    await page.click('[data-testid="webhook-copy"]');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(shown);
    await screenshot(page, 'webhooks-secret-en-1280', { fullPage: false });
    await page.click('[data-testid="webhook-done"]');
    receiver.setSecret(copied);
    const endpoints = await company.api<{ endpoints: { id: string; url: string }[] }>('GET', '/api/webhooks');
    expect(endpoints.endpoints).toEqual([expect.objectContaining({ url: receiver.url })]);
    const id = endpoints.endpoints[0]!.id;
    // Shown once: the list never carries it again.
    expect(JSON.stringify(endpoints)).not.toContain(copied);

    // A test event: the receiver verifies its signature with the copied secret.
    await page.click(`[data-testid="webhook-test-${id}"]`);
    await until('the receiver to get the test event', async () => receiver.received.length, (n) => n >= 1, { timeoutMs: 30_000 });
    expect(receiver.received[0]).toMatchObject({ type: 'webhook.test', verified: true, status: 200 });

    // The delivery log shows the attempt and its response code.
    await page.click(`[data-testid="webhook-log-toggle-${id}"]`);
    const delivery = page.locator(`[data-testid="webhook-delivery-${receiver.received[0]!.id}"]`);
    await until(
      'the log to show the delivered attempt',
      async () => {
        if (await delivery.getByText(/response 200/).count()) return true;
        // Still pending when the log was read: read the page again.
        await page.reload();
        await page.click(`[data-testid="webhook-log-toggle-${id}"]`);
        await delivery.waitFor();
        return false;
      },
      (ok) => ok,
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    await expect(delivery.textContent()).resolves.toContain('webhook.test');
    await showCard(page);
    await screenshot(page, 'webhooks-log-en-1280', { fullPage: false });

    await page.setViewportSize({ width: 375, height: 812 });
    await showCard(page);
    await screenshot(page, 'webhooks-log-en-375', { fullPage: false });

    await setLanguage(page, server, browser, 'fr');
    await page.waitForSelector(`[data-testid="webhook-log-toggle-${id}"]`);
    await page.click(`[data-testid="webhook-log-toggle-${id}"]`);
    await page.waitForSelector(`[data-testid="webhook-delivery-${receiver.received[0]!.id}"]`);
    await showCard(page);
    await screenshot(page, 'webhooks-log-fr-375', { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 900 });
    await showCard(page);
    await screenshot(page, 'webhooks-log-fr-1280', { fullPage: false });
    await page.click('[data-testid="webhooks-create"]');
    await page.waitForSelector('[data-testid="webhook-url"]');
    await screenshot(page, 'webhooks-create-fr-1280', { fullPage: false });

    expect(errors).toEqual([]);
    await page.close();
  });
});
