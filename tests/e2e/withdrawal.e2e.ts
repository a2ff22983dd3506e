import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, setLanguage, watchErrors, type BrowserSession } from './support/browser.js';
import { recordTestimonial, signInInBrowser, signUpCompany, waitForMailLink, type Company, type RecordedTestimonial } from './support/fixtures.js';
import { startServer, type RunningServer } from './support/server.js';

/**
 * The customer withdraws their consent (issue 29), in Chromium against the built app with real workers
 * and the real outbox, once in English on a 1280 px window and once in French on a 375 px one: the
 * customer submits, opens the receipt's link to their page, sees their answers playing, and withdraws
 * after one confirmation; within 5 seconds the share page, its embed, its oEmbed, its captions, its media
 * address and its wall entry are gone; the company has been e-mailed; its dashboard says "consent
 * withdrawn" with the date, every studio action is off with the translated reason and refused by the
 * server; in English the list marks the testimonial and the company deletes the videos early.
 * Screenshots of the customer's pages and of the dashboard go to SHOTS_DIR.
 */

const SHOTS_DIR = process.env.WITHDRAWAL_SHOTS_DIR ?? '/tmp/shots-withdrawal';

interface DetailResponse {
  testimonial: { testimonial_responses: { id: string; media?: { phase: string } | null }[] } | null;
}

async function shot(target: Page | Locator, name: string, fullPage = false): Promise<void> {
  await mkdir(SHOTS_DIR, { recursive: true });
  const page = 'page' in target ? target.page() : target;
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, { timeout: 5000 }).catch(() => undefined);
  const file = path.join(SHOTS_DIR, `${name}.png`);
  if ('page' in target) await target.screenshot({ path: file });
  else await target.screenshot({ path: file, fullPage });
}


/** Polls `check` every 250 ms until it holds, for at most `ms`; returns how long it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('the customer withdraws their consent', () => {
  let server: RunningServer;
  let browser: BrowserSession;
  // One company per journey: a new company has one credit, to unlock one testimonial.
  const companies = {} as Record<'en' | 'fr', Company>;
  const recorded = {} as Record<'en' | 'fr', RecordedTestimonial>;

  beforeAll(async () => {
    server = await startServer();
    browser = await openBrowser({ locale: 'en-US' });
    for (const lang of ['en', 'fr'] as const) {
      companies[lang] = await signUpCompany(server, { prefix: `withdrawal-${lang}`, lang });
      await companies[lang].api('PUT', '/api/user/complete-onboarding', {});
    }
    recorded.en = await recordTestimonial(server, companies.en, { customerName: 'Claire Dubois', language: 'english', clips: [{ seconds: 3, tone: 440 }] });
    recorded.fr = await recordTestimonial(server, companies.fr, {
      customerName: 'Élodie Martin',
      language: 'french',
      questions: ['Qu’avez-vous préféré dans notre travail ?'],
      clips: [{ seconds: 3, tone: 550 }],
    });
    for (const lang of ['en', 'fr'] as const) await companies[lang].api('POST', `/api/testimonials/pay/${recorded[lang].id}`, {});
    const deadline = Date.now() + 90_000;
    for (const lang of ['en', 'fr'] as const) {
      const [company, r] = [companies[lang], recorded[lang]];
      for (;;) {
        const detail = await company.api<DetailResponse>('GET', `/api/testimonials/request/${r.id}?company_id=${company.companyId}`);
        // The answer plays (and can be published) once its transcode job has run.
        if (detail.testimonial?.testimonial_responses.every((a) => a.media?.phase === 'ready')) break;
        if (Date.now() > deadline) throw new Error('the answers were not transcoded within 90 s');
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function journey(lang: 'en' | 'fr', width: number): Promise<void> {
    const fr = lang === 'fr';
    const [company, testimonial] = [companies[lang], recorded[lang]];
    const suffix = `${lang}-${width}`;
    // Published and on the wall before the withdrawal.
    const responseId = (await company.api<DetailResponse>('GET', `/api/testimonials/request/${testimonial.id}?company_id=${company.companyId}`)).testimonial!
      .testimonial_responses[0]!.id;
    const publication = await company.api<{ id: string; slug: string; url: string; embedUrl: string }>('POST', '/api/publications', {
      testimonialId: testimonial.id,
      responseId,
    });
    const wall = await company.api<{ url: string }>('PUT', '/api/wall', { items: [publication.id] });
    const oembed = `${server.url}/api/oembed?url=${encodeURIComponent(publication.url)}`;
    const media = `${publication.url}/video.mp4`;
    const captions = `${publication.url}/captions.vtt`;
    for (const address of [publication.url, publication.embedUrl, oembed, media]) expect((await fetch(address)).status, address).toBe(200);
    expect(await (await fetch(wall.url)).text()).toContain(publication.slug);

    // The customer: the receipt's link (in the request's language), their answers playing, and the withdrawal.
    const customer = await browser.context.newPage();
    const customerErrors = watchErrors(customer);
    await customer.setViewportSize({ width, height: 800 });
    await customer.goto(await waitForMailLink(server, testimonial.customerEmail, '/my-testimonial/'));
    expect(await customer.locator('html').getAttribute('lang')).toBe(lang);
    const answer = customer.locator('video[data-testid="customer-answer"]').first();
    await answer.waitFor();
    const plays = await answer.evaluate(async (video: HTMLVideoElement) => {
      video.muted = true;
      video.preload = 'auto';
      video.load();
      for (let i = 0; i < 100 && video.readyState < 2; i++) await new Promise((r) => setTimeout(r, 100));
      return video.readyState >= 2 && video.duration > 1;
    });
    expect(plays).toBe(true);
    expect(await customer.locator(`[data-testid="customer-publications"] a[href="${publication.url}"]`).count()).toBeGreaterThan(0);
    await shot(customer, `customer-page-${suffix}`);
    await customer.locator('[data-testid="withdraw-link"]').click();
    await customer.locator('[data-testid="withdraw-form"]').waitFor();
    await shot(customer, `customer-withdraw-confirm-${suffix}`);
    await Promise.all([customer.waitForURL(/[?&]done=withdrawn/, { timeout: 10_000 }), customer.locator('[data-testid="withdraw-form"] button[type="submit"]').click()]);
    const withdrawnAt = Date.now();
    await customer.locator('[data-testid="customer-withdrawn"]').waitFor();
    await shot(customer, `customer-withdrawn-${suffix}`);

    // Within 5 s: the share page, the embed, the oEmbed, the captions, the media address and the wall entry are gone.
    await within(5_000, async () => {
      const statuses = await Promise.all([publication.url, publication.embedUrl, oembed, captions, media].map(async (a) => (await fetch(a)).status));
      const onWall = (await (await fetch(wall.url)).text()).includes(publication.slug);
      return statuses.every((s) => s === 404) && !onWall;
    });
    expect(Date.now() - withdrawnAt).toBeLessThan(5_000 + 1_000);

    // The company has been e-mailed.
    expect(await waitForMailLink(server, company.email, `/dashboard/testimonials/${testimonial.id}`)).toContain(testimonial.id);

    // The dashboard: the banner with the date, the studio off with the reason.
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width, height: 900 });
    await signInInBrowser(page, server, company);
    await setLanguage(page, server, browser, lang);
    await page.goto(`${server.url}/dashboard/testimonials/${testimonial.id}`);
    const banner = page.locator('[data-testid="consent-withdrawn-banner"]');
    await banner.waitFor();
    const today = new Intl.DateTimeFormat('fr-FR', { day: '2-digit', month: '2-digit', year: 'numeric' }).format(new Date());
    expect(await banner.textContent()).toContain(fr ? `Le client a retiré son consentement le ${today}` : `The customer withdrew their consent on ${today}`);
    const card = page.locator('[data-testid="response-card"]');
    expect(await card.locator('[data-testid="studio-locked"]').textContent()).toContain(fr ? `Consentement retiré le ${today}` : `Consent withdrawn on ${today}`);
    expect(await card.locator('[data-testid="action-publish"]').count()).toBe(0);
    expect(await card.locator('[data-testid="action-intro"]').count()).toBe(0);
    expect(await page.locator('[data-testid="action-merge"]').isDisabled()).toBe(true);
    await shot(page, `detail-withdrawn-${suffix}`);

    // A studio call made anyway (an old tab) is refused by the server with the reason the web translates.
    const calls: [string, unknown][] = [
      [`/api/testimonials/response/${responseId}/generate-modified/intro`, { language: lang }],
      [`/api/testimonials/${testimonial.id}/merge`, { language: lang }],
      [`/api/testimonials/response/${responseId}/export-v2`, { platform: 'shorts', videoType: 'original', cropArea: { x: 0.34, y: 0, width: 0.32, height: 1 }, language: lang }],
      [`/api/testimonials/response/${responseId}/transcribe`, {}],
      ['/api/publications', { testimonialId: testimonial.id, responseId }],
    ];
    for (const [url, body] of calls) {
      const refused = await fetch(`${server.url}${url}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${company.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(refused.status, url).toBe(409);
      expect(((await refused.json()) as { reason?: string }).reason, url).toBe('consent_withdrawn');
    }

    if (!fr) {
      // The list marks it.
      await page.goto(`${server.url}/dashboard/testimonials`);
      const marker = page.locator(`[data-testid="consent-withdrawn-marker"]`).first();
      await marker.waitFor();
      expect(await marker.textContent()).toContain('Consent withdrawn');
      await page.goto(`${server.url}/dashboard/testimonials/${testimonial.id}`);
      await banner.waitFor();

      // The company deletes the videos now, after one confirmation.
      await banner.locator('[data-testid="delete-media"]').click();
      await page.locator('[data-testid="delete-media-dialog"]').waitFor();
      await shot(page, `delete-media-dialog-${suffix}`);
      await page.locator('[data-testid="delete-media-confirm"]').click();
      await expect.poll(() => banner.locator('[data-testid="media-deletion"]').getAttribute('data-deleted'), { timeout: 15_000 }).toBe('true');
      const record = page.locator('[data-testid="consent-record"]');
      await expect
        .poll(async () => (await record.locator('[data-testid="consent-event"]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-kind')))).join(','))
        .toBe('given,withdrawn,media_deleted');
    }

    expect(customerErrors).toEqual([]);
    expect(errors.filter((e) => !/status of 40[49]/.test(e))).toEqual([]);
    await customer.close();
    await page.close();
  }

  it('in English on a desktop window: everything down within 5 s, the company told, the studio closed with the reason, the videos deleted early', { timeout: 180_000 }, async () => {
    await journey('en', 1280);
  });

  it('the same journey in French on a 375 px window', { timeout: 180_000 }, async () => {
    await journey('fr', 375);
  });
});
