import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, screenshot, setLanguage, watchErrors, type BrowserSession } from './support/browser.js';
import { recordTestimonial, signInInBrowser, signUpCompany, waitForMailLink, type Company, type RecordedTestimonial } from './support/fixtures.js';
import { startServer, type RunningServer } from './support/server.js';

/**
 * Roles and agencies in Chromium (issue 32, decision 219): (a) a viewer invited by the owner sees a
 * testimonial nobody has paid for locked, with the reason where the pay button would be, and the API
 * refuses their pay call; (b) a person who owns one company and edits another switches companies in
 * the header and sees each one's testimonials only; (c) the same switch in French at 375 px.
 */
describe('roles and the company switcher', () => {
  let server: RunningServer;
  let browser: BrowserSession;
  let acme: Company;
  let agency: Company;
  let acmeTestimonial: RecordedTestimonial;
  let agencyTestimonial: RecordedTestimonial;
  const password = 'secret12';

  /** Invites `email` into `owner`'s company and returns the invitation token from the e-mail's link. */
  const invite = async (owner: Company, email: string, role: 'editor' | 'viewer') => {
    await owner.api('POST', '/api/members/invitations', { email, role });
    const link = await waitForMailLink(server, email, '/invitation#token=');
    return new URL(link).hash.replace('#token=', '');
  };

  const customers = (page: Page) => page.locator('[data-testid="testimonial-customer"]').allTextContents();

  beforeAll(async () => {
    server = await startServer();
    [acme, agency] = await Promise.all([signUpCompany(server, { prefix: 'acme' }), signUpCompany(server, { prefix: 'agency' })]);
    [acmeTestimonial, agencyTestimonial] = await Promise.all([
      recordTestimonial(server, acme, { customerName: 'Claire Acme' }),
      recordTestimonial(server, agency, { customerName: 'Bruno Agency' }),
    ]);
    // The agency's owner also edits for Acme: invited, and accepted while signed in.
    const token = await invite(acme, agency.email, 'editor');
    await agency.api('POST', '/api/invitations/accept', { token });
    // This journey is about companies, not the onboarding tour (dashboard.e2e.ts covers it).
    await agency.api('PUT', '/api/user/complete-onboarding', {});
    browser = await openBrowser({ locale: 'en-US' });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a viewer sees the locked testimonial with the reason and no pay button, and the API refuses the credit', async () => {
    const email = `viewer.${Date.now()}@studio.test`;
    const invitation = await invite(acme, email, 'viewer');
    const signup = await fetch(`${server.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ firstname: 'Vera', lastname: 'Viewer', email, password, lang: 'en', invitation }),
    });
    expect(signup.status, await signup.clone().text()).toBe(201);
    const { token } = (await signup.json()) as { token: string };

    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInInBrowser(page, server, { email, password });
    // No new request, no buying credits for a viewer.
    await page.locator('[data-testid="credit-balance"]').waitFor();
    // Until the role is known (one GET /api/auth/me after a fresh sign-in) controls show (decision 219).
    await page.locator('[data-testid="overview-send-request"]').waitFor({ state: 'detached' });
    expect(await page.locator('[data-testid="header-buy-credits"]').count()).toBe(0);

    // The list: no pay button and no new request; the row opens the page that says why.
    await page.goto(`${server.url}/dashboard/testimonials`);
    await page.locator('[data-testid="view-locked"]').first().waitFor();
    expect(await page.locator('[data-testid="pay-to-view"]').count()).toBe(0);
    expect(await page.locator('[data-testid="testimonials-request-new"]').count()).toBe(0);
    await page.locator('[data-testid="view-locked"]').first().click();
    await page.waitForURL(`${server.url}/dashboard/testimonials/${acmeTestimonial.id}`);
    await page.locator('[data-testid="testimonial-locked"]').waitFor();
    const reason = page.locator('[data-testid="pay-role-required"]');
    await reason.waitFor();
    expect(await reason.textContent()).toContain('Ask an owner or editor');
    expect(await page.locator('[data-testid="pay-to-view"]').count()).toBe(0);
    await screenshot(page, 'roles-viewer-locked-1280-en');

    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'roles-viewer-locked-375-en');
    await setLanguage(page, server, browser, 'fr');
    await page.locator('[data-testid="pay-role-required"]').waitFor();
    expect(await page.locator('[data-testid="pay-role-required"]').textContent()).toContain('Demandez à un propriétaire ou un éditeur');
    await screenshot(page, 'roles-viewer-locked-375-fr');
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, 'roles-viewer-locked-1280-fr');
    await setLanguage(page, server, browser, 'en');

    // The server says the same whatever the page shows.
    const paid = await fetch(`${server.url}/api/testimonials/pay/${acmeTestimonial.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(paid.status).toBe(403);
    expect(((await paid.json()) as { reason?: string }).reason).toBe('role_required_editor');
    const list = await acme.api<{ testimonials?: { id: string; paid: boolean }[] } | { id: string; paid: boolean }[]>('GET', `/api/testimonials/requests?company_id=${acme.companyId}`);
    const rows = Array.isArray(list) ? list : (list.testimonials ?? []);
    expect(rows.find((row) => row.id === acmeTestimonial.id)?.paid).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("an agency member switches companies in the header and sees each company's testimonials only", async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.evaluate(() => localStorage.clear()).catch(() => undefined);
    await signInInBrowser(page, server, agency);
    const switcher = page.locator('[data-testid="company-switcher"]');
    await switcher.waitFor();
    expect(await page.locator('[data-testid="company-switcher-name"]').textContent()).toBe(agency.companyName);

    await page.goto(`${server.url}/dashboard/testimonials`);
    await page.locator('[data-testid="testimonial-customer"]').first().waitFor();
    expect(await customers(page)).toEqual([agencyTestimonial.customerName]);

    // By keyboard: focus the switcher, open it, pick Acme.
    await switcher.press('Enter');
    const items = page.locator('[data-testid="company-switcher-item"]');
    await items.first().waitFor();
    expect(await items.allTextContents()).toEqual(expect.arrayContaining([`${agency.companyName}Owner`, `${acme.companyName}Editor`]));
    await screenshot(page, 'roles-switcher-open-1280-en', { fullPage: false });
    await page.locator(`[data-testid="company-switcher-item"][data-company-id="${acme.companyId}"]`).click();
    await page.waitForURL(`${server.url}/dashboard`);
    await page.waitForFunction((name) => document.querySelector('[data-testid="company-switcher-name"]')?.textContent === name, acme.companyName);

    await page.goto(`${server.url}/dashboard/testimonials`);
    await page.locator('[data-testid="testimonial-customer"]').first().waitFor();
    expect(await customers(page)).toEqual([acmeTestimonial.customerName]);
    // An editor may spend Acme's credits, but not buy them.
    expect(await page.locator('[data-testid="pay-to-view"]').count()).toBe(1);

    // And back: only the agency's again.
    await switcher.click();
    await page.locator(`[data-testid="company-switcher-item"][data-company-id="${agency.companyId}"]`).click();
    await page.waitForURL(`${server.url}/dashboard`);
    await page.goto(`${server.url}/dashboard/testimonials`);
    await page.locator('[data-testid="testimonial-customer"]').first().waitFor();
    expect(await customers(page)).toEqual([agencyTestimonial.customerName]);

    // The switcher open at 375 px in English and at 1280 px in French.
    await page.setViewportSize({ width: 375, height: 800 });
    await switcher.click();
    await items.first().waitFor();
    await screenshot(page, 'roles-switcher-open-375-en', { fullPage: false });
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1280, height: 900 });
    await setLanguage(page, server, browser, 'fr');
    await switcher.click();
    await items.first().waitFor();
    await screenshot(page, 'roles-switcher-open-1280-fr', { fullPage: false });
    await page.keyboard.press('Escape');
    await setLanguage(page, server, browser, 'en');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('switches in French at 375 px', async () => {
    const fr = await openBrowser({ locale: 'fr-FR' });
    try {
      const page = await fr.context.newPage();
      const errors = watchErrors(page);
      await page.setViewportSize({ width: 375, height: 800 });
      await fr.context.addCookies([{ name: 'i18next', value: 'fr', url: server.url }]);
      await signInInBrowser(page, server, agency);
      const switcher = page.locator('[data-testid="company-switcher"]');
      await switcher.waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await switcher.click();
      const items = page.locator('[data-testid="company-switcher-item"]');
      await items.first().waitFor();
      expect(await items.allTextContents()).toEqual(expect.arrayContaining([`${agency.companyName}Propriétaire`, `${acme.companyName}Éditeur`]));
      await screenshot(page, 'roles-switcher-open-375-fr', { fullPage: false });
      await page.locator(`[data-testid="company-switcher-item"][data-company-id="${acme.companyId}"]`).click();
      await page.waitForURL(`${server.url}/dashboard`);
      await page.goto(`${server.url}/dashboard/testimonials`);
      await page.locator('[data-testid="testimonial-customer"]').first().waitFor();
      expect(await customers(page)).toEqual([acmeTestimonial.customerName]);
      await screenshot(page, 'roles-after-switch-375-fr');
      expect(errors).toEqual([]);
    } finally {
      await fr.close();
    }
  });
});
