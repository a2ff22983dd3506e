import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, screenshot, watchErrors, type BrowserSession } from './support/browser.js';
import { recordTestimonial, signInInBrowser, signUpCompany, type Company } from './support/fixtures.js';
import { startServer, type RunningServer } from './support/server.js';

/**
 * No raw message key, ever (issue 27, item 5). With the interface in English and a request in French,
 * the request preview showed `requests.preview.greeting`, `requests.preview.cta`…: the app loads only
 * the catalogue of the language it shows, and the preview asked the other one before it had arrived.
 * This journey renders every screen of the app and the preview in both languages and in the mixed
 * cases (interface in one language, request in the other), and the e-mails sent on the way, and fails
 * on any text that is a key of the catalogues.
 */

const root = path.resolve(import.meta.dirname, '../..');

/** Every key of a catalogue, dotted (`requests.preview.greeting`), and every prefix of one. */
function keysOf(file: string): Set<string> {
  const keys = new Set<string>();
  const walk = (node: unknown, prefix: string) => {
    if (!node || typeof node !== 'object') return;
    for (const [name, value] of Object.entries(node)) {
      const key = prefix ? `${prefix}.${name}` : name;
      if (prefix) keys.add(key);
      walk(value, key);
    }
  };
  walk(JSON.parse(readFileSync(path.join(root, 'src/web/i18n', file), 'utf8')), '');
  return keys;
}

const KEYS = new Set([...keysOf('en.json'), ...keysOf('mail.en.json')]);

/** The dotted words of a text that are keys of the catalogues (a key shown instead of its message). */
function keysIn(text: string): string[] {
  return [...new Set(text.match(/[A-Za-z][\w-]*(?:\.[\w-]+)+/g) ?? [])].filter((word) => KEYS.has(word) || KEYS.has(word.replace(/_(one|other|many|zero)$/, '')));
}

describe('message keys', () => {
  let server: RunningServer;
  let browser: BrowserSession;
  let company: Company;
  let french: { id: string };

  beforeAll(async () => {
    server = await startServer();
    company = await signUpCompany(server);
    await company.api('POST', '/api/questions/add', { company_id: company.companyId, text: 'What changed for you after working with us?', order_position: 1 });
    french = await recordTestimonial(server, company, { language: 'french', customerName: 'Camille Durand' });
    await company.api('POST', `/api/testimonials/pay/${french.id}`);
    browser = await openBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const setLanguage = async (page: Page, lang: 'en' | 'fr') => {
    await page.context().addCookies([{ name: 'i18next', value: lang, url: server.url }]);
    await page.evaluate((l) => localStorage.setItem('i18nextLng', l), lang);
  };

  /** The page's visible text once its content has settled (no skeleton, no spinner left). */
  async function settledText(page: Page): Promise<string> {
    await page.waitForLoadState('networkidle');
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), undefined, { timeout: 15_000 }).catch(() => undefined);
    return page.evaluate(() => document.body.innerText);
  }

  it('shows no message key on any screen, in either language, nor in the preview of a request in the other language', { timeout: 240_000 }, async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    const found: string[] = [];
    const check = async (where: string) => {
      for (const key of keysIn(await settledText(page))) found.push(`${where}: ${key}`);
    };

    for (const url of ['/', '/signin', '/signup', '/forgot-password', '/no-such-page']) {
      for (const lang of ['en', 'fr'] as const) {
        await page.goto(`${server.url}${url}`);
        await setLanguage(page, lang);
        await page.reload();
        await check(`${url} (${lang})`);
      }
    }

    await signInInBrowser(page, server, company);
    const screens = [
      '/dashboard',
      '/dashboard/questions',
      '/dashboard/requests',
      `/dashboard/request/${french.id}`,
      '/dashboard/testimonials',
      `/dashboard/testimonials/${french.id}`,
      '/dashboard/settings',
      '/dashboard/payment',
      '/dashboard/transaction',
      '/dashboard/wall',
    ];
    for (const lang of ['en', 'fr'] as const) {
      await setLanguage(page, lang);
      for (const url of screens) {
        await page.goto(`${server.url}${url}`);
        // The onboarding tour, when it opens, is part of the screen too; then it is closed.
        await check(`${url} (${lang})`);
        await page.keyboard.press('Escape');
      }
    }

    // The preview of a request in the other language than the interface's, both ways.
    for (const [ui, request, greeting] of [
      ['en', 'french', 'Bonjour Camille'],
      ['fr', 'english', 'Hi Camille'],
    ] as const) {
      await setLanguage(page, ui);
      await page.goto(`${server.url}/dashboard/requests`);
      await page.waitForSelector('[data-testid="request-form"]');
      await page.fill('input[name="customer_name"]', 'Camille');
      await page.selectOption('select[name="language"]', request);
      await page.click('[data-testid="request-preview"]');
      await page.waitForSelector('[data-testid="preview-content"]');
      const preview = await page.innerText('[data-testid="preview-dialog"]');
      expect(preview).toContain(greeting);
      expect(keysIn(preview), `preview of a ${request} request, interface in ${ui}`).toEqual([]);
      await screenshot(page, `message-keys-preview-${request}-ui-${ui}-1280`, { fullPage: false });
      await page.keyboard.press('Escape');
    }

    // The e-mails sent on the way (sign-up, the customer's invitation), as the outbox holds them.
    const mails = (await (await fetch(`${server.url}/dev/outbox/messages.json`)).json()) as { subject: string; text: string }[];
    expect(mails.length).toBeGreaterThan(0);
    for (const mail of mails) for (const key of keysIn(`${mail.subject}\n${mail.text}`)) found.push(`e-mail "${mail.subject}": ${key}`);

    expect(found).toEqual([]);
    expect(errors).toEqual([]);
  });
});
