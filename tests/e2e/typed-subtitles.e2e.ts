import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, screenshot, setLanguage, watchErrors, type BrowserSession } from './support/browser.js';
import { recordTestimonial, signInInBrowser, signUpCompany, type Company, type RecordedTestimonial } from './support/fixtures.js';
import { until } from './support/until.js';
import { startServer, type RunningServer } from './support/server.js';

/**
 * Subtitles without an engine, and listening while correcting (issue 27, items 2 and 3; decisions
 * 166, 167), in Chromium on a default install (no TRANSCRIBE_URL: the offline engine knows English
 * only). A French answer: the company is told in its language that automatic transcription is not set
 * up, types the subtitles while the answer plays (adds lines at the player's time, sets an end, splits
 * and joins) and saves them. Then the review's player on the saved lines: a line's button seeks to it, the
 * line showing is highlighted, and Alt+R replays the current line from a text field without typing;
 * and Generate burns the typed lines in.
 */

interface Detail {
  testimonial: { testimonial_responses: { id: string; poster_url?: string | null; has_subtitles: boolean }[] } | null;
}



/** Moves the review's player to `seconds` and waits until it is there. */
async function seekTo(video: Locator, seconds: number) {
  await video.evaluate(async (element, s) => {
    const v = element as HTMLVideoElement;
    if (v.readyState < 1) await new Promise((r) => v.addEventListener('loadedmetadata', r, { once: true }));
    v.pause();
    v.currentTime = s;
    await new Promise((r) => v.addEventListener('seeked', r, { once: true }));
  }, seconds);
}

const texts = (dialog: Locator) => dialog.locator('[data-testid="cue-text"]').evaluateAll((areas) => areas.map((a) => (a as HTMLTextAreaElement).value));

describe('typed subtitles and the review player', () => {
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
    testimonial = await recordTestimonial(server, company, {
      questions: ['Comment s’est passé notre travail ensemble ?'],
      customerName: 'Claire Dubois',
      language: 'french',
      clips: [{ seconds: 6, tone: 330 }],
    });
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

  const dialog = () => page.locator('[data-testid="transcription-review-dialog"]');
  const openReview = async () => {
    await page.goto(`${server.url}/dashboard/testimonials/${testimonial.id}`);
    await page.locator(`[data-testid="response-card"][data-response-id="${responseId}"] [data-testid="action-subtitles"]`).click();
    await dialog().waitFor();
  };

  it('offers to type the subtitles of a French answer, in the person\'s language, and saves the typed lines', async () => {
    // English interface: the reason in English, no retry, no word for the operator.
    await openReview();
    const notSetUp = dialog().locator('[data-testid="transcription-not-set-up"]');
    await notSetUp.waitFor();
    expect(await notSetUp.textContent()).toContain('Automatic subtitles are not available in this language');
    expect(await dialog().textContent()).not.toMatch(/TRANSCRIBE_URL|Failed to transcribe|Retry/);
    expect(await dialog().locator('[data-testid="generate-subtitles"]').isDisabled()).toBe(true);
    expect(server.logs()).toMatch(/cannot transcribe 'fr': set TRANSCRIBE_URL/);
    await dialog().locator('[data-testid="type-subtitles"]').click();
    const video = dialog().locator('[data-testid="review-video"]');
    await video.waitFor();
    await dialog().locator('[data-testid="typed-empty"]').waitFor();
    await seekTo(video, 0.4);
    await dialog().locator('[data-testid="add-cue"]').click();
    await page.keyboard.type('Working with your team was a pleasure.');
    await seekTo(video, 2.6);
    await dialog().locator('[data-testid="add-cue"]').click();
    await page.keyboard.type('I recommend you to everyone.');
    await screenshot(page, 'typed-subtitles-en-1280', { fullPage: false });
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, 'typed-subtitles-en-375', { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 900 });

    // French interface, the whole way to the subtitled video.
    await setLanguage(page, server, browser, 'fr');
    await openReview();
    await notSetUp.waitFor();
    expect(await notSetUp.textContent()).toContain('ne sont pas disponibles dans cette langue');
    expect(await dialog().textContent()).not.toMatch(/TRANSCRIBE_URL|Réessayer|Échec de la transcription/);
    await dialog().locator('[data-testid="type-subtitles"]').click();
    await video.waitFor();
    await seekTo(video, 0.5);
    // The button says the player's time; the new line starts there.
    expect(await dialog().locator('[data-testid="add-cue"]').textContent()).toContain('00:00.500');
    await dialog().locator('[data-testid="add-cue"]').click();
    await page.keyboard.type('Travailler avec votre équipe a été un plaisir.');
    await seekTo(video, 3);
    await dialog().locator('[data-testid="add-cue"]').click();
    await page.keyboard.type('Je vous recommande à tous.');
    const rows = dialog().locator('[data-testid="cue-row"]');
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).locator('[data-testid="cue-start"]').inputValue()).toBe('0.5');
    expect(await rows.nth(1).locator('[data-testid="cue-start"]').inputValue()).toBe('3');
    // Set the second line's end by hand.
    await rows.nth(1).locator('[data-testid="cue-end"]').fill('5,5');
    await rows.nth(1).locator('[data-testid="cue-end"]').press('Enter');
    expect(await rows.nth(1).locator('[data-testid="cue-end"]').inputValue()).toBe('5.5');
    // An end before the start is said at once, on the line, and blocks saving.
    await rows.nth(0).locator('[data-testid="cue-end"]').fill('0.2');
    await rows.nth(0).locator('[data-testid="cue-end"]').press('Enter');
    expect(await rows.nth(0).textContent()).toContain('La ligne 1 doit finir après son début.');
    expect(await dialog().locator('[data-testid="generate-subtitles"]').isDisabled()).toBe(true);
    await rows.nth(0).locator('[data-testid="cue-end"]').fill('2.5');
    await rows.nth(0).locator('[data-testid="cue-end"]').press('Enter');
    // Split the first line in the middle (the player is outside it), then join it back.
    await rows.nth(0).locator('[data-testid="cue-split"]').click();
    expect(await rows.count()).toBe(3);
    expect(await texts(dialog())).toEqual(['Travailler avec votre équipe', 'a été un plaisir.', 'Je vous recommande à tous.']);
    expect(await rows.nth(1).locator('[data-testid="cue-start"]').inputValue()).toBe('1.5');
    await rows.nth(0).locator('[data-testid="cue-join"]').click();
    expect(await texts(dialog())).toEqual(['Travailler avec votre équipe a été un plaisir.', 'Je vous recommande à tous.']);
    await screenshot(page, 'typed-subtitles-fr-1280', { fullPage: false });
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, 'typed-subtitles-fr-375', { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 900 });

    // Save: the lines are stored, and Generate burns them in.
    await dialog().locator('[data-testid="save-subtitles"]').click();
    await dialog().locator('[data-testid="subtitles-saved"]').waitFor();
    const stored = await company.api<{ transcription: { start: number; end: number; text: string; words?: { start: number; end: number; text: string }[] }[] }>(
      'POST',
      `/api/testimonials/response/${responseId}/transcribe`,
    );
    expect(stored.transcription).toMatchObject([
      { start: 0.5, end: 2.5, text: 'Travailler avec votre équipe a été un plaisir.' },
      { start: 3, end: 5.5, text: 'Je vous recommande à tous.' },
    ]);
    // Typed lines get their words timed by the server, shared out inside each line (decision 205).
    for (const line of stored.transcription) {
      expect((line.words ?? []).map((w) => w.text).join(' ')).toBe(line.text);
      expect((line.words ?? []).every((w) => w.start >= line.start && w.end <= line.end)).toBe(true);
    }
    expect(await dialog().locator('[data-testid="generate-subtitles"]').isEnabled()).toBe(true);
    // The browser reports the two refusals (422) it was shown as 'not set up'; nothing else went wrong.
    expect(errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
    expect(errors).toHaveLength(2);
    errors.length = 0;
  }, 240_000);

  it('seeks to a clicked line, highlights the line playing, replays the current line on Alt+R from a text field, then burns the lines in', async () => {
    // The saved lines, in the review as it opens for any transcript (the dialog is still open).
    const rows = dialog().locator('[data-testid="cue-row"]');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(2);
    expect(await dialog().locator('[data-testid="replay-hint"]').textContent()).toContain('Alt+R');
    const video = dialog().locator('[data-testid="review-video"]');
    await seekTo(video, 0);
    const time = () => video.evaluate((v) => (v as HTMLVideoElement).currentTime);

    await rows.nth(1).locator('[data-testid="cue-seek"]').click();
    await page.waitForFunction(() => Math.abs((document.querySelector('[data-testid="review-video"]') as HTMLVideoElement).currentTime - 3) < 0.05);
    await rows.nth(1).and(page.locator('[data-active="true"]')).waitFor();

    // Played from the start, the first line lights up while it plays.
    await video.evaluate((v) => {
      const el = v as HTMLVideoElement;
      el.muted = true;
      el.currentTime = 0.6;
      return el.play();
    });
    await rows.nth(0).and(page.locator('[data-active="true"]')).waitFor({ timeout: 5000 });
    expect(await time()).toBeGreaterThanOrEqual(0.5);
    expect(await time()).toBeLessThan(2.5);
    await video.evaluate((v) => (v as HTMLVideoElement).pause());

    // Alt+R from the second line's text field: back to its start, playing, and nothing typed.
    await seekTo(video, 4.2);
    const field = rows.nth(1).locator('[data-testid="cue-text"]');
    await field.click();
    const before = await field.inputValue();
    await page.keyboard.press('Alt+KeyR');
    await page.waitForFunction(() => {
      const v = document.querySelector('[data-testid="review-video"]') as HTMLVideoElement;
      return !v.paused && v.currentTime >= 3 && v.currentTime < 4;
    });
    expect(await field.inputValue()).toBe(before);
    await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
    // It stops at the line's end.
    await page.waitForFunction(() => (document.querySelector('[data-testid="review-video"]') as HTMLVideoElement).paused, undefined, { timeout: 8000 });
    expect(await time()).toBeGreaterThanOrEqual(5.4);
    await screenshot(page, 'transcription-review-player-fr-1280', { fullPage: false });

    // Generate burns the typed lines in, as it would an engine's.
    await dialog().locator('[data-testid="generate-subtitles"]').click();
    await dialog().waitFor({ state: 'detached' });
    await until('the subtitled answer', detail, (d) => Boolean(d.testimonial?.testimonial_responses[0]?.has_subtitles));
    expect(errors).toEqual([]);
  }, 180_000);
});
