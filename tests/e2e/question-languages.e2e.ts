import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, screenshot, watchErrors, type BrowserSession } from './support/browser.js';
import { signInInBrowser, signUpCompany, waitForMailLink, type Company } from './support/fixtures.js';
import { startServer, type RunningServer } from './support/server.js';

/**
 * Questions in the customer's language (issue 27, item 1; decision 165). A business writes one
 * question in English and in French and one in French only; the list marks the one with no English.
 * A French request's recording page asks the French text (it showed the English one before); an
 * English request asking the French-only question falls back to its French text.
 */

const BOTH = { en: 'What changed for you after working with us?', fr: 'Qu’est-ce qui a changé pour vous depuis notre collaboration ?' };
const FRENCH_ONLY = 'Nous recommanderiez-vous à un ami, et pourquoi ?';

describe('questions in the customer’s language', () => {
  let server: RunningServer;
  let browser: BrowserSession;
  let company: Company;

  beforeAll(async () => {
    server = await startServer();
    company = await signUpCompany(server);
    // The onboarding tour would cover the page: this journey is about the questions.
    await company.api('PUT', '/api/user/complete-onboarding', {});
    browser = await openBrowser({ media: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const setLanguage = async (page: Page, lang: 'en' | 'fr') => {
    await page.context().addCookies([{ name: 'i18next', value: lang, url: server.url }]);
    await page.evaluate((l) => localStorage.setItem('i18nextLng', l), lang);
  };

  /** The form of the first question, in edit mode, at 375 and 1280 px. */
  async function formShots(page: Page, lang: 'en' | 'fr') {
    await page.locator('[data-testid="question-edit"]').first().click();
    await page.waitForSelector('[data-testid="question-form"][data-mode="edit"]');
    expect(await page.inputValue('[data-field="question-text-en"]')).toBe(BOTH.en);
    expect(await page.inputValue('[data-field="question-text-fr"]')).toBe(BOTH.fr);
    await page.mouse.move(0, 0);
    await page.setViewportSize({ width: 375, height: 812 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, `questions-bilingual-${lang}-mobile`);
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, `questions-bilingual-${lang}`, { fullPage: false });
  }

  /** The question the recording page asks first, for the private link of a request in `language`. */
  async function askedQuestion(page: Page, questionIds: string[], language: 'english' | 'french'): Promise<string> {
    const email = `customer.${language}.${Date.now()}@example.test`;
    await company.api('POST', '/api/testimonials/request', { customer_email: email, customer_name: 'Camille Durand', question_ids: questionIds, language });
    await page.goto(await waitForMailLink(server, email, '/testimonial/submit/'));
    await page.check('[data-testid="consent"]');
    await page.click('[data-testid="continue"]');
    await page.click('[data-testid="start-recording-step"]:not([disabled])');
    await page.waitForSelector('[data-testid="question-panel"] h1');
    expect(await page.getAttribute('html', 'lang')).toBe(language === 'french' ? 'fr' : 'en');
    return page.locator('[data-testid="question-panel"] h1').innerText();
  }

  it('writes a question in both languages and one in French only; each request asks it in its language, or falls back', { timeout: 180_000 }, async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInInBrowser(page, server, company);
    await page.goto(`${server.url}/dashboard/questions`);
    await page.waitForSelector('[data-testid="questions-empty"]');

    // Neither language written: said, and nothing sent.
    await page.click('[data-testid="question-submit"]');
    await page.waitForSelector('text=Write the question in English, in French, or in both.');

    await page.fill('[data-field="question-text-en"]', BOTH.en);
    await page.fill('[data-field="question-text-fr"]', BOTH.fr);
    await page.click('[data-testid="question-submit"]');
    await page.waitForSelector('[data-testid="question-row"][data-position="1"]');
    await page.fill('[data-field="question-text-fr"]', FRENCH_ONLY);
    await page.click('[data-testid="question-submit"]');
    await page.waitForSelector('[data-testid="question-row"][data-position="2"]');

    // The list: in the interface's language, the French-only question marked 'No English' and shown in French.
    const rows = page.locator('[data-testid="question-row"]');
    expect(await rows.nth(0).locator('[data-testid="question-missing-language"]').count()).toBe(0);
    expect(await rows.nth(0).locator('[data-testid="question-text"]').innerText()).toContain(BOTH.en);
    expect(await rows.nth(1).locator('[data-testid="question-missing-language"]').getAttribute('data-language')).toBe('en');
    expect(await rows.nth(1).locator('[data-testid="question-missing-language"]').innerText()).toContain('No English');
    expect(await rows.nth(1).locator('[data-testid="question-text"]').getAttribute('lang')).toBe('fr');
    await formShots(page, 'en');

    // In French, the French texts, and the first field is the French one.
    await setLanguage(page, 'fr');
    await page.reload();
    await page.waitForSelector('[data-testid="question-row"][data-position="2"]');
    expect(await rows.nth(0).locator('[data-testid="question-text"]').innerText()).toContain(BOTH.fr);
    expect(await page.getAttribute('[data-testid="question-text-input"]', 'data-field')).toBe('question-text-fr');
    await formShots(page, 'fr');

    const ids = (await company.api<{ id: string }[]>('GET', `/api/questions/list?company_id=${company.companyId}`)).map((q) => q.id);

    // A French request asks the French text; an English one asking the French-only question falls back to it.
    const customer = await browser.context.newPage();
    const customerErrors = watchErrors(customer);
    await customer.setViewportSize({ width: 375, height: 812 });
    expect(await askedQuestion(customer, ids, 'french')).toBe(BOTH.fr);
    await screenshot(customer, 'questions-bilingual-recording-fr', { settle: false, fullPage: false });
    expect(await askedQuestion(customer, [ids[1]!], 'english')).toBe(FRENCH_ONLY);
    expect(await askedQuestion(customer, [ids[0]!], 'english')).toBe(BOTH.en);
    expect([...errors, ...customerErrors]).toEqual([]);
  });
});
