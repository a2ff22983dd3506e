import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, watchErrors, type BrowserSession } from './support/browser.js';
import { recordTestimonial, signInInBrowser, signUpCompany, type Company } from './support/fixtures.js';
import { startServer, type RunningServer } from './support/server.js';

/**
 * Drafts on arrival (issue 31), in Chromium against the built app with real workers: the company turns on
 * "Prepare drafts when a testimonial arrives" in its video settings; a customer answers two questions
 * out loud; without anyone clicking, the testimonial is unlocked with one credit and its draft made (the
 * answers after their cards, subtitled by the offline engine). The 'ready' e-mail names the draft; its link
 * opens the detail, which shows the draft first, playable; one click publishes it, and its share page
 * plays it. Screenshots of the detail at 1280 px (English) and 375 px (French) go to SHOTS_DIR.
 */

const SHOTS_DIR = process.env.DRAFTS_SHOTS_DIR ?? '/tmp/shots-drafts';

async function shot(page: Page, name: string): Promise<void> {
  await mkdir(SHOTS_DIR, { recursive: true });
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, { timeout: 5000 }).catch(() => undefined);
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`) });
}

describe('a draft made on arrival', () => {
  let server: RunningServer;
  let browser: BrowserSession;
  let company: Company;

  beforeAll(async () => {
    // The 'ready' e-mail goes 2 s after the render instead of 75 s.
    server = await startServer({ READY_MAIL_GATHER_SECONDS: '2', DRAFTS: 'on' });
    browser = await openBrowser({ locale: 'en-US' });
    company = await signUpCompany(server, { prefix: 'drafts' });
    await company.api('PUT', '/api/user/complete-onboarding', {});
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('turns drafts on, then shows a subtitled draft of the next testimonial, playable and published in one click', { timeout: 300_000 }, async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInInBrowser(page, server, company);

    // The setting, saved with the video style.
    await page.goto(`${server.url}/dashboard/settings?tab=video`);
    const toggle = page.locator('[data-testid="prepare-drafts"]');
    await toggle.waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await toggle.click();
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/auth/update-settings'));
    await page.click('[data-testid="style-save"]');
    expect((await (await saved).json()).prepare_drafts).toBe(true);
    const credits = async () => Number((await page.locator('[data-testid="header-credits"]').innerText()).replace(/\D+/g, ''));
    const creditsBefore = await credits();

    const recorded = await recordTestimonial(server, company, {
      customerName: 'Claire Dubois',
      questions: ['What did you like most about working with us?', 'Would you recommend us?'],
      clips: [{ speech: 'Working with this team was a great experience.' }, { speech: 'I recommend them to everyone.' }],
    });

    // Nobody pays or asks. The 'ready' e-mail names the draft, and its link opens the detail.
    type Mail = { subject: string; text: string; links: string[] };
    let mail: Mail | undefined;
    for (const ends = Date.now() + 180_000; !mail; ) {
      const mails = (await (await fetch(`${server.url}/dev/outbox/messages.json?to=${encodeURIComponent(company.email)}`)).json()) as Mail[];
      mail = mails.find((m) => m.text.includes('Draft, ready to post'));
      if (!mail && Date.now() > ends) throw new Error('no draft e-mail within 180 s');
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(mail.subject).toBe('Draft, ready to post — Claire Dubois');
    const link = mail.links.find((l) => l.includes(`/dashboard/testimonials/${recorded.id}`));
    expect(link).toBeTruthy();
    await page.goto(link!);

    // The detail shows the draft first, ready and subtitled, unlocked by the credit spent on arrival.
    const draft = page.locator('[data-testid="draft-card"]');
    await page.waitForSelector('[data-testid="draft-card"][data-phase="ready"] [data-testid="draft-video"]', { timeout: 30_000 });
    expect(await page.locator('[data-testid="pay-to-view"]').count()).toBe(0);
    const draftFirst = await page.evaluate(() => {
      const card = document.querySelector('[data-testid="draft-card"]');
      const answer = document.querySelector('[data-testid="response-card"]');
      return Boolean(card && answer && card.compareDocumentPosition(answer) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    expect(draftFirst).toBe(true);
    expect(await draft.innerText()).toContain('Your draft, ready to post');
    expect(await draft.innerText()).toContain('Subtitles');
    const duration = await page.locator('[data-testid="draft-video"]').evaluate(
      (video: HTMLVideoElement) =>
        new Promise<number>((resolve) => {
          if (video.readyState >= 1) resolve(video.duration);
          else video.addEventListener('loadedmetadata', () => resolve(video.duration), { once: true });
        }),
    );
    // Two cards and two spoken answers of a few seconds each.
    expect(duration).toBeGreaterThan(6);
    expect(await credits()).toBe(creditsBefore - 1);
    await shot(page, 'draft-detail-en-1280');

    // One click publishes it; the share page plays it.
    await draft.locator('[data-testid="action-draft-publish"]').click();
    const dialog = page.locator('[data-testid="publish-dialog"]');
    await dialog.locator('[data-testid="publish-link"]').waitFor({ timeout: 15_000 });
    const shareUrl = await dialog.locator('[data-testid="publish-link"]').inputValue();
    const share = await browser.context.newPage();
    const response = await share.goto(shareUrl);
    expect(response?.status()).toBe(200);
    expect(await share.locator('video').count()).toBeGreaterThan(0);
    expect(await share.content()).toContain('Claire Dubois');
    await share.close();
    await page.keyboard.press('Escape');

    // French, on a phone.
    await browser.context.addCookies([{ name: 'i18next', value: 'fr', url: server.url }]);
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'fr'));
    await page.setViewportSize({ width: 375, height: 812 });
    await page.reload();
    await page.waitForSelector('[data-testid="draft-card"][data-phase="ready"]');
    expect(await draft.innerText()).toContain('Votre brouillon, prêt à publier');
    await shot(page, 'draft-detail-fr-375');
    expect(errors).toEqual([]);
  });
});
