import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, setLanguage, watchErrors, type BrowserSession } from './support/browser.js';
import { recordTestimonial, signInInBrowser, signUpCompany, type Company, type RecordedTestimonial } from './support/fixtures.js';
import { startServer, type RunningServer } from './support/server.js';

/**
 * View analytics (issue 19), in Chromium against the built app: a published answer's share page is
 * played to its end by a visitor (its own browser, with an ordinary user agent: the test's headless
 * Chromium says 'HeadlessChrome', which the beacon ignores as a robot, as this test also checks), then
 * the detail screen shows 1 view and 100 % completed, and the testimonials list 1 in its Views
 * column. Screenshots of the panel and the list at 375 and 1280 px in English and French go to
 * docs/screenshots/views (or VIEWS_SHOTS_DIR).
 */

const SHOTS_DIR = process.env.VIEWS_SHOTS_DIR ?? path.resolve('docs/screenshots/views');
const VISITOR_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

interface DetailResponse {
  testimonial: { testimonial_responses: { id: string; video_url?: string | null }[] } | null;
}
interface Views {
  totals: { started: number; p25: number; p50: number; p75: number; p100: number };
}

async function shot(page: Page, name: string): Promise<void> {
  await mkdir(SHOTS_DIR, { recursive: true });
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, { timeout: 5000 }).catch(() => undefined);
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`) });
}


/** Plays the page's video to its end, muted and fast, and waits for 'ended'. */
async function playToTheEnd(page: Page): Promise<void> {
  await page.locator('video').evaluate(
    (video: HTMLVideoElement) =>
      new Promise<void>((resolve, reject) => {
        video.addEventListener('ended', () => resolve(), { once: true });
        video.muted = true;
        video.playbackRate = 2;
        video.play().catch(reject);
      }),
  );
}

describe('views of a published video', () => {
  let server: RunningServer;
  let owner: BrowserSession;
  let visitor: BrowserSession;
  let company: Company;
  let recorded: RecordedTestimonial;
  let shareUrl: string;

  beforeAll(async () => {
    const began = Date.now();
    const mark = (what: string) => console.info(`views e2e: ${what} after ${((Date.now() - began) / 1000).toFixed(1)} s`);
    server = await startServer();
    mark('server started');
    owner = await openBrowser({ locale: 'en-US' });
    visitor = await openBrowser({ locale: 'en-US', args: [`--user-agent=${VISITOR_UA}`] });
    company = await signUpCompany(server, { prefix: 'views' });
    await company.api('PUT', '/api/user/complete-onboarding', {});
    recorded = await recordTestimonial(server, company, { customerName: 'Claire Dubois', clips: [{ seconds: 3, tone: 440 }] });
    await company.api('POST', `/api/testimonials/pay/${recorded.id}`, {});
    mark('testimonial recorded and paid');
    const deadline = Date.now() + 150_000;
    let responseId = '';
    for (;;) {
      const detail = await company.api<DetailResponse>('GET', `/api/testimonials/request/${recorded.id}?company_id=${company.companyId}`);
      const answers = detail.testimonial?.testimonial_responses ?? [];
      if (answers.length && answers.every((a) => a.video_url)) {
        responseId = answers[0]!.id;
        mark('answer transcoded');
        break;
      }
      if (Date.now() > deadline) throw new Error('the answer was not transcoded within 150 s');
      await new Promise((r) => setTimeout(r, 500));
    }
    // Published once its transcode has run (409 'still being prepared' until then).
    for (;;) {
      try {
        shareUrl = (await company.api<{ url: string }>('POST', '/api/publications', { testimonialId: recorded.id, responseId })).url;
        break;
      } catch (error) {
        if (!String(error).includes('409') || Date.now() > deadline) throw error;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }, 300_000);

  afterAll(async () => {
    await visitor?.close();
    await owner?.close();
    await server?.stop();
  });

  const views = () => company.api<Views>('GET', `/api/testimonials/${recorded.id}/views`);

  it('counts a visitor who plays the share page to its end, not a headless browser, and shows it', { timeout: 180_000 }, async () => {
    const page = await owner.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInInBrowser(page, server, company);
    await page.goto(`${server.url}/dashboard/testimonials/${recorded.id}`);
    const panel = page.locator('[data-testid="views-panel"]');
    await panel.waitFor();
    await panel.getByText('Nobody has watched yet').waitFor();
    await panel.scrollIntoViewIfNeeded();
    await shot(page, 'views-panel-empty-en-1280');

    // The test's own headless Chromium plays it: a robot by its user agent, not counted.
    const robot = await owner.context.newPage();
    await robot.goto(shareUrl);
    await playToTheEnd(robot);
    await robot.close();

    // A visitor with an ordinary browser plays it to the end: one play, every milestone.
    const share = await visitor.context.newPage();
    const shareErrors = watchErrors(share);
    const beacons: string[] = [];
    share.on('request', (request) => {
      if (request.url().endsWith('/api/publications/views')) beacons.push(request.postData() ?? '');
    });
    expect((await share.goto(shareUrl))?.status()).toBe(200);
    await playToTheEnd(share);
    await expect.poll(async () => (await views()).totals, { timeout: 15_000, interval: 300 }).toEqual({ started: 1, p25: 1, p50: 1, p75: 1, p100: 1 });
    // Each milestone sent once by the page, as a form body.
    expect(beacons.map((b) => new URLSearchParams(b).get('milestone')).sort()).toEqual(['p100', 'p25', 'p50', 'p75', 'started']);
    // Each with the one view token the page was served with (decision 155).
    const tokens = new Set(beacons.map((b) => new URLSearchParams(b).get('token')));
    expect(tokens.size).toBe(1);
    expect([...tokens][0]).toMatch(/^[\w-]{43}$/);
    // Played again in the same page: nothing more is sent.
    await playToTheEnd(share);
    expect(beacons).toHaveLength(5);
    // The CSP let the beacon run, and nothing complained.
    expect(shareErrors).toEqual([]);
    await share.close();
    expect((await views()).totals.started).toBe(1);

    // The detail screen: 1 view, 100 % completed.
    await page.reload();
    const total = panel.locator('[data-testid="views-total"]');
    await total.waitFor();
    expect(await total.textContent()).toBe('1');
    expect(await panel.locator('[data-testid="views-completion"]').textContent()).toBe('100% completed');
    expect(await panel.locator('[data-testid="views-funnel"] li').count()).toBe(5);
    const scrollToPanel = () => panel.scrollIntoViewIfNeeded();
    /** The whole panel, on a phone taller than its screen. */
    const panelShot = async (name: string) => {
      await mkdir(SHOTS_DIR, { recursive: true });
      await panel.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`) });
    };
    await scrollToPanel();
    await shot(page, 'views-panel-en-1280');
    await page.setViewportSize({ width: 375, height: 812 });
    await scrollToPanel();
    await shot(page, 'views-panel-en-375');
    await panelShot('views-panel-only-en-375');
    await setLanguage(page, server, owner, 'fr');
    await total.waitFor();
    expect(await panel.locator('[data-testid="views-completion"]').textContent()).toMatch(/^100\s%\sde vues complètes$/u);
    await scrollToPanel();
    await shot(page, 'views-panel-fr-375');
    await panelShot('views-panel-only-fr-375');
    await page.setViewportSize({ width: 1280, height: 900 });
    await scrollToPanel();
    await shot(page, 'views-panel-fr-1280');

    // The testimonials list: a Views column (a field of the card on a phone).
    await page.goto(`${server.url}/dashboard/testimonials`);
    const cell = page.locator('[data-testid="testimonial-views"]');
    await cell.waitFor();
    expect(await cell.textContent()).toBe('1');
    await shot(page, 'list-views-fr-1280');
    await page.setViewportSize({ width: 375, height: 812 });
    await cell.waitFor();
    await shot(page, 'list-views-fr-375');
    await setLanguage(page, server, owner, 'en');
    await cell.waitFor();
    await shot(page, 'list-views-en-375');
    await page.setViewportSize({ width: 1280, height: 900 });
    await cell.waitFor();
    await shot(page, 'list-views-en-1280');
    await page.close();
    expect(errors).toEqual([]);
  });
});
