import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, screenshot, setLanguage, watchErrors, type BrowserSession } from './support/browser.js';
import { recordTestimonial, signInInBrowser, signUpCompany, type Company, type RecordedTestimonial } from './support/fixtures.js';
import { startServer, type RunningServer } from './support/server.js';

const run = promisify(execFile);

/**
 * The video studio on the testimonial detail page (issues 6 and 7; spec: company dashboard §2, §4, §8):
 * a testimonial of two short answers unlocked with the welcome credit from the page (the header's
 * balance follows), the no-credits and not-found messages, the company's question style set through
 * the API, then in Chromium against the built app, with real workers and real ffmpeg: generate an intro (confirm, the
 * processing modal, the success banner), play the enhanced answer, only one video playing at a time;
 * merge the answers and play the merged video; export 9:16 through the export dialog and fetch the
 * exported file from the 'export ready' banner's address. Screenshots at 375 and 1280 px in English
 * and French, before and after the enhanced versions exist.
 */

interface DetailResponse {
  testimonial: {
    testimonial_responses: { id: string; poster_url?: string | null; modified_video_url: string | null }[];
    video_url: string | null;
  } | null;
}

const RENDER_TIMEOUT = 120_000;

/** Waits until the video's current time passes `seconds` after asking it to play. */
async function expectPlays(video: Locator, seconds = 0.5): Promise<void> {
  await video.evaluate(async (element: HTMLVideoElement) => {
    element.muted = true;
    await element.play();
  });
  await expect
    .poll(async () => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 15_000, interval: 200 })
    .toBeGreaterThan(seconds);
}

/** The elements that stick out of the viewport on the right (none expected on a phone). */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5 && el.getClientRects().length > 0)
      .map((el) => `${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : ''}.${String(el.className).slice(0, 60)}`)
      .slice(0, 8),
  );
}

async function isPaused(video: Locator): Promise<boolean> {
  return video.evaluate((element: HTMLVideoElement) => element.paused);
}


/** Waits until every player shows a picture, so that screenshots are not taken mid-load. */
async function videosReady(page: Page): Promise<void> {
  await page.waitForFunction(() => [...document.querySelectorAll('video')].every((v) => v.readyState >= 2), undefined, { timeout: 15_000 });
}

/** Confirms a studio action and follows it through the processing modal to the success banner. */
async function confirmAndWait(page: Page, options: { background?: boolean } = {}): Promise<void> {
  await page.waitForSelector('[data-testid="confirm-dialog"]');
  await page.click('[data-testid="confirm-action"]');
  await page.waitForSelector('[data-testid="processing-modal"]');
  expect(await page.locator('[data-testid="processing-modal"] [role="progressbar"]').count()).toBe(1);
  // One promise (issue 27): the page may be left, an e-mail follows; nothing asks to keep it open.
  const promise = await page.locator('[data-testid="processing-modal"]').innerText();
  expect(promise).toMatch(/You can leave this page: we will e-mail you|Vous pouvez quitter cette page/);
  expect(promise).not.toMatch(/do not close|keep this (page|window) open|ne pas fermer|garder cette/i);
  // Every action is disabled while the job runs (spec §4).
  for (const action of await page.locator('[data-testid^="action-"]:not([data-testid="action-download-original"])').all()) {
    const disabled = await action.evaluate((el) => (el as HTMLButtonElement).disabled || el.getAttribute('aria-disabled') === 'true');
    expect(disabled).toBe(true);
  }
  if (options.background) {
    // Dismissed, the modal leaves a progress banner on the page; the render goes on.
    await page.click('[data-testid="processing-background"]');
    await page.waitForSelector('[data-testid="job-status"]');
    await page.waitForSelector('[data-testid="processing-modal"]', { state: 'detached' });
  }
  await page.waitForSelector('[data-testid="success-banner"]', { timeout: RENDER_TIMEOUT });
  await page.waitForSelector('[data-testid="processing-modal"]', { state: 'detached' });
  expect(await page.locator('[data-testid="job-status"]').count()).toBe(0);
}

describe('video studio on the testimonial detail page', () => {
  let server: RunningServer;
  let browser: BrowserSession;
  let company: Company;
  let recorded: RecordedTestimonial;
  let second: RecordedTestimonial;
  let tmp: string;

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'vouchreel-studio-e2e-'));
    server = await startServer();
    browser = await openBrowser({ locale: 'en-US' });
    company = await signUpCompany(server);
    await company.api('PUT', '/api/user/complete-onboarding', {});

    // A question style of the company's own: the intro card must use it.
    const settings = await company.api<Record<string, unknown>>('GET', '/api/auth/settings');
    const { company_logo_url: _logo, ...fields } = settings;
    await company.api('POST', '/api/auth/update-settings', {
      ...fields,
      font_size_question: 44,
      font_color_question: '#fde047',
      font_style_question: 'Georgia',
      font_bold_question: true,
      background_color: '#312e81',
    });

    recorded = await recordTestimonial(server, company, {
      questions: ['What did you like most about working with us?', 'Would you recommend us to a friend?'],
      clips: [
        { seconds: 3, tone: 330 },
        { seconds: 3, tone: 550 },
      ],
    });
    second = await recordTestimonial(server, company, { customerName: 'Marc Lefèvre', clips: [{ seconds: 2, tone: 440 }] });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it(
    'unlocks a testimonial with the welcome credit, then says when credits run out or a testimonial does not exist',
    { timeout: 120_000 },
    async () => {
      const page = await browser.context.newPage();
      const errors = watchErrors(page);
      await page.setViewportSize({ width: 1280, height: 900 });
      await signInInBrowser(page, server, company);
      await page.goto(`${server.url}/dashboard/testimonials/${recorded.id}`);

      // Completed, unpaid, one credit left: the header and a pay-to-view offer, no media.
      await page.waitForSelector('[data-testid="testimonial-locked"]');
      expect(await page.textContent('[data-testid="testimonial-title"]')).toBe(recorded.customerName);
      expect(await page.locator('[data-testid="answer-video"]').count()).toBe(0);
      await page.waitForSelector('[data-testid="header-credits"]');
      expect(await page.textContent('[data-testid="header-credits"]')).toMatch(/\b1 credit\b/);
      await screenshot(page, 'studio-locked-en-1280');
      await page.click('[data-testid="pay-to-view"]');
      expect(await page.textContent('[data-testid="pay-dialog"]')).toContain(recorded.customerName);
      await page.click('[data-testid="confirm-action"]');
      await page.waitForSelector('[data-testid="success-banner"]');
      await page.waitForSelector('[data-testid="response-card"] [data-testid="answer-video"]');
      expect(await page.locator('[data-testid="response-card"]').count()).toBe(2);
      // The header's balance follows without a reload.
      await expect.poll(() => page.textContent('[data-testid="header-credits"]')).toMatch(/\b0 credit\b/);

      // Another completed testimonial, no credit left: the no-credits message and the way to buy.
      await page.goto(`${server.url}/dashboard/testimonials/${second.id}`);
      await page.waitForSelector('[data-testid="no-credits"]');
      expect(await page.getAttribute('[data-testid="no-credits-buy"]', 'href')).toBe('/dashboard/payment');
      await screenshot(page, 'studio-no-credits-en-1280');
      await page.setViewportSize({ width: 375, height: 812 });
      await setLanguage(page, server, browser, 'fr');
      await page.waitForSelector('[data-testid="no-credits"]');
      expect(await page.textContent('[data-testid="no-credits"]')).toContain('Acheter des crédits');
      await screenshot(page, 'studio-no-credits-fr-375');
      await setLanguage(page, server, browser, 'en');

      // An id that matches nothing: the not-found message.
      await page.goto(`${server.url}/dashboard/testimonials/00000000-0000-4000-8000-000000000000`);
      await page.waitForSelector('[data-testid="testimonial-not-found"]');
      expect(await page.textContent('[data-testid="testimonial-not-found"]')).toContain('does not exist or was deleted');
      await page.close();
      expect(errors).toEqual([]);
    },
  );

  it('generates an intro, merges the answers and exports 9:16', { timeout: 600_000 }, async () => {
    // The answers are transcoded by a job before the studio can use them (their poster appears).
    const deadline = Date.now() + 90_000;
    for (;;) {
      const detail = await company.api<DetailResponse>('GET', `/api/testimonials/request/${recorded.id}?company_id=${company.companyId}`);
      const answers = detail.testimonial?.testimonial_responses ?? [];
      if (answers.length === 2 && answers.every((a) => a.poster_url)) break;
      if (Date.now() > deadline) throw new Error('the answers were not transcoded within 90 s');
      await new Promise((r) => setTimeout(r, 500));
    }

    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInInBrowser(page, server, company);
    const detailUrl = `${server.url}/dashboard/testimonials/${recorded.id}`;
    await page.goto(detailUrl);

    // Header, answers in order with their players, nothing enhanced yet.
    await page.waitForSelector('[data-testid="response-card"] [data-testid="answer-video"]');
    expect(await page.textContent('[data-testid="testimonial-title"]')).toBe(recorded.customerName);
    expect(await page.getAttribute('[data-testid="testimonial-status"]', 'data-status')).toBe('completed');
    expect(await page.textContent('[data-testid="testimonial-email"]')).toBe(recorded.customerEmail);
    expect(await page.textContent('[data-testid="testimonial-position"]')).toBe('Head of Marketing');
    expect(await page.textContent('[data-testid="testimonial-date"]')).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    const cards = page.locator('[data-testid="response-card"]');
    expect(await cards.count()).toBe(2);
    expect(await cards.nth(0).textContent()).toContain(recorded.questions[0]!.text);
    expect(await cards.nth(1).textContent()).toContain(recorded.questions[1]!.text);
    const first = cards.nth(0);
    const second = cards.nth(1);
    const firstVideo = first.locator('[data-testid="answer-video"]');
    const secondVideo = second.locator('[data-testid="answer-video"]');
    for (const video of [firstVideo, secondVideo]) {
      expect(await video.getAttribute('src')).toMatch(/\/files\/.+[?&]sig=.+&t=\d+$/);
      expect(await video.getAttribute('preload')).toBe('metadata');
      expect(await video.getAttribute('poster')).toMatch(/poster\.jpg/);
    }
    // The original download is a real link to the answer.
    const original = await first.locator('[data-testid="action-download-original"]').getAttribute('href');
    expect((await fetch(new URL(original!, server.url))).status).toBe(200);
    // The matrix with no enhanced version: intro or subtitles, merge offered, no merged card.
    expect(await first.locator('[data-testid="action-intro"]').count()).toBe(1);
    expect(await first.locator('[data-testid="action-subtitles"]').count()).toBe(1);
    expect(await first.locator('[data-testid="action-view"]').count()).toBe(0);
    expect(await page.locator('[data-testid="action-merge"]').count()).toBe(1);
    expect(await page.locator('[data-testid="merged-card"]').count()).toBe(0);
    await videosReady(page);
    await screenshot(page, 'studio-detail-en-1280-original');
    await page.setViewportSize({ width: 375, height: 812 });
    await videosReady(page);
    await screenshot(page, 'studio-detail-en-375-original');
    expect(await overflowing(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await setLanguage(page, server, browser, 'fr');
    await page.waitForSelector('[data-testid="response-card"] [data-testid="answer-video"]');
    await videosReady(page);
    await screenshot(page, 'studio-detail-fr-375-original');
    await page.setViewportSize({ width: 1280, height: 900 });
    await videosReady(page);
    await screenshot(page, 'studio-detail-fr-1280-original');
    await setLanguage(page, server, browser, 'en');
    await page.waitForSelector('[data-testid="response-card"] [data-testid="answer-video"]');

    // Only one video plays at a time.
    await expectPlays(firstVideo, 0.2);
    await expectPlays(secondVideo, 0.2);
    expect(await isPaused(firstVideo)).toBe(true);
    await secondVideo.evaluate((element: HTMLVideoElement) => element.pause());

    // Generate the intro of the first answer: confirm, processing modal, success banner.
    await first.locator('[data-testid="action-intro"]').click();
    expect(await page.textContent('[data-testid="confirm-dialog"]')).toContain(recorded.questions[0]!.text);
    await page.click('[data-testid="confirm-action"]');
    await page.waitForSelector('[data-testid="processing-modal"]');
    await screenshot(page, 'studio-processing-en-1280', { settle: false, fullPage: false });
    for (const action of await page.locator('[data-testid^="action-"]:not([data-testid="action-download-original"])').all()) {
      expect(await action.evaluate((el) => (el as HTMLButtonElement).disabled || el.getAttribute('aria-disabled') === 'true')).toBe(true);
    }
    await page.waitForSelector('[data-testid="success-banner"]', { timeout: RENDER_TIMEOUT });
    await page.waitForSelector('[data-testid="processing-modal"]', { state: 'detached' });
    expect(await first.getAttribute('data-has-modified')).toBe('true');

    // The enhanced version plays (its address is the intro render's, with a timestamp).
    const enhancedSrc = await firstVideo.getAttribute('src');
    expect(enhancedSrc).toMatch(/\/intro-[0-9a-f-]+\.mp4\?.*&t=\d+$/);
    await expectPlays(firstVideo, 3.5); // past the ~3 s question card, into the answer
    // Enhanced version: view, download, export, regenerate; subtitles still offered; the original a click away.
    for (const id of [
      'action-view',
      'action-download',
      'action-export',
      'action-regenerate',
      'action-subtitles',
      'action-download-original',
    ]) {
      expect(await first.locator(`[data-testid="${id}"]`).count(), id).toBe(1);
    }
    expect(await first.locator('[data-testid="action-intro"]').count()).toBe(0);
    const enhancedDownload = await first.locator('[data-testid="action-download"]').getAttribute('href');
    const enhancedFile = await fetch(new URL(enhancedDownload!, server.url));
    expect(enhancedFile.status).toBe(200);
    expect(enhancedFile.headers.get('content-type')).toContain('video/mp4');
    await first.locator('[data-testid="version-original"]').click();
    expect(await firstVideo.getAttribute('src')).toMatch(/\/answer\.mp4\?/);
    await first.locator('[data-testid="version-modified"]').click();
    expect(await firstVideo.getAttribute('src')).toBe(enhancedSrc);
    // The success banner can be closed.
    await page.click('[data-testid="banner-close"]');
    expect(await page.locator('[data-testid="success-banner"]').count()).toBe(0);

    // The player modal pauses the card's video when it starts.
    await expectPlays(firstVideo, 0.1);
    await first.locator('[data-testid="action-view"]').click();
    const modalVideo = page.locator('[data-testid="modal-video"]');
    await modalVideo.waitFor();
    await expectPlays(modalVideo, 0.2);
    expect(await isPaused(firstVideo)).toBe(true);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="video-modal"]', { state: 'detached' });

    // Merge both answers, following the render in the background this time.
    await page.click('[data-testid="action-merge"]');
    await confirmAndWait(page, { background: true });
    const merged = page.locator('[data-testid="merged-card"]');
    await merged.waitFor();
    for (const id of ['action-merged-download', 'action-merged-export', 'action-regenerate-merged', 'action-merged-subtitles']) {
      expect(await merged.locator(`[data-testid="${id}"]`).count(), id).toBe(1);
    }
    expect(await page.locator('[data-testid="action-merge"]').count()).toBe(0);
    const mergedVideo = merged.locator('[data-testid="merged-video"]');
    expect(await mergedVideo.getAttribute('src')).toMatch(/\/merged-[0-9a-f-]+\.mp4\?.*&t=\d+$/);
    await expectPlays(firstVideo, 0.1);
    await expectPlays(mergedVideo, 1);
    expect(await isPaused(firstVideo)).toBe(true);
    await mergedVideo.evaluate((element: HTMLVideoElement) => element.pause());
    // Success banners go away by themselves after 10 s.
    await page.waitForSelector('[data-testid="success-banner"]', { state: 'detached', timeout: 12_000 });

    await page.evaluate(() => window.scrollTo(0, 0));
    await videosReady(page);
    await screenshot(page, 'studio-detail-en-1280-enhanced');
    await page.setViewportSize({ width: 375, height: 812 });
    await videosReady(page);
    await screenshot(page, 'studio-detail-en-375-enhanced');
    expect(await overflowing(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await setLanguage(page, server, browser, 'fr');
    await page.waitForSelector('[data-testid="merged-card"] [data-testid="merged-video"]');
    await videosReady(page);
    await screenshot(page, 'studio-detail-fr-375-enhanced');
    await page.setViewportSize({ width: 1280, height: 900 });
    await videosReady(page);
    await screenshot(page, 'studio-detail-fr-1280-enhanced');
    await setLanguage(page, server, browser, 'en');
    await page.waitForSelector('[data-testid="merged-card"] [data-testid="merged-video"]');

    // Export the enhanced first answer as 9:16 through the export dialog.
    await page.locator('[data-testid="response-card"]').nth(0).locator('[data-testid="action-export"]').click();
    await page.waitForSelector('[data-testid="export-dialog"]');
    await page.click('[data-testid="export-choice-modified"]');
    await page.click('[data-testid="export-next"]');
    await page.click('[data-testid="export-start"]', { timeout: 30_000 });
    await page.waitForSelector('[data-testid="export-ready-banner"]', { timeout: RENDER_TIMEOUT });
    const params = new URL(page.url()).searchParams;
    expect(params.get('export')).toBe('ready');
    const exportUrl = params.get('exportUrl');
    expect(exportUrl).toMatch(/\/files\/.+export-shorts-.+\.mp4\?/);
    const exported = await fetch(new URL(exportUrl!, server.url));
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toContain('video/mp4');
    const file = path.join(tmp, 'export.mp4');
    await writeFile(file, Buffer.from(await exported.arrayBuffer()));
    const { stdout } = await run('ffprobe', [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=width,height',
      '-of',
      'csv=p=0',
      file,
    ]);
    expect(stdout.trim()).toBe('1080,1920');
    await screenshot(page, 'studio-export-ready-en-1280', { fullPage: false });

    // Download opens the address in a new tab and removes the parameters.
    const [popup] = await Promise.all([page.context().waitForEvent('page'), page.click('[data-testid="export-ready-download"]')]);
    expect(popup.url()).toContain('export-shorts-');
    await popup.close();
    await page.waitForSelector('[data-testid="export-ready-banner"]', { state: 'detached' });
    expect(new URL(page.url()).search).toBe('');

    expect(errors).toEqual([]);
  });

  it('says honestly when an answer is still being prepared, or could not be, in English and French', { timeout: 180_000 }, async () => {
    // The states are made on the way (a transcode that fails or lasts is not reproducible at will):
    // the real detail of the recorded testimonial, with its first answer still being prepared and its
    // second failed, and their two jobs as GET /api/jobs/{id} would give them.
    const preparingJob = '6f5e4d3c-2b1a-4098-8f7e-6d5c4b3a2918';
    const failedJob = '3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a';
    const unreadable = { reason: 'unreadable_upload', params: {}, message: 'The recording could not be read. Ask the customer to record this answer again.' };
    // Unlocked by the first test; run alone, unlocked here.
    const current = await company.api<{ testimonial: { paid: boolean } | null }>('GET', `/api/testimonials/request/${recorded.id}?company_id=${company.companyId}`);
    if (!current.testimonial?.paid) await company.api('POST', `/api/testimonials/pay/${recorded.id}`);
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.route(`**/api/testimonials/request/${recorded.id}?*`, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { testimonial: Record<string, unknown> & { testimonial_responses: Record<string, unknown>[] } };
      const t = body.testimonial;
      Object.assign(t, { video_url: null, video_url_subtitles: null, has_subtitles: false, render_state: null });
      t.testimonial_responses.forEach((answer, index) => {
        const media =
          index === 0
            ? { jobId: preparingJob, phase: 'running', progress: 40, error: null }
            : { jobId: failedJob, phase: 'failed', progress: 0, error: unreadable };
        Object.assign(answer, { video_url: null, poster_url: null, modified_video_url: null, intro_generated: false, has_subtitles: false, render_state: null, media });
      });
      await route.fulfill({ response, json: body });
    });
    const job = (id: string, phase: string, extra: Record<string, unknown>) => ({
      id,
      kind: 'transcode',
      testimonialId: recorded.id,
      responseId: null,
      params: {},
      phase,
      progress: 0,
      error: null,
      outputUrl: null,
      attempts: 1,
      createdAt: new Date().toISOString(),
      startedAt: new Date().toISOString(),
      finishedAt: phase === 'failed' ? new Date().toISOString() : null,
      ...extra,
    });
    await page.route('**/api/jobs/*', (route) => {
      const id = new URL(route.request().url()).pathname.split('/').pop();
      const body = id === preparingJob ? job(preparingJob, 'running', { progress: 40 }) : job(failedJob, 'failed', { error: unreadable });
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
    });
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInInBrowser(page, server, company);
    await page.goto(`${server.url}/dashboard/testimonials/${recorded.id}`);

    const cards = page.locator('[data-testid="response-card"]');
    const preparing = cards.nth(0).locator('[data-testid="answer-media"]');
    const failed = cards.nth(1).locator('[data-testid="answer-media"]');
    await preparing.waitFor();
    expect(await preparing.getAttribute('data-phase')).toBe('preparing');
    await expect.poll(() => preparing.locator('[data-testid="job-percent"]').textContent()).toBe('40%');
    expect(await failed.getAttribute('data-phase')).toBe('failed');
    expect(await failed.textContent()).toContain('The recording could not be read. Ask the customer to record this answer again.');
    // An unreadable recording is recorded again by the customer: no retry is offered.
    expect(await failed.locator('[data-testid="job-retry"]').count()).toBe(0);
    // Never a player on a raw upload, and nothing to generate before the answers are ready.
    expect(await page.locator('[data-testid="answer-video"]').count()).toBe(0);
    expect(await page.locator('[data-testid="action-intro"]').count()).toBe(0);
    expect(await page.locator('[data-testid="action-merge"]').isDisabled()).toBe(true);
    await screenshot(page, 'studio-media-states-en-1280');
    await page.setViewportSize({ width: 375, height: 812 });
    await screenshot(page, 'studio-media-states-en-375');
    expect(await overflowing(page)).toEqual([]);
    await setLanguage(page, server, browser, 'fr');
    await preparing.waitFor();
    expect(await preparing.textContent()).toContain('Préparation de cette réponse…');
    expect(await failed.textContent()).toContain('L’enregistrement n’a pas pu être lu.');
    await screenshot(page, 'studio-media-states-fr-375');
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, 'studio-media-states-fr-1280');
    await setLanguage(page, server, browser, 'en');
    await page.close();
    expect(errors).toEqual([]);
  });
});
