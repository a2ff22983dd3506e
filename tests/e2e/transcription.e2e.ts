import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, screenshot, setLanguage, watchErrors, type BrowserSession } from './support/browser.js';
import { recordTestimonial, signInInBrowser, signUpCompany, type Company, type RecordedTestimonial } from './support/fixtures.js';
import { until } from './support/until.js';
import { startServer, type RunningServer } from './support/server.js';

/**
 * Transcription review, end to end in Chromium on the offline engine (pocketsphinx) and real ffmpeg:
 * a company transcribes a spoken answer, corrects one word, downloads the .srt with the correction,
 * burns the subtitles in and plays the result; then reviews the subtitles of every answer before the
 * merged video with all subtitles. Both dialogs are photographed at 375 and 1280 px, in English and
 * French.
 */

interface DetailResponse {
  id: string;
  orderPosition: number;
  question: { text: string };
  poster_url?: string | null;
  modified_video_url: string | null;
  has_subtitles: boolean;
}
interface Detail {
  testimonial: { video_url: string | null; testimonial_responses: DetailResponse[] } | null;
}

const SPEECH = [
  'Working with this team was a great experience. I recommend them to everyone.',
  'The results were excellent and the support was fast.',
];
const QUESTIONS = ['How was it to work with our team?', 'What results did you get?'];
const KEY_WORDS = ['working', 'with', 'this', 'team', 'great', 'experience', 'recommend', 'them', 'everyone'];
const EDITED_WORD = 'marvellous';



/** Nothing sticks out sideways on a phone. */
async function noHorizontalScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

describe('transcription review', () => {
  let server: RunningServer;
  let browser: BrowserSession;
  let company: Company;
  let testimonial: RecordedTestimonial;
  let page: Page;
  let errors: string[];
  const detail = () => company.api<Detail>('GET', `/api/testimonials/request/${testimonial.id}?company_id=${company.companyId}`);
  const card = (responseId: string): Locator => page.locator(`[data-testid="response-card"][data-response-id="${responseId}"]`);

  beforeAll(async () => {
    server = await startServer();
    browser = await openBrowser({ locale: 'en-US' });
    company = await signUpCompany(server);
    testimonial = await recordTestimonial(server, company, {
      questions: QUESTIONS,
      customerName: 'Claire Dubois',
      clips: SPEECH.map((speech) => ({ speech })),
    });
    await company.api('POST', `/api/testimonials/pay/${testimonial.id}`);
    // The onboarding tour would cover the page (dashboard.e2e.ts covers it).
    await company.api('PUT', '/api/user/complete-onboarding', {});
    // The answers are transcoded in the background; the studio works on the prepared versions.
    await until('the answers to be prepared', detail, (d) => Boolean(d.testimonial?.testimonial_responses.every((r) => r.poster_url)));
    page = await browser.context.newPage();
    errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInInBrowser(page, server, company);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('transcribes an answer, takes a correction into the .srt and burns it into a video that plays', async () => {
    const responses = (await detail()).testimonial!.testimonial_responses.sort((a, b) => a.orderPosition - b.orderPosition);
    const first = responses[0]!;
    await page.goto(`${server.url}/dashboard/testimonials/${testimonial.id}`);
    await card(first.id).locator('[data-testid="action-subtitles"]').click();

    const dialog = page.locator('[data-testid="transcription-review-dialog"]');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(QUESTIONS[0]);
    // The offline engine takes seconds: the dialog says so meanwhile.
    await dialog.locator('[data-testid="transcription-loading"]').waitFor({ timeout: 10_000 });
    const cues = dialog.locator('[data-testid="cue-text"]');
    await cues.first().waitFor({ timeout: 90_000 });
    const texts = await cues.evaluateAll((areas) => areas.map((a) => (a as HTMLTextAreaElement).value));
    const heard = texts.join(' ').toLowerCase();
    const found = KEY_WORDS.filter((w) => heard.includes(w));
    expect(found.length, `heard: ${heard}`).toBeGreaterThanOrEqual(KEY_WORDS.length / 2);
    // Each cue is labelled with its start and end as mm:ss.ms.
    expect(await dialog.locator('label').first().textContent()).toMatch(/\d{2}:\d{2}\.\d{3} – \d{2}:\d{2}\.\d{3}/);

    // Correct one word of the first cue.
    const words = texts[0]!.split(' ');
    words[words.length - 1] = EDITED_WORD;
    const edited = words.join(' ');
    await cues.first().fill(edited);
    expect(await dialog.textContent()).toMatch(/1 line edited/);
    await screenshot(page, 'transcription-review-en-1280', { fullPage: false });

    // The .srt is built from the edited cues.
    const [srtDownload] = await Promise.all([page.waitForEvent('download'), dialog.locator('[data-testid="download-srt"]').click()]);
    expect(srtDownload.suggestedFilename()).toMatch(/^transcription-.*\.srt$/);
    const srt = await readFile((await srtDownload.path())!, 'utf8');
    expect(srt).toContain(EDITED_WORD);
    expect(srt).toMatch(/^1\n\d{2}:\d{2}:\d{2},\d{3} --> \d{2}:\d{2}:\d{2},\d{3}\n/);
    const [jsonDownload] = await Promise.all([page.waitForEvent('download'), dialog.locator('[data-testid="download-json"]').click()]);
    const json = JSON.parse(await readFile((await jsonDownload.path())!, 'utf8')) as { text: string }[];
    expect(json[0]!.text).toBe(edited);
    const [txtDownload] = await Promise.all([page.waitForEvent('download'), dialog.locator('[data-testid="download-txt"]').click()]);
    expect(await readFile((await txtDownload.path())!, 'utf8')).toMatch(new RegExp(`^\\[\\d{2}:\\d{2}\\.\\d{3} - \\d{2}:\\d{2}\\.\\d{3}\\] .*${EDITED_WORD}`));

    // Burn it in: the dialog closes, the render runs, the answer gets its subtitled version.
    await dialog.locator('[data-testid="generate-subtitles"]').click();
    await dialog.waitFor({ state: 'detached' });
    const rendered = await until(
      'the subtitled answer',
      detail,
      (d) => Boolean(d.testimonial?.testimonial_responses.find((r) => r.id === first.id)?.has_subtitles),
    );
    expect(rendered.testimonial!.testimonial_responses.find((r) => r.id === first.id)!.modified_video_url).toBeTruthy();

    // The page shows it (it follows the render by itself) and it plays.
    const video = card(first.id).locator('[data-testid="answer-video"]');
    await page.locator(`[data-testid="response-card"][data-response-id="${first.id}"][data-has-modified="true"]`).waitFor({ timeout: 60_000 });
    const played = await video.evaluate(async (element) => {
      const v = element as HTMLVideoElement;
      v.muted = true;
      await v.play();
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`stuck at ${v.currentTime}`)), 20_000);
        const tick = () => (v.currentTime > 0.5 ? (clearTimeout(timer), resolve()) : requestAnimationFrame(tick));
        tick();
      });
      return { src: v.currentSrc, width: v.videoWidth, time: v.currentTime };
    });
    expect(played.width).toBeGreaterThan(0);
    expect(played.time).toBeGreaterThan(0.5);

    // The stored transcript is now the edited one.
    const stored = await company.api<{ transcription: { text: string }[] }>('POST', `/api/testimonials/response/${first.id}/transcribe`);
    expect(stored.transcription[0]!.text).toBe(edited);

    // The review of the other answer, photographed on a phone and in French.
    const second = responses[1]!;
    const openSecond = async () => {
      await card(second.id).locator('[data-testid="action-subtitles"]').click();
      await dialog.locator('[data-testid="cue-text"]').first().waitFor({ timeout: 90_000 });
    };
    await page.setViewportSize({ width: 375, height: 800 });
    await openSecond();
    await noHorizontalScroll(page);
    await screenshot(page, 'transcription-review-en-375', { fullPage: false });
    await setLanguage(page, server, browser, 'fr');
    await openSecond();
    expect(await dialog.textContent()).toContain('Vérifier les sous-titres');
    await screenshot(page, 'transcription-review-fr-375', { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, 'transcription-review-fr-1280', { fullPage: false });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await setLanguage(page, server, browser, 'en');
    expect(errors).toEqual([]);
  }, 420_000);

  it('reviews the subtitles of every answer before the merged video', async () => {
    await company.api('POST', `/api/testimonials/${testimonial.id}/merge`, { language: 'en' });
    await until('the merged video', detail, (d) => Boolean(d.testimonial?.video_url));
    await page.goto(`${server.url}/dashboard/testimonials/${testimonial.id}`);

    const dialog = page.locator('[data-testid="merged-transcription-review-dialog"]');
    const answers = dialog.locator('[data-testid="merged-response"]');
    const open = async () => {
      await page.locator('[data-testid="action-merged-subtitles"]').click();
      await dialog.waitFor();
      await answers.first().waitFor({ timeout: 120_000 });
    };
    await open();
    expect(await answers.count()).toBe(2);
    expect(await answers.evaluateAll((items) => items.map((i) => i.getAttribute('data-order-position')))).toEqual(['1', '2']);
    expect(await answers.nth(0).textContent()).toContain(QUESTIONS[0]);
    expect(await answers.nth(1).textContent()).toContain(QUESTIONS[1]);
    // The first answer is open and carries the correction made in the first review.
    expect(await answers.nth(0).locator('[data-testid="cue-text"]').first().inputValue()).toContain(EDITED_WORD);
    // Every answer can be expanded; the second one has its own cues.
    await dialog.getByRole('button', { name: 'Expand all' }).click();
    const secondCues = await answers.nth(1).locator('[data-testid="cue-text"]').evaluateAll((a) => a.map((x) => (x as HTMLTextAreaElement).value));
    expect(secondCues.join(' ').toLowerCase()).toMatch(/result|excellent|support|fast/);
    // Collapsing hides an answer's cues from everyone.
    await answers.nth(1).getByRole('button', { expanded: true }).click();
    expect(await answers.nth(1).locator('[data-testid="cue-text"]').count()).toBe(0);
    await answers.nth(1).getByRole('button', { expanded: false }).click();

    const [txt] = await Promise.all([page.waitForEvent('download'), dialog.locator('[data-testid="download-txt"]').click()]);
    const text = await readFile((await txt.path())!, 'utf8');
    expect(text).toContain(`1. ${QUESTIONS[0]}`);
    expect(text).toContain(`2. ${QUESTIONS[1]}`);
    expect(text).toContain(EDITED_WORD);
    const [srt] = await Promise.all([page.waitForEvent('download'), answers.nth(0).locator('[data-testid="download-srt"]').click()]);
    expect(await readFile((await srt.path())!, 'utf8')).toContain(EDITED_WORD);
    await screenshot(page, 'merged-transcription-review-en-1280', { fullPage: false });

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.setViewportSize({ width: 375, height: 800 });
    await open();
    await noHorizontalScroll(page);
    await screenshot(page, 'merged-transcription-review-en-375', { fullPage: false });
    await page.keyboard.press('Escape');
    await setLanguage(page, server, browser, 'fr');
    await open();
    expect(await dialog.textContent()).toContain('Réponse 1');
    await screenshot(page, 'merged-transcription-review-fr-375', { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, 'merged-transcription-review-fr-1280', { fullPage: false });

    // Burn every answer's subtitles into the merged video.
    await dialog.locator('[data-testid="generate-merged-subtitles"]').click();
    await dialog.waitFor({ state: 'detached' });
    const merged = await until(
      'the merged video with subtitles',
      () => company.api<{ testimonial: { video_url_subtitles: string | null } | null }>('GET', `/api/testimonials/request/${testimonial.id}?company_id=${company.companyId}`),
      (d) => Boolean(d.testimonial?.video_url_subtitles),
      { timeoutMs: 240_000 },
    );
    expect(merged.testimonial!.video_url_subtitles).toBeTruthy();
    expect(errors).toEqual([]);
  }, 600_000);
});
