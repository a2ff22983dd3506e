import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeQrPng } from '../../src/server/test/qr.js';
import { openBrowser, watchErrors, type BrowserSession } from './support/browser.js';
import { signInInBrowser, signUpCompany, type Company } from './support/fixtures.js';
import { startServer, type RunningServer } from './support/server.js';

/**
 * Open collection links (issue 30) in the built app and real Chromium: the company creates a French
 * link in the dashboard that asks to confirm the e-mail, downloads its QR code as SVG and PNG, and the
 * PNG decodes (jsqr) back to the link's address; a customer on a 375 px phone opens the address, gives
 * their details in French, types the e-mailed code and records two answers with the fake camera and
 * microphone, as an invited customer does; the testimonial is in the company's list, marked with its
 * link. Screenshots (docs/screenshots/collect, or COLLECT_SHOTS_DIR): the links screen, the QR
 * download and the customer's first step, at 375 and 1280 px, in English and French.
 */

const run = promisify(execFile);
const SHOTS_DIR = process.env.COLLECT_SHOTS_DIR ?? path.resolve('docs/screenshots/collect');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface OutboxMessage {
  date: string;
  subject: string;
}

describe('open collection links', () => {
  let server: RunningServer;
  let company: Company;
  let tmp: string;
  let wav: string;
  const browsers: BrowserSession[] = [];

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'vouchreel-collect-e2e-'));
    const raw = path.join(tmp, 'speech-16k.wav');
    wav = path.join(tmp, 'speech.wav');
    await run('flite', ['-voice', 'slt', '-t', 'Great service, fast answers, and our sales grew.', '-o', raw]);
    await run('ffmpeg', ['-v', 'error', '-y', '-i', raw, '-ar', '48000', '-ac', '2', wav]);
    await mkdir(SHOTS_DIR, { recursive: true });
    server = await startServer();
    company = await signUpCompany(server);
    // The onboarding tour would cover the page: this journey is about collection links.
    await company.api('PUT', '/api/user/complete-onboarding', {});
    await company.api('POST', '/api/questions/add', { company_id: company.companyId, text_en: 'What did you like most?', text_fr: 'Qu’avez-vous préféré ?', order_position: 1 });
    await company.api('POST', '/api/questions/add', { company_id: company.companyId, text_en: 'Would you recommend us?', text_fr: 'Nous recommanderiez-vous ?', order_position: 2 });
  });

  afterAll(async () => {
    for (const browser of browsers) await browser.close().catch(() => undefined);
    await server?.stop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  async function newPage(options: { locale: string; media?: boolean; width?: number }): Promise<{ page: Page; errors: string[] }> {
    const browser = await openBrowser(options.media ? { media: true, fakeAudioFile: wav, locale: options.locale } : { locale: options.locale });
    browsers.push(browser);
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: options.width ?? 1280, height: 860 });
    return { page, errors: watchErrors(page) };
  }

  /** The screen at 375 and 1280 px, into the screenshots folder; no horizontal overflow on the phone. */
  async function shots(page: Page, name: string, end: 375 | 1280 = 1280) {
    for (const width of [375, 1280] as const) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 860 });
      await sleep(200);
      await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, { timeout: 5000 }).catch(() => undefined);
      if (width === 375) expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${name} overflows at 375 px`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: end, height: end === 375 ? 812 : 860 });
  }

  async function setAppLanguage(page: Page, language: 'en' | 'fr') {
    await page.evaluate((lng) => {
      document.cookie = `i18next=${lng}; path=/`;
      localStorage.setItem('i18nextLng', lng);
    }, language);
    await page.reload();
  }

  async function codeFor(to: string): Promise<string> {
    for (let i = 0; i < 120; i++) {
      const res = await fetch(`${server.url}/dev/outbox/messages.json?to=${encodeURIComponent(to)}`);
      const code = ((await res.json()) as OutboxMessage[]).map((m) => /(\d{6})$/.exec(m.subject.trim())?.[1]).find(Boolean);
      if (code) return code;
      await sleep(250);
    }
    throw new Error(`no code e-mailed to ${to}`);
  }

  it('creates a link, downloads its QR code (SVG and PNG, decoded back to the address), records through it in French on a phone, and lists the testimonial with its link', { timeout: 150_000 }, async () => {
    // The company: the links screen, empty, then a new French link asking for the e-mail code.
    const { page: owner, errors: ownerErrors } = await newPage({ locale: 'en-US' });
    await signInInBrowser(owner, server, company);
    await owner.goto(`${server.url}/dashboard/collection-links`);
    await owner.click('[data-testid="new-link"]');
    await owner.waitForSelector('[data-testid="link-form"]');
    await owner.fill('[data-testid="link-name"]', 'Counter QR');
    await owner.selectOption('[data-testid="link-language"]', 'french');
    await owner.fill('input[placeholder="A coffee on us at your next visit"]', 'Un café offert');
    await owner.click('[data-testid="link-code"]');
    await owner.click('[data-testid="link-save"]');
    const card = owner.locator('[data-testid="collection-link"]');
    await card.waitFor();
    expect(await card.locator('[data-testid="link-state"]').getAttribute('data-state')).toBe('open');
    const url = await card.locator('[data-testid="link-url"]').inputValue();
    expect(url).toMatch(/\/c\/[a-z2-9]{10}$/);
    const links = await company.api<{ url: string; email_code_required: boolean; language: string }[]>('GET', '/api/collection-links');
    expect(links[0]).toMatchObject({ url, email_code_required: true, language: 'french' });
    // A second link in English, for the customer's first step in English.
    const english = await company.api<{ url: string; id: string }>('POST', '/api/collection-links', {
      name: 'Website', question_ids: (await company.api<{ id: string }[]>('GET', `/api/questions/list?company_id=${company.companyId}`)).map((q) => q.id),
      language: 'english', background_color: '#0f766e', gift: 'A coffee on us', daily_cap: 50,
    });
    await owner.reload();
    await owner.waitForSelector('[data-testid="collection-link"] >> nth=1');
    await shots(owner, 'links-screen-en');

    // The QR code, downloaded as SVG and PNG; the PNG reads back to the address.
    const frenchCard = owner.locator('[data-testid="collection-link"]', { hasText: 'Counter QR' });
    const [svg] = await Promise.all([owner.waitForEvent('download'), frenchCard.locator('[data-testid="qr-svg"]').click()]);
    expect(svg.suggestedFilename()).toMatch(/^qr-[a-z2-9]{10}\.svg$/);
    expect(await readFile((await svg.path())!, 'utf8')).toMatch(/^<svg[^>]*viewBox/);
    const [png] = await Promise.all([owner.waitForEvent('download'), frenchCard.locator('[data-testid="qr-png"]').click()]);
    expect(png.suggestedFilename()).toMatch(/^qr-[a-z2-9]{10}\.png$/);
    const pngFile = (await png.path())!;
    expect(decodeQrPng(await readFile(pngFile))).toBe(url);
    await copyFile(pngFile, path.join(SHOTS_DIR, 'qr-download.png'));
    await shots(owner, 'qr-download-en');
    await setAppLanguage(owner, 'fr');
    await owner.waitForSelector('[data-testid="collection-link"] >> nth=1');
    expect(await owner.locator('h1').first().innerText()).toBe('Liens de collecte');
    await shots(owner, 'links-screen-fr');
    await owner.click('[data-testid="edit-link"] >> nth=0');
    await owner.waitForSelector('[data-testid="link-form"]');
    await shots(owner, 'link-form-fr');
    await owner.keyboard.press('Escape');

    // The English link's first step (no recording), in English.
    const { page: visitor } = await newPage({ locale: 'en-US' });
    await visitor.goto(english.url);
    await visitor.waitForSelector('[data-testid="collect-details"]');
    expect(await visitor.getAttribute('html', 'lang')).toBe('en');
    await shots(visitor, 'first-step-en');

    // The customer: a phone in French, from the link's address to the thank-you screen.
    const { page, errors } = await newPage({ locale: 'en-US', media: true, width: 375 });
    await page.goto(url);
    await page.waitForSelector('[data-testid="collect-details"]');
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    expect(await page.locator('h1').innerText()).toBe(`Partagez votre expérience avec ${company.companyName}`);
    await shots(page, 'first-step-fr', 375);
    await page.click('[data-testid="collect-continue"]');
    await page.waitForSelector('text=Saisissez votre nom.');
    const email = `camille.${Date.now()}@client.test`;
    await page.fill('#' + (await page.locator('input[autocomplete="name"]').getAttribute('id')), 'Camille Roy');
    await page.fill('input[autocomplete="organization-title"]', 'Fleuriste');
    await page.fill('input[autocomplete="email"]', email);
    await page.click('[data-testid="collect-continue"]');
    await page.waitForSelector('[data-testid="collect-code"]');
    await shots(page, 'code-step-fr', 375);
    await page.fill('input[autocomplete="one-time-code"]', await codeFor(email));
    await page.click('[data-testid="code-confirm"]');

    // The same recording page as an invited customer, at its own address.
    await page.waitForSelector('[data-testid="consent"]');
    expect(page.url()).toMatch(/\/testimonial\/submit\/[A-Za-z0-9_-]{43}$/);
    await page.check('[data-testid="consent"]');
    await page.click('[data-testid="continue"]');
    await page.waitForSelector('[data-testid="start-recording-step"]:not([disabled])');
    await page.click('[data-testid="start-recording-step"]');
    for (const n of [1, 2]) {
      await page.waitForSelector(`[data-testid="question-counter"]:has-text("Question ${n} sur 2")`);
      expect(await page.locator('[data-testid="question"]').innerText()).toContain(n === 1 ? 'Qu’avez-vous préféré ?' : 'Nous recommanderiez-vous ?');
      await page.click('[data-testid="record"]');
      await page.waitForSelector('[data-testid="question"][data-phase="recording"]');
      await sleep(2200);
      await page.click('[data-testid="stop"]');
      await page.waitForSelector('[data-testid="question"][data-phase="preview"]');
      await page.click('[data-testid="accept"]');
    }
    await page.waitForSelector('[data-testid="thank-you"]', { timeout: 60_000 });
    expect(await page.locator('[data-testid="thank-you"] h1').innerText()).toBe('Merci, Camille Roy\u00a0!');

    // The company's list: the testimonial, marked with its link; the link counts it.
    await setAppLanguage(owner, 'en');
    await owner.goto(`${server.url}/dashboard/testimonials`);
    const row = owner.locator('[data-testid="via-link"]', { hasText: 'Via Counter QR' });
    await row.first().waitFor();
    const requests = await company.api<{ delivery: string; collection_link_id: string | null; customer_name: string; status: string }[]>('GET', `/api/testimonials/requests?company_id=${company.companyId}`);
    expect(requests[0]).toMatchObject({ delivery: 'collection', customer_name: 'Camille Roy', status: 'completed' });
    await owner.goto(`${server.url}/dashboard/collection-links`);
    await owner.waitForSelector('[data-testid="link-submissions"]:has-text("1 testimonial")');
    expect(errors).toEqual([]);
    expect(ownerErrors).toEqual([]);
  });

  it('shows a disabled link as closed, in its language', { timeout: 60_000 }, async () => {
    const all = await company.api<{ id: string; name: string; url: string; question_ids: string[] }[]>('GET', '/api/collection-links');
    const french = all.find((l) => l.name === 'Counter QR')!;
    await company.api('PUT', `/api/collection-links/${french.id}`, { name: french.name, question_ids: french.question_ids, language: 'french', background_color: '#1e3a8a', enabled: false, email_code_required: true });
    const { page } = await newPage({ locale: 'en-US', width: 375 });
    await page.goto(french.url);
    const closed = page.locator('[data-testid="collect-closed"]');
    await closed.waitFor();
    expect(await closed.getAttribute('data-reason')).toBe('collection_link_disabled');
    expect(await closed.locator('h1').innerText()).toBe('Ce lien est fermé');
    await shots(page, 'closed-fr', 375);
  });
});
