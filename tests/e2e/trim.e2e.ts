import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, screenshot, setLanguage, watchErrors, type BrowserSession } from './support/browser.js';
import { recordTestimonial, signInInBrowser, signUpCompany, type Company, type RecordedTestimonial } from './support/fixtures.js';
import { until } from './support/until.js';
import { startServer, type RunningServer } from './support/server.js';

/**
 * Trims (issue 31, decision 201) in Chromium: the company opens Trim on an answer's card, moves the
 * thumbs with the keyboard (a frame per arrow, a second with Shift), sees the times, saves; the card
 * says the answer is trimmed and the detail carries the trim. In English and in French, on a phone and
 * on a desktop. The renders that honour the trim are tested with real ffmpeg (studio/trim.test.ts).
 */

interface Detail {
  testimonial: { testimonial_responses: { id: string; poster_url?: string | null; trim_start?: number | null; trim_end?: number | null }[] } | null;
}



describe('trimming an answer', () => {
  let server: RunningServer;
  let browser: BrowserSession;
  let company: Company;
  let testimonial: RecordedTestimonial;
  let responseId: string;
  let page: Page;
  let errors: string[];
  const detail = () => company.api<Detail>('GET', `/api/testimonials/request/${testimonial.id}?company_id=${company.companyId}`);

  beforeAll(async () => {
    server = await startServer();
    browser = await openBrowser({ locale: 'en-US' });
    company = await signUpCompany(server);
    testimonial = await recordTestimonial(server, company, { questions: ['What made you choose us?'], customerName: 'Ada Lovelace', clips: [{ seconds: 5, tone: 440 }] });
    await company.api('POST', `/api/testimonials/pay/${testimonial.id}`);
    await company.api('PUT', '/api/user/complete-onboarding', {});
    const prepared = await until('the answer to be prepared', detail, (d) => Boolean(d.testimonial?.testimonial_responses.every((r) => r.poster_url)));
    responseId = prepared.testimonial!.testimonial_responses[0]!.id;
    page = await browser.context.newPage();
    errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInInBrowser(page, server, company);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const card = () => page.locator(`[data-testid="response-card"][data-response-id="${responseId}"]`);
  const dialog = () => page.locator('[data-testid="trim-dialog"]');
  const open = async () => {
    await page.goto(`${server.url}/dashboard/testimonials/${testimonial.id}`);
    await card().locator('[data-testid="action-trim"]').click();
    await dialog().locator('[data-testid="trim-start"]').waitFor();
  };

  it('moves the thumbs by the frame and by the second from the keyboard, saves, and says the answer is trimmed', async () => {
    await open();
    const start = dialog().locator('[data-testid="trim-start"]');
    await start.focus();
    await page.keyboard.press('Shift+ArrowRight');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    expect(await start.getAttribute('aria-valuetext')).toBe('0:01.10');
    await dialog().locator('[data-testid="trim-end"]').focus();
    await page.keyboard.press('Shift+ArrowLeft');
    const kept = Number(await dialog().locator('[data-testid="trim-end"]').getAttribute('aria-valuenow')) - 1.1;
    expect(await dialog().locator('[data-testid="trim-kept-time"]').textContent()).toBe(`0:0${kept.toFixed(2)}`);
    // The player shows the frame at the thumb moved last.
    await page.waitForFunction(() => {
      const v = document.querySelector<HTMLVideoElement>('[data-testid="trim-video"]');
      return v && Math.abs(v.currentTime - Number(document.querySelector('[data-testid="trim-end"]')?.getAttribute('aria-valuenow'))) < 0.05;
    });
    await screenshot(page, 'trim-en-1280', { fullPage: false });
    await page.setViewportSize({ width: 375, height: 812 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, 'trim-en-375', { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 900 });
    await dialog().locator('[data-testid="trim-save"]').click();
    await dialog().waitFor({ state: 'detached' });
    const saved = (await detail()).testimonial!.testimonial_responses[0]!;
    expect(saved.trim_start).toBeCloseTo(1.1, 2);
    expect(saved.trim_end).toBeCloseTo(kept + 1.1, 2);
    await card().getByText('Trimmed', { exact: true }).waitFor();

    await setLanguage(page, server, browser, 'fr');
    await open();
    expect(await dialog().textContent()).toContain('Couper la réponse 1');
    expect(await dialog().locator('[data-testid="trim-start"]').getAttribute('aria-valuetext')).toBe('0:01.10');
    await screenshot(page, 'trim-fr-1280', { fullPage: false });
    await page.setViewportSize({ width: 375, height: 812 });
    await screenshot(page, 'trim-fr-375', { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(errors).toEqual([]);
  }, 120_000);
});
