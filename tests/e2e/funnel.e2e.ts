import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, screenshot, watchErrors, type BrowserSession } from './support/browser.js';
import { recordTestimonial, signInInBrowser, signUpCompany, waitForMailLink, type Company } from './support/fixtures.js';
import { startServer, type RunningServer } from './support/server.js';

const SHOTS_DIR = path.resolve('docs/screenshots/collect');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Issue 30, the funnel in Chromium: four requests driven through the real calls — one answered through
 * the save call, one opened by the customer in the real recording page on a phone (fake camera: the
 * device check passed, a first answer accepted, nothing sent), one e-mailed and left alone, one link
 * handed over by the company — then the funnel screen shows the exact counts and conversions, the
 * language filter narrows them, and the request's detail shows its timeline. Both languages, 375 and 1280 px.
 */
describe('the request funnel', () => {
  let server: RunningServer;
  let company: Company;
  const browsers: BrowserSession[] = [];

  beforeAll(async () => {
    server = await startServer();
    company = await signUpCompany(server, { prefix: 'funnel' });
    // This journey is about the funnel, not the onboarding tour (dashboard.e2e.ts covers it).
    await company.api('PUT', '/api/user/complete-onboarding', {});
  });
  afterAll(async () => {
    for (const b of browsers) await b.close();
    await server?.stop();
  });

  async function shot(page: Page, name: string) {
    const file = await screenshot(page, name);
    await mkdir(SHOTS_DIR, { recursive: true });
    await copyFile(file, path.join(SHOTS_DIR, `${name}.png`));
  }

  const counts = (page: Page, section: 'invitations' | 'links') =>
    page.$$eval(`[data-testid="funnel-section-${section}"] li[data-count]`, (items) => items.map((li) => Number(li.getAttribute('data-count'))));

  it('counts four customers exactly, filters by language, and shows a request timeline', { timeout: 150_000 }, async () => {
    // A: answered (through the real save call, no page visit on record: the furthest step proves the others).
    const answered = await recordTestimonial(server, company, { customerName: 'Ada Answered' });
    // B: French, two questions; the customer opens the page, passes the device check and accepts a first answer.
    const questions = await company.api<{ id: string; text: string }[]>('GET', `/api/questions/list?company_id=${company.companyId}`);
    const second = await company.api<{ id: string }>('POST', '/api/questions/add', { company_id: company.companyId, text: 'What would you tell a friend?', order_position: 2 });
    const frenchEmail = `bruno.${Date.now()}@client.test`;
    const french = await company.api<{ testimonial: { id: string } }>('POST', '/api/testimonials/request', {
      customer_email: frenchEmail,
      customer_name: 'Bruno Lefèvre',
      customer_position: 'Gérant',
      question_ids: [questions[0]!.id, second.id],
      language: 'french',
    });
    // C: e-mailed, never opened. D: a link the company copies and hands over itself.
    const idleEmail = `carla.${Date.now()}@client.test`;
    await company.api('POST', '/api/testimonials/request', { customer_email: idleEmail, customer_name: 'Carla Idle', question_ids: [questions[0]!.id], language: 'english' });
    await company.api('POST', '/api/testimonials/request', { customer_name: 'Dan Handed', question_ids: [questions[0]!.id], language: 'english', delivery: 'link' });

    // The customer's page on a phone, in French.
    const link = await waitForMailLink(server, frenchEmail, '/testimonial/submit/');
    await waitForMailLink(server, idleEmail, '/testimonial/submit/');
    const phone = await openBrowser({ media: true, locale: 'fr-FR' });
    browsers.push(phone);
    const customer = await phone.context.newPage();
    const customerErrors = watchErrors(customer);
    await customer.setViewportSize({ width: 375, height: 812 });
    await customer.goto(link);
    await customer.waitForSelector('[data-testid="consent"]');
    await customer.check('[data-testid="consent"]');
    await customer.click('[data-testid="continue"]');
    await customer.waitForSelector('[data-testid="start-recording-step"]:not([disabled])');
    await customer.click('[data-testid="start-recording-step"]');
    await customer.waitForSelector('[data-testid="question"][data-phase="ready"], [data-testid="record"]');
    await customer.click('[data-testid="record"]');
    await customer.waitForSelector('[data-testid="recording-indicator"]');
    await sleep(2500);
    await customer.click('[data-testid="stop"]');
    await customer.waitForSelector('[data-testid="question"][data-phase="preview"]');
    await customer.click('[data-testid="accept"]');
    await customer.waitForFunction(() => /^\D*2\D+2\D*$/.test(document.querySelector('[data-testid="question-counter"]')?.textContent ?? ''));
    expect(customerErrors).toEqual([]);

    // The steps reach the server (the beacon is fire and forget): wait for the request's timeline to show them.
    let kinds: string[] = [];
    for (let i = 0; i < 60; i++) {
      const timeline = await company.api<{ events: { kind: string }[] }>('GET', `/api/testimonials/request/${french.testimonial.id}/timeline`);
      kinds = timeline.events.map((e) => e.kind);
      if (kinds.includes('first_answer') && kinds.includes('delivered')) break;
      await sleep(250);
    }
    expect(kinds).toEqual(['sent', 'delivered', 'opened', 'device_ok', 'first_answer']);
    for (let i = 0; i < 60; i++) {
      const f = await company.api<{ invitations: { steps: { count: number }[] } }>('GET', '/api/funnel');
      if (f.invitations.steps[1]!.count === 4) break;
      await sleep(250);
    }

    // The company's funnel, in English on a laptop.
    const browser = await openBrowser({ locale: 'en-US' });
    browsers.push(browser);
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInInBrowser(page, server, company);
    await page.click('[data-testid="nav-funnel"]');
    await page.waitForURL(`${server.url}/dashboard/funnel`);
    await page.waitForSelector('[data-testid="funnel-section-invitations"]');
    expect(await counts(page, 'invitations')).toEqual([4, 4, 2, 2, 2, 1]);
    expect(await page.$$eval('[data-testid="funnel-section-invitations"] [data-testid="funnel-step-conversion"]', (els) => els.map((e) => e.textContent))).toEqual([
      '100% of the previous step',
      '50% of the previous step',
      '100% of the previous step',
      '100% of the previous step',
      '50% of the previous step',
    ]);
    expect(await counts(page, 'links')).toEqual([0, 0, 0, 0, 0, 0]);
    expect(await page.getAttribute('[data-testid="funnel-invitations-bounced"]', 'data-count')).toBe('0');
    const languageRows = page.locator('[data-testid="funnel-by-language"] [data-testid="funnel-row"]');
    expect(await languageRows.count()).toBe(2);
    const englishRow = page.locator('[data-testid="funnel-by-language"] [data-key="english"]');
    expect(await englishRow.locator('[data-testid="cell-sent"]').innerText()).toBe('3');
    expect(await englishRow.locator('[data-testid="cell-submitted"]').innerText()).toBe('1');
    expect(await englishRow.locator('[data-testid="cell-conversion"]').innerText()).toBe('33%');
    await shot(page, 'funnel-en-1280');

    // The last 7 days give the same counts; one language narrows them.
    await page.click('[data-testid="funnel-period-7"]');
    await page.waitForFunction(() => {
      const el = document.querySelector('[data-testid="funnel-screen"]');
      return !!el && el.getAttribute('data-from') !== null && Date.parse(el.getAttribute('data-to')!) - Date.parse(el.getAttribute('data-from')!) === 6 * 86_400_000;
    });
    expect(await counts(page, 'invitations')).toEqual([4, 4, 2, 2, 2, 1]);
    await page.selectOption('[data-testid="funnel-language"]', 'french');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="funnel-by-language"] [data-testid="funnel-row"]').length === 1);
    expect(await counts(page, 'invitations')).toEqual([1, 1, 1, 1, 1, 0]);
    await page.selectOption('[data-testid="funnel-language"]', '');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="funnel-by-language"] [data-testid="funnel-row"]').length === 2);

    await page.setViewportSize({ width: 375, height: 812 });
    await sleep(200);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await shot(page, 'funnel-en-375');

    // The timeline of the French request on its detail page.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/dashboard/request/${french.testimonial.id}`);
    await page.waitForSelector('[data-testid="timeline-event"]');
    expect(await page.$$eval('[data-testid="timeline-event"]', (els) => els.map((e) => e.getAttribute('data-kind')))).toEqual(['sent', 'delivered', 'opened', 'device_ok', 'first_answer']);
    expect(await page.locator('[data-testid="request-timeline"]').innerText()).toContain('Camera and microphone granted');
    await shot(page, 'funnel-timeline-en-1280');

    // In French.
    await browser.context.addCookies([{ name: 'i18next', value: 'fr', url: server.url }]);
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'fr'));
    await page.reload();
    await page.waitForSelector('[data-testid="timeline-event"]');
    expect(await page.locator('[data-testid="request-timeline"]').innerText()).toContain('Caméra et micro autorisés');
    await page.setViewportSize({ width: 375, height: 812 });
    await sleep(200);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await shot(page, 'funnel-timeline-fr-375');

    await page.goto(`${server.url}/dashboard/funnel`);
    await page.waitForSelector('[data-testid="funnel-section-invitations"]');
    expect(await counts(page, 'invitations')).toEqual([4, 4, 2, 2, 2, 1]);
    expect(await page.locator('[data-testid="funnel-section-invitations"]').innerText()).toMatch(/50\s%\sde l’étape précédente/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await shot(page, 'funnel-fr-375');
    await page.setViewportSize({ width: 1280, height: 900 });
    await sleep(200);
    await shot(page, 'funnel-fr-1280');
    expect(answered.id).toBeTruthy();
    expect(errors).toEqual([]);
  });
});
