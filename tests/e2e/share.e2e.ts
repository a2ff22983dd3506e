import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, watchErrors, type BrowserSession } from './support/browser.js';
import { recordTestimonial, signInInBrowser, signUpCompany, type Company, type RecordedTestimonial } from './support/fixtures.js';
import { until } from './support/until.js';
import { startServer, type RunningServer } from './support/server.js';

/**
 * A published video on the web (issue 19). Its embed code, pasted into a page of another site (another
 * port), shows the player, which plays. Then its quote, in Chromium against the built app with the real offline
 * transcriber: a spoken answer is transcribed and published, the company selects words of the
 * transcript with the mouse in the Share dialog and keeps them as the quote; the share page then shows
 * them beside the video and in its preview tags. Screenshots of the dialog (375/1280, en/fr) and of the
 * share page with its quote (an English testimonial, and a French one) go to SHOTS_DIR.
 */

const SHOTS_DIR = process.env.SHARE_SHOTS_DIR ?? '/tmp/shots-share';

interface Detail {
  testimonial: { testimonial_responses: { id: string; poster_url?: string | null }[] } | null;
}


async function shot(page: Page, name: string): Promise<void> {
  await mkdir(SHOTS_DIR, { recursive: true });
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, { timeout: 5000 }).catch(() => undefined);
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`) });
}

/**
 * Selects the transcript's first paragraph up to the end of its `words`-th word, as a person does with
 * the mouse or a long press: the page's own selection, which fires the browser's selectionchange.
 */
async function selectWords(page: Page, words: number): Promise<string> {
  const paragraph = page.locator('[data-testid="quote-transcript"] p').first();
  await paragraph.scrollIntoViewIfNeeded();
  return paragraph.evaluate((p, n) => {
    const text = p.firstChild as Text;
    const found = [...text.data.matchAll(/\S+/g)];
    const last = found[Math.min(n, found.length) - 1]!;
    const range = document.createRange();
    range.setStart(text, 0);
    range.setEnd(text, last.index! + last[0].length);
    const selection = document.getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
    return range.toString();
  }, words);
}

describe('a published video on the web: its embed elsewhere, its quote', () => {
  let server: RunningServer;
  let browser: BrowserSession;
  let company: Company;
  let recorded: RecordedTestimonial;
  let shareUrl: string;
  let embedHtml: string;
  let host: Server | undefined;

  beforeAll(async () => {
    server = await startServer();
    browser = await openBrowser({ locale: 'en-US' });
    company = await signUpCompany(server, { prefix: 'quote' });
    await company.api('PUT', '/api/user/complete-onboarding', {});
    recorded = await recordTestimonial(server, company, {
      customerName: 'Claire Dubois',
      clips: [{ speech: 'They answered my questions the same day. Our sales doubled in three months.' }],
    });
    await company.api('POST', `/api/testimonials/pay/${recorded.id}`, {});
    const detail = await until(
      'the answer to be prepared',
      () => company.api<Detail>('GET', `/api/testimonials/request/${recorded.id}?company_id=${company.companyId}`),
      (d) => Boolean(d.testimonial?.testimonial_responses.every((a) => a.poster_url)),
    );
    const responseId = detail.testimonial!.testimonial_responses[0]!.id;
    // The offline engine transcribes the answer (202 with a job), then the call gives the stored cues.
    await company.api('POST', `/api/testimonials/response/${responseId}/transcribe`);
    await until(
      'the transcript',
      () => company.api<{ transcription: { text: string }[] }>('POST', `/api/testimonials/response/${responseId}/transcribe`),
      (r) => r.transcription.length > 0,
    );
    const published = await company.api<{ url: string }>('POST', '/api/publications', { testimonialId: recorded.id, responseId });
    shareUrl = published.url;
    const listed = await company.api<{ publications: { url: string; embedHtml: string }[] }>('GET', `/api/publications?testimonialId=${recorded.id}`);
    embedHtml = listed.publications.find((p) => p.url === shareUrl)!.embedHtml;
  }, 240_000);

  afterAll(async () => {
    host?.close();
    await browser?.close();
    await server?.stop();
  });

  it('plays in a page of another site that pastes its embed code, at the width of that page', { timeout: 120_000 }, async () => {
    host = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Acme</title>
<style>body{font-family:system-ui,sans-serif;margin:0}main{max-width:720px;margin:0 auto;padding:24px 16px}</style></head>
<body><main><h1>What Claire says about us</h1>${embedHtml}<p>Thanks for watching.</p></main></body></html>`);
    });
    await new Promise<void>((resolve) => host!.listen(0, '127.0.0.1', resolve));
    const hostUrl = `http://localhost:${(host.address() as AddressInfo).port}`;
    expect(new URL(hostUrl).origin).not.toBe(new URL(server.url).origin);
    const site = await browser.context.newPage();
    const errors = watchErrors(site);
    await site.setViewportSize({ width: 1280, height: 900 });
    await site.goto(hostUrl);
    const iframe = site.locator('iframe');
    await iframe.waitFor();
    const frame = (await (await iframe.elementHandle())!.contentFrame())!;
    const video = frame.locator('video');
    await video.waitFor();
    // Responsive: the frame takes the page's column and keeps the video's proportions.
    const box = await iframe.boundingBox();
    expect(Math.round(box!.width)).toBe(720);
    await video.evaluate(async (element: HTMLVideoElement) => {
      element.muted = true;
      await element.play();
    });
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 15_000, interval: 200 }).toBeGreaterThan(0);
    await video.evaluate((element: HTMLVideoElement) => element.pause());
    await shot(site, 'embed-other-origin-1280');
    await site.setViewportSize({ width: 375, height: 812 });
    await expect.poll(async () => Math.round((await iframe.boundingBox())!.width)).toBe(343);
    expect(await site.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await shot(site, 'embed-other-origin-375');
    await site.close();
    expect(errors).toEqual([]);
  });

  it('selects words of the transcript as the quote, shows it on the share page and in its previews, and removes it', { timeout: 180_000 }, async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInInBrowser(page, server, company);
    await page.goto(`${server.url}/dashboard/testimonials/${recorded.id}`);

    const share = page.locator('[data-testid="response-card"] [data-testid="action-publish"]');
    await share.waitFor();
    await expect.poll(() => share.getAttribute('data-published'), { timeout: 15_000 }).toBe('true');
    await share.click();
    const dialog = page.locator('[data-testid="publish-dialog"]');
    const transcript = dialog.locator('[data-testid="quote-transcript"]');
    await transcript.waitFor({ timeout: 15_000 });
    expect(await dialog.locator('[data-testid="quote-current"]').count()).toBe(0);

    const chosen = await selectWords(page, 4);
    const selection = dialog.locator('[data-testid="quote-selection"]');
    await selection.waitFor();
    expect(await selection.textContent()).toBe(`“${chosen}”`);
    await dialog.locator('[data-testid="quote-use"]').click();
    const current = dialog.locator('[data-testid="quote-current"]');
    await current.waitFor();
    expect(await current.textContent()).toBe(`“${chosen}”`);
    await shot(page, 'quote-dialog-en-1280');

    // The share page: the quote beside the video, and as the description a link preview shows.
    const visitor = await browser.context.newPage();
    await visitor.setViewportSize({ width: 1280, height: 800 });
    await visitor.goto(shareUrl);
    expect((await visitor.locator('blockquote').textContent())?.trim()).toBe(`“${chosen}”`);
    expect(await visitor.locator('meta[property="og:description"]').getAttribute('content')).toBe(`“${chosen}” Claire Dubois`);
    // Beside the video on a wide screen, under it on a phone.
    const [video, quote] = [await visitor.locator('video').boundingBox(), await visitor.locator('blockquote').boundingBox()];
    expect(quote!.x).toBeGreaterThan(video!.x + video!.width - 1);
    await visitor.waitForLoadState('networkidle');
    await shot(visitor, 'share-quote-1280');
    await visitor.setViewportSize({ width: 375, height: 812 });
    const [videoPhone, quotePhone] = [await visitor.locator('video').boundingBox(), await visitor.locator('blockquote').boundingBox()];
    expect(quotePhone!.y).toBeGreaterThan(videoPhone!.y + videoPhone!.height - 1);
    expect(await visitor.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await shot(visitor, 'share-quote-375');
    await visitor.close();

    // On a phone and in French.
    await page.setViewportSize({ width: 375, height: 812 });
    await shot(page, 'quote-dialog-en-375');
    await browser.context.addCookies([{ name: 'i18next', value: 'fr', url: server.url }]);
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'fr'));
    await page.reload();
    await share.click();
    await current.waitFor();
    expect(await current.textContent()).toBe(`« ${chosen} »`);
    expect(await dialog.textContent()).toContain('Citation');
    await shot(page, 'quote-dialog-fr-375');
    await page.setViewportSize({ width: 1280, height: 900 });
    await shot(page, 'quote-dialog-fr-1280');

    // Removed: the page shows no quote any more.
    await dialog.locator('[data-testid="quote-remove"]').click();
    await current.waitFor({ state: 'detached' });
    const again = await browser.context.newPage();
    await again.goto(shareUrl);
    expect(await again.locator('blockquote').count()).toBe(0);
    await again.close();
    expect(errors).toEqual([]);
  });

  it('shows the share page of a testimonial requested in French in French, with its quote and transcript', { timeout: 180_000 }, async () => {
    // A company of its own: the first spent its free credit on the English testimonial.
    const owner = await signUpCompany(server, { prefix: 'quote-fr', lang: 'fr' });
    await owner.api('PUT', '/api/user/complete-onboarding', {});
    const french = await recordTestimonial(server, owner, {
      customerName: 'Camille Laurent',
      language: 'french',
      clips: [{ seconds: 6, tone: 440 }],
    });
    await owner.api('POST', `/api/testimonials/pay/${french.id}`, {});
    const detail = await until(
      'the French answer to be prepared',
      () => owner.api<Detail>('GET', `/api/testimonials/request/${french.id}?company_id=${owner.companyId}`),
      (d) => Boolean(d.testimonial?.testimonial_responses.every((a) => a.poster_url)),
    );
    const responseId = detail.testimonial!.testimonial_responses[0]!.id;
    // The offline engine understands English only: the company writes the French transcript in the
    // studio, which saves it with the subtitled render it asks for.
    const cues = [
      { start: 0.3, end: 2.8, text: 'Ils ont répondu à toutes mes questions le jour même.' },
      { start: 2.8, end: 5.6, text: 'Nos ventes ont doublé en trois mois, et l’équipe est ravie.' },
    ];
    // The studio takes the answer once its preparation (the transcode) has run: 409 until then.
    await until(
      'the studio to take the French transcript',
      () =>
        owner.api('POST', `/api/testimonials/response/${responseId}/generate-modified/subtitles`, { language: 'fr', transcription: cues }).then(
          () => true,
          (error: unknown) => {
            if (!/ → 409 /.test(String(error))) throw error;
            return false;
          },
        ),
      (saved) => saved,
    );
    const published = await owner.api<{ id: string; url: string }>('POST', '/api/publications', { testimonialId: french.id, responseId });
    const chosen = 'Nos ventes ont doublé en trois mois';
    await owner.api('PUT', `/api/publications/${published.id}/quote`, { quote: chosen });

    const visitor = await browser.context.newPage();
    const errors = watchErrors(visitor);
    await visitor.setViewportSize({ width: 1280, height: 800 });
    await visitor.goto(published.url);
    expect(await visitor.locator('html').getAttribute('lang')).toBe('fr');
    expect(await visitor.locator('h1').textContent()).toBe('Le témoignage de Camille Laurent');
    expect((await visitor.locator('blockquote').textContent())?.trim()).toBe(`«\u00a0${chosen}\u00a0»`);
    expect(await visitor.locator('#transcript').textContent()).toBe('Transcription');
    expect(await visitor.locator('section p').first().textContent()).toBe(cues.map((c) => c.text).join(' '));
    expect(await visitor.locator('track').getAttribute('srclang')).toBe('fr');
    const [video, quote] = [await visitor.locator('video').boundingBox(), await visitor.locator('blockquote').boundingBox()];
    expect(quote!.x).toBeGreaterThan(video!.x + video!.width - 1);
    // The player loads on play (preload="none", decision 150): the picture shows its poster, once loaded.
    const settled = async () => {
      await visitor.bringToFront();
      await visitor.waitForLoadState('networkidle');
      await visitor.waitForFunction(() => [...document.querySelectorAll('video')].every((v) => v.networkState !== HTMLMediaElement.NETWORK_LOADING), undefined, { timeout: 15_000 });
    };
    await settled();
    await shot(visitor, 'share-quote-fr-1280');
    await visitor.setViewportSize({ width: 375, height: 812 });
    const [videoPhone, quotePhone] = [await visitor.locator('video').boundingBox(), await visitor.locator('blockquote').boundingBox()];
    expect(quotePhone!.y).toBeGreaterThan(videoPhone!.y + videoPhone!.height - 1);
    expect(await visitor.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await settled();
    await shot(visitor, 'share-quote-fr-375');
    await visitor.close();
    expect(errors).toEqual([]);
  });
});
