import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, setLanguage, watchErrors, type BrowserSession } from './support/browser.js';
import { recordTestimonial, signInInBrowser, signUpCompany, type Company, type RecordedTestimonial } from './support/fixtures.js';
import { startServer, type RunningServer } from './support/server.js';

/**
 * Publishing from the testimonial detail page (issue 19), in Chromium against the built app with real
 * workers: an answer of a paid testimonial is published from its card in one click, its link copied
 * from the dialog, its share page opened in a new page (the customer's name, a video that plays),
 * then unpublished from the same dialog, after which the share page answers 404. Screenshots of the
 * dialog at 375 and 1280 px in English and French, and of the share page, go to SHOTS_DIR.
 */

const SHOTS_DIR = process.env.PUBLISH_SHOTS_DIR ?? '/tmp/shots-publish';

interface DetailResponse {
  testimonial: { testimonial_responses: { id: string; poster_url?: string | null }[] } | null;
}

async function shot(page: Page, name: string): Promise<void> {
  await mkdir(SHOTS_DIR, { recursive: true });
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, { timeout: 5000 }).catch(() => undefined);
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`) });
}


describe('publishing an answer from the detail page', () => {
  let server: RunningServer;
  let browser: BrowserSession;
  let company: Company;
  let recorded: RecordedTestimonial;

  beforeAll(async () => {
    server = await startServer();
    browser = await openBrowser({ locale: 'en-US' });
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    company = await signUpCompany(server, { prefix: 'publish' });
    await company.api('PUT', '/api/user/complete-onboarding', {});
    recorded = await recordTestimonial(server, company, { customerName: 'Claire Dubois', clips: [{ seconds: 3, tone: 440 }] });
    await company.api('POST', `/api/testimonials/pay/${recorded.id}`, {});
    // The answer plays (and can be published) once its transcode job has run.
    const deadline = Date.now() + 90_000;
    for (;;) {
      const detail = await company.api<DetailResponse>('GET', `/api/testimonials/request/${recorded.id}?company_id=${company.companyId}`);
      if (detail.testimonial?.testimonial_responses.every((a) => a.poster_url)) break;
      if (Date.now() > deadline) throw new Error('the answer was not transcoded within 90 s');
      await new Promise((r) => setTimeout(r, 500));
    }
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('publishes, copies the link, plays the share page, then unpublishes', { timeout: 180_000 }, async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInInBrowser(page, server, company);
    await page.goto(`${server.url}/dashboard/testimonials/${recorded.id}`);

    const card = page.locator('[data-testid="response-card"]');
    const publish = card.locator('[data-testid="action-publish"]');
    await publish.waitFor();
    expect(await publish.getAttribute('data-published')).toBe('false');
    await publish.click();
    const dialog = page.locator('[data-testid="publish-dialog"]');
    const link = dialog.locator('[data-testid="publish-link"]');
    await link.waitFor({ timeout: 15_000 });
    const url = await link.inputValue();
    expect(url).toMatch(new RegExp(`^${server.url.replace(/[.]/g, '\\.')}/v/[A-Za-z0-9_-]{22}$`));
    expect(await dialog.locator('[data-testid="publish-embed"]').inputValue()).toContain(`${server.url}/embed/`);
    expect(await dialog.locator('[data-testid="publish-open"]').getAttribute('href')).toBe(url);

    // Copy the link: the clipboard holds it, and the button says so.
    await dialog.locator('[data-testid="publish-copy-link"]').click();
    await expect.poll(() => dialog.locator('[data-testid="publish-copy-link"]').getAttribute('data-copied')).toBe('true');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(url);
    await shot(page, 'publish-dialog-en-1280');

    // The poster (issue 27 item 12): automatic at first; the slider seeks the published video, and
    // "Use this frame" makes the frame near its end the poster.
    const section = dialog.locator('[data-testid="poster-section"]');
    expect(await section.locator('[data-testid="poster-status"]').textContent()).toContain('chosen automatically');
    const slider = section.locator('[data-testid="poster-moment"]');
    await expect.poll(() => slider.isEnabled(), { timeout: 15_000 }).toBe(true);
    await slider.focus();
    await page.keyboard.press('End');
    expect(await section.locator('[data-testid="poster-position"]').textContent()).toMatch(/^0:0[2-4] of 0:0[2-4]$/);
    await section.locator('[data-testid="poster-use"]').click();
    await section.locator('[data-testid="poster-saved"]').waitFor();
    await expect.poll(() => section.locator('[data-testid="poster-status"]').textContent()).toMatch(/the frame at 0:0[2-4]/);
    await section.scrollIntoViewIfNeeded();
    await shot(page, 'publish-poster-en-1280');

    // The share page, in a new page: the customer's name, the video's length on its poster, and a video that plays.
    const share = await browser.context.newPage();
    await share.setViewportSize({ width: 1280, height: 900 });
    const response = await share.goto(copied);
    expect(response?.status()).toBe(200);
    expect(await share.textContent('body')).toContain(recorded.customerName);
    const badge = share.locator('.player .len');
    expect(await badge.isVisible()).toBe(true);
    expect(await badge.textContent()).toMatch(/^Length 0:0[2-4]$/);
    await shot(share, 'share-page-poster-1280');
    const video = share.locator('video');
    await video.evaluate(async (element: HTMLVideoElement) => {
      element.muted = true;
      await element.play();
    });
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 15_000, interval: 200 }).toBeGreaterThan(0);
    // Playing, the length badge steps aside (the player's own controls show the time).
    expect(await badge.isVisible()).toBe(false);
    await video.evaluate((element: HTMLVideoElement) => {
      element.pause();
      element.currentTime = 0;
    });
    await shot(share, 'share-page-1280');
    await share.setViewportSize({ width: 375, height: 812 });
    await shot(share, 'share-page-375');
    await share.close();

    // Closed, the card says published; reopened, the same dialog, also on a phone and in French.
    await dialog.locator('[data-testid="publish-done"]').click();
    await dialog.waitFor({ state: 'detached' });
    expect(await publish.getAttribute('data-published')).toBe('true');
    expect(await card.locator('[data-testid="published-badge"]').count()).toBe(1);
    await page.setViewportSize({ width: 375, height: 812 });
    await publish.scrollIntoViewIfNeeded();
    await shot(page, 'detail-published-en-375');
    // By keyboard: Enter on the card's button opens the dialog, Escape closes it and gives the focus back.
    await publish.focus();
    await page.keyboard.press('Enter');
    await link.waitFor();
    expect(await link.inputValue()).toBe(url);
    await shot(page, 'publish-dialog-en-375');
    await dialog.locator('[data-testid="poster-section"]').scrollIntoViewIfNeeded();
    await shot(page, 'publish-poster-en-375');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('action-publish');
    await publish.click();
    await link.waitFor();
    await setLanguage(page, server, browser, 'fr');
    await publish.click();
    await link.waitFor();
    expect(await dialog.textContent()).toContain('Code d’intégration');
    await shot(page, 'publish-dialog-fr-375');
    await dialog.locator('[data-testid="poster-section"]').scrollIntoViewIfNeeded();
    await shot(page, 'publish-poster-fr-375');
    await page.setViewportSize({ width: 1280, height: 900 });
    await shot(page, 'publish-dialog-fr-1280');
    await dialog.locator('[data-testid="poster-section"]').scrollIntoViewIfNeeded();
    await shot(page, 'publish-poster-fr-1280');
    await setLanguage(page, server, browser, 'en');

    // Unpublish, after confirming: the card offers to publish again and the share page is gone.
    await publish.click();
    await dialog.locator('[data-testid="publish-unpublish"]').click();
    await page.locator('[data-testid="unpublish-dialog"]').waitFor();
    await shot(page, 'unpublish-confirm-en-1280');
    await page.click('[data-testid="unpublish-confirm"]');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => publish.getAttribute('data-published')).toBe('false');
    expect((await fetch(url)).status).toBe(404);
    const gone = await browser.context.newPage();
    expect((await gone.goto(url))?.status()).toBe(404);
    await gone.close();
    await page.close();
    expect(errors).toEqual([]);
  });
});
