import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentText, CURRENT_CONSENT_VERSION } from '../../src/contract/consent.js';
import { openBrowser, screenshot, watchErrors, type BrowserSession } from './support/browser.js';
import { signInInBrowser } from './support/fixtures.js';
import { startServer, type RunningServer } from './support/server.js';

/**
 * The customer's recording page (issue 5; spec: public pages §2, §3, §4, §5, §8, §9) in the built app,
 * in Chromium with a fake camera and a fake microphone playing speech synthesised by flite:
 * the invitation e-mail's link, consent, the device check, two answers with one retake, a reload in
 * the middle that resumes at question 2, a connection lost during the upload and regained, the
 * thank-you screen; then the request is completed, the answers are playable H.264 MP4s with sound of
 * the right duration, and the company got its e-mail. A second journey in French, and the camera
 * permission refused. A 206-character question (issue 27): the form's hint when it is written, and all
 * of it on a 375×812 phone. Every screen is photographed at 375 px and 1280 px.
 */

const run = promisify(execFile);

interface OutboxMessage {
  date: string;
  to?: string;
  subject: string;
  links: string[];
  text: string;
}

interface Company {
  token: string;
  companyId: string;
  companyName: string;
  email: string;
  questionIds: string[];
}

const PASSWORD = 'correct horse 42';
const QUESTIONS = ['What problem did we help you solve?', 'What would you tell a friend about working with us?'];
/** Issue 27: 206 characters, whose last line a phone used to slice (and a French one, longer). */
const LONG_QUESTIONS = {
  en: 'Think back to the moment you first saw the finished result: what did you feel, what did your staff say about it, and which part of our work made the biggest difference to your business across the past year?',
  fr: "Repensez au moment où vous avez découvert le résultat final\u00a0: qu'avez-vous ressenti, qu'en a dit votre équipe, et quelle partie de notre travail a le plus changé les choses pour votre entreprise cette année\u00a0?",
} as const;
const SPEECH =
  'I have been working with this team for two years. They answered every question quickly, and our sales grew by thirty percent.';

/** Console errors we cause on purpose: the requests cut while offline, the camera refused. */
function unexpected(errors: string[]): string[] {
  return errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|ERR_NETWORK_CHANGED|net::ERR_FAILED|Permission denied/i.test(e));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('customer recording page', () => {
  let server: RunningServer;
  let tmp: string;
  let wav: string;
  let company: Company;
  const browsers: BrowserSession[] = [];

  async function api<T>(pathname: string, options: { method?: string; body?: unknown; token?: string } = {}): Promise<T> {
    const res = await fetch(`${server.url}${pathname}`, {
      method: options.method ?? (options.body ? 'POST' : 'GET'),
      headers: {
        ...(options.body ? { 'content-type': 'application/json' } : {}),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      },
      ...(options.body ? { body: JSON.stringify(options.body) } : {}),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${options.method ?? 'GET'} ${pathname} → ${res.status}: ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  /** Polls the development outbox until a message to `to` matches (mail goes through a job). */
  async function waitForMail(to: string, match: (m: OutboxMessage) => boolean): Promise<OutboxMessage> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await fetch(`${server.url}/dev/outbox/messages.json?to=${encodeURIComponent(to)}`);
      const found = ((await res.json()) as OutboxMessage[]).filter(match).sort((a, b) => Date.parse(b.date) - Date.parse(a.date));
      if (found[0]) return found[0];
      if (Date.now() > deadline) throw new Error(`no matching e-mail to ${to} after 30 s`);
      await sleep(250);
    }
  }

  function linkOf(message: OutboxMessage, part: string): string {
    const link = message.links.find((l) => l.includes(part));
    if (!link) throw new Error(`no link with ${part} in '${message.subject}'`);
    return link;
  }

  /** A confirmed company account with two questions, through the real API. */
  async function createCompany(): Promise<Company> {
    const email = `owner.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
    const companyName = `Bright Bakery ${Math.floor(Math.random() * 1e6)}`;
    await api('/api/auth/signup', {
      body: { firstname: 'Olivia', lastname: 'Baker', email, companyName, password: PASSWORD, lang: 'en' },
    });
    const confirmation = await waitForMail(email, (m) => m.links.some((l) => l.includes('/api/auth/confirm-email')));
    const confirmed = await fetch(linkOf(confirmation, '/api/auth/confirm-email'), { redirect: 'follow' });
    expect(confirmed.ok).toBe(true);
    const session = await api<{ token: string; user: { company_id: string } }>('/api/auth/signin', { body: { email, password: PASSWORD } });
    const questionIds: string[] = [];
    for (const [i, text] of QUESTIONS.entries()) {
      const question = await api<{ id: string }>('/api/questions/add', {
        token: session.token,
        body: { company_id: session.user.company_id, text, order_position: i + 1 },
      });
      questionIds.push(question.id);
    }
    return { token: session.token, companyId: session.user.company_id, companyName, email, questionIds };
  }

  /** A request to a new customer; returns its id and the link of the invitation e-mail. */
  async function sendRequest(language: 'english' | 'french', customerName: string, gift: string | null = null, questionIds = company.questionIds) {
    const customerEmail = `customer.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
    const { testimonial } = await api<{ testimonial: { id: string } }>('/api/testimonials/request', {
      token: company.token,
      body: {
        customer_email: customerEmail,
        customer_name: customerName,
        customer_position: language === 'french' ? 'Gérante' : 'Head of Sales',
        question_ids: questionIds,
        language,
        gift,
      },
    });
    const invitation = await waitForMail(customerEmail, (m) => m.links.some((l) => l.includes('/testimonial/submit/')));
    return { id: testimonial.id, link: linkOf(invitation, '/testimonial/submit/') };
  }

  async function newPage(options: { deny?: boolean; locale?: string } = {}): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
    const browser = await openBrowser(
      options.deny
        ? { denyMedia: true, locale: options.locale ?? 'en-US' }
        : { media: true, fakeAudioFile: wav, locale: options.locale ?? 'en-US' },
    );
    browsers.push(browser);
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 375, height: 812 });
    return { page, context: browser.context, errors: watchErrors(page) };
  }

  /** The same screen on a phone (375 px) and a laptop (1280 px); the page stays at 375 px after. */
  async function shots(page: Page, name: string, options: { settle?: boolean } = {}) {
    await page.setViewportSize({ width: 375, height: 812 });
    await sleep(150);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} overflows at 375 px`).toBeLessThanOrEqual(0);
    await screenshot(page, `${name}-mobile`, options);
    await page.setViewportSize({ width: 1280, height: 860 });
    await sleep(150);
    await screenshot(page, `${name}-desktop`, options);
    await page.setViewportSize({ width: 375, height: 812 });
  }

  const phase = (page: Page, value: string) => page.waitForSelector(`[data-testid="question"][data-phase="${value}"]`);

  /** Records one answer of about `seconds`, stopped by hand; leaves the page on its preview. */
  /** Records about `seconds` (longer if `onRecording` takes longer); returns how long it really let it record. */
  async function recordAnswer(page: Page, seconds: number, onRecording?: () => Promise<void>): Promise<number> {
    await page.click('[data-testid="record"]');
    await page.waitForSelector('[data-testid="countdown"]');
    await phase(page, 'recording');
    const started = Date.now();
    await page.waitForSelector('[data-testid="recording-indicator"]');
    if (onRecording) await onRecording();
    await sleep(Math.max(0, seconds * 1000 - (Date.now() - started)));
    await page.click('[data-testid="stop"]');
    const recorded = (Date.now() - started) / 1000;
    await phase(page, 'preview');
    // The take plays back: its video has a frame to show.
    await page.waitForFunction(() => {
      const video = document.querySelector('[data-testid="take-preview"]') as HTMLVideoElement | null;
      return !!video && video.readyState >= 2;
    });
    return recorded;
  }

  /** Answers stored in the page's IndexedDB (the database exists once the page has loaded). */
  const storedAnswers = (page: Page) =>
    page.evaluate(
      () =>
        new Promise<number>((resolve, reject) => {
          const open = indexedDB.open('vouchreel-recording');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            const count = db.transaction('answers').objectStore('answers').count();
            count.onsuccess = () => {
              db.close();
              resolve(count.result);
            };
            count.onerror = () => reject(count.error);
          };
        }),
    );

  /** Slows the upload so that it can be photographed and cut in the middle (bytes per second). */
  async function throttleUpload(context: BrowserContext, page: Page, bytesPerSecond: number) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: bytesPerSecond,
    });
    return cdp;
  }

  async function waitForTranscodedAnswers(requestId: string, count: number): Promise<string[]> {
    const dir = path.join(server.dataDir, 'media', 'companies', company.companyId, 'requests', requestId, 'answers');
    const deadline = Date.now() + 90_000;
    for (;;) {
      const answers = await readdir(dir).catch(() => [] as string[]);
      const files: string[] = [];
      for (const answer of answers) {
        const file = path.join(dir, answer, 'answer.mp4');
        if (await stat(file).then((s) => s.size > 0).catch(() => false)) files.push(file);
      }
      if (files.length >= count) return files;
      if (Date.now() > deadline) throw new Error(`${files.length} of ${count} answers transcoded after 90 s in ${dir}:\n${server.logs()}`);
      await sleep(500);
    }
  }

  async function probe(file: string) {
    const { stdout } = await run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file]);
    const json = JSON.parse(stdout) as { format: { duration: string }; streams: { codec_type: string; codec_name: string }[] };
    return {
      duration: Number(json.format.duration),
      video: json.streams.find((s) => s.codec_type === 'video')?.codec_name,
      audio: json.streams.find((s) => s.codec_type === 'audio')?.codec_name,
    };
  }

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'vouchreel-recording-e2e-'));
    // Speech for the fake microphone (flite's 16 kHz mono → 48 kHz stereo, as a real microphone).
    const raw = path.join(tmp, 'speech-16k.wav');
    wav = path.join(tmp, 'speech.wav');
    await run('flite', ['-voice', 'slt', '-t', SPEECH, '-o', raw]);
    await run('ffmpeg', ['-v', 'error', '-y', '-i', raw, '-ar', '48000', '-ac', '2', wav]);
    server = await startServer();
    company = await createCompany();
  });

  afterAll(async () => {
    for (const browser of browsers) await browser.close().catch(() => undefined);
    await server?.stop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('records two answers with a retake, resumes after a reload, survives a lost connection, and delivers playable MP4s', { timeout: 300_000 }, async () => {
    const request = await sendRequest('english', 'Sam Carter', 'A free coffee on your next visit');
    const { page, context, errors } = await newPage();

    // Information: prefilled and locked, the exact consent text, what happens next.
    await page.goto(request.link);
    await page.waitForSelector('[data-testid="consent"]');
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(await page.title()).toBe(`A video testimonial for ${company.companyName} | Vouchreel`);
    expect(await page.getAttribute('meta[name="robots"]', 'content')).toBe('noindex, nofollow');
    expect(await page.locator('[data-testid="step-indicator"]').getAttribute('data-step')).toBe('information');
    expect(await page.locator('[data-testid="consent-text"]').innerText()).toBe(consentText(CURRENT_CONSENT_VERSION, 'en', company.companyName));
    expect(await page.locator('[data-testid="gift"]').innerText()).toContain('A free coffee on your next visit');
    expect(await page.locator('main').innerText()).toContain('Answer 2 questions, up to 20 seconds each');
    const nameInput = page.getByLabel('Your name');
    expect(await nameInput.inputValue()).toBe('Sam Carter');
    expect(await nameInput.getAttribute('readonly')).not.toBeNull();
    expect(await page.getByLabel('Your position').inputValue()).toBe('Head of Sales');
    await shots(page, 'recording-information-en');

    // Consent is required.
    await page.click('[data-testid="continue"]');
    await page.waitForSelector('text=Please accept the authorisation to continue.');
    await page.check('[data-testid="consent"]');
    await page.click('[data-testid="continue"]');

    // Device check: live preview, a microphone level that hears the speech.
    await page.waitForSelector('[data-testid="start-recording-step"]:not([disabled])');
    await page.waitForSelector('[data-testid="mic-level"][data-heard="true"]', { timeout: 15_000 });
    await page.waitForFunction(() => {
      const video = document.querySelector('[data-testid="camera-preview"]') as HTMLVideoElement | null;
      return !!video && video.readyState >= 2 && video.videoWidth > 0;
    });
    await shots(page, 'recording-devices-en');
    await page.click('[data-testid="start-recording-step"]');

    // Question 1: record, retake, record again, accept.
    await page.waitForSelector('[data-testid="question-counter"]:has-text("Question 1 of 2")');
    expect(await page.locator('[data-testid="question-panel"] h1').innerText()).toBe(QUESTIONS[0]);
    // Teleprompter notes: shown over the camera, at the chosen size.
    await page.click('[data-testid="notes-toggle"]');
    await page.fill('[data-testid="notes-input"]', 'Two years\nFast answers\nSales +30%');
    await page.click('[data-testid="notes-larger"]');
    expect(await page.locator('[data-testid="notes-font-size"]').innerText()).toContain('22');
    expect(await page.locator('[data-testid="notes-overlay"]').innerText()).toContain('Fast answers');
    await recordAnswer(page, 3);
    await page.click('[data-testid="retake"]');
    await phase(page, 'idle');
    expect(await page.locator('[data-testid="take-preview"]').count()).toBe(0);
    await recordAnswer(page, 4, () => sleep(1200).then(() => shots(page, 'recording-recording-en', { settle: false })));
    expect(await page.locator('[data-testid="accept"]').innerText()).toBe('Save & Next Question');
    await shots(page, 'recording-preview-en');
    await page.click('[data-testid="accept"]');

    // Answer 1 is on the device before question 2 starts.
    await page.waitForSelector('[data-testid="question-counter"]:has-text("Question 2 of 2")');
    expect(await page.locator('[data-testid="saved-answers"]').getAttribute('data-count')).toBe('1');
    expect(await storedAnswers(page)).toBe(1);

    // Reload in the middle: the page warns (unsent answers), then resumes at question 2 with answer 1.
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.type());
      void dialog.accept();
    });
    await page.reload();
    await page.waitForSelector('[data-testid="question-counter"]:has-text("Question 2 of 2")');
    expect(dialogs).toEqual(['beforeunload']);
    expect(await page.locator('[data-testid="saved-answers"]').getAttribute('data-count')).toBe('1');
    expect(await page.locator('[data-testid="resumed"]').count()).toBe(1);
    expect(await page.locator('[data-testid="question-panel"] h1').innerText()).toBe(QUESTIONS[1]);
    expect(await storedAnswers(page)).toBe(1);

    // Question 2, then Complete Testimonial: the upload starts by itself.
    await recordAnswer(page, 3.5);
    expect(await page.locator('[data-testid="accept"]').innerText()).toBe('Complete Testimonial');
    await throttleUpload(context, page, 120_000);
    await page.click('[data-testid="accept"]');
    const progress = page.locator('[data-testid="upload-progress"]');
    await progress.waitFor();
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="upload-progress"]')?.getAttribute('data-percent')) >= 10);
    expect(await storedAnswers(page)).toBe(2);
    await shots(page, 'recording-upload-en', { settle: false });

    // The connection drops during the upload and comes back ~2 s later: the upload resumes by itself.
    const percentBefore = Number(await progress.getAttribute('data-percent'));
    expect(percentBefore).toBeLessThan(100);
    await context.setOffline(true);
    await page.waitForSelector('[data-testid="upload-offline"]');
    await screenshot(page, 'recording-upload-offline-en-mobile');
    expect(await storedAnswers(page)).toBe(2);
    await sleep(2000);
    await context.setOffline(false);
    // A second attempt succeeds (the 'done' state shows briefly before the thank-you screen).
    await page.waitForSelector('[data-testid="upload-progress"][data-phase="done"]', { timeout: 60_000 });
    expect(Number(await progress.getAttribute('data-attempt'))).toBeGreaterThanOrEqual(2);
    await page.waitForSelector('[data-testid="thank-you"]');

    // The thank-you screen replaces the page.
    expect(await page.locator('[data-testid="step-indicator"]').count()).toBe(0);
    expect(await page.locator('[data-testid="thank-you"] h1').innerText()).toBe('Thank you, Sam Carter!');
    expect(await page.locator('[data-testid="thank-you"]').innerText()).toContain(company.companyName);
    // The customer's pages belong to the business (issue 27): no sign-up offer, no link to our site, and
    // no 'powered by' line unless the operator sets CUSTOMER_PAGES_POWERED_BY.
    expect(await page.locator('[data-testid="thank-you-close"]').innerText()).toBe('You can close this page now.');
    expect(await page.locator('a[href="/signup"], a[href="/"]').count()).toBe(0);
    expect(await page.locator('footer').count()).toBe(0);
    expect(await page.locator('body').innerText()).not.toMatch(/free account|Video testimonials by/i);
    expect(await storedAnswers(page)).toBe(0);
    await shots(page, 'recording-thank-you-en');
    expect(unexpected(errors)).toEqual([]);

    // The server's side: the request is completed, the answers are H.264 MP4s with sound, and the
    // company has its e-mail.
    const safe = await api<{ testimonial: { status: string } }>(
      `/api/testimonials/request-safe/${request.id}?company_id=${company.companyId}`,
      { token: company.token },
    );
    expect(safe.testimonial.status).toBe('completed');
    const files = await waitForTranscodedAnswers(request.id, 2);
    expect(files).toHaveLength(2);
    for (const file of files) {
      const info = await probe(file);
      expect(info.video, file).toBe('h264');
      expect(info.audio, file).toBe('aac');
      expect(info.duration, file).toBeGreaterThanOrEqual(2);
      expect(info.duration, file).toBeLessThanOrEqual(6);
    }
    const mail = await waitForMail(company.email, (m) => m.subject.includes('sent you a video testimonial'));
    expect(mail.subject).toBe('Sam Carter sent you a video testimonial');

    // Opening the link again: the request is done, and the page says so.
    await page.goto(request.link);
    await page.waitForSelector('[data-testid="load-error"][data-status="409"]');
  });

  it('speaks French to a French request, from the information step to the thank-you screen', { timeout: 240_000 }, async () => {
    const request = await sendRequest('french', 'Camille Durand');
    const { page, context, errors } = await newPage({ locale: 'en-US' });

    await page.goto(request.link);
    await page.waitForSelector('[data-testid="consent"]');
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    expect(await page.locator('[data-testid="consent-text"]').innerText()).toBe(consentText(CURRENT_CONSENT_VERSION, 'fr', company.companyName));
    expect(await page.locator('main').innerText()).toContain('Répondez à 2 questions');
    await shots(page, 'recording-information-fr');
    await page.check('[data-testid="consent"]');
    await page.click('[data-testid="continue"]');

    await page.waitForSelector('[data-testid="start-recording-step"]:not([disabled])');
    await page.waitForSelector('[data-testid="mic-level"][data-heard="true"]', { timeout: 15_000 });
    await shots(page, 'recording-devices-fr');
    await page.click('[data-testid="start-recording-step"]');

    await page.waitForSelector('[data-testid="question-counter"]:has-text("Question 1 sur 2")');
    // (A screenshot during the take can outlast 2.5 s on a loaded machine: the take is then as long as it.)
    const firstTake = await recordAnswer(page, 2.5, () => sleep(1200).then(() => shots(page, 'recording-recording-fr', { settle: false })));
    expect(await page.locator('[data-testid="accept"]').innerText()).toBe('Enregistrer et question suivante');
    await shots(page, 'recording-preview-fr');
    await page.click('[data-testid="accept"]');
    await page.waitForSelector('[data-testid="question-counter"]:has-text("Question 2 sur 2")');
    // Nobody presses Stop: the recording stops itself at 20 s.
    await page.click('[data-testid="record"]');
    await phase(page, 'recording');
    await page.waitForSelector('[data-testid="question"][data-phase="preview"]', { timeout: 30_000 });
    expect(await page.locator('[data-testid="question"]').innerText()).toContain('Votre réponse (0:20)');
    expect(await page.locator('[data-testid="accept"]').innerText()).toBe('Terminer le témoignage');
    const cdp = await throttleUpload(context, page, 150_000);
    await page.click('[data-testid="accept"]');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="upload-progress"]')?.getAttribute('data-percent')) >= 15);
    await shots(page, 'recording-upload-fr', { settle: false });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

    await page.waitForSelector('[data-testid="thank-you"]', { timeout: 60_000 });
    expect(await page.locator('[data-testid="thank-you"] h1').innerText()).toBe('Merci, Camille Durand\u00a0!');
    await shots(page, 'recording-thank-you-fr');
    expect(unexpected(errors)).toEqual([]);
    const durations = (await Promise.all((await waitForTranscodedAnswers(request.id, 2)).map(probe))).map((p) => p.duration).sort((a, b) => a - b);
    expect(durations[0]).toBeGreaterThanOrEqual(1.5);
    expect(durations[0]).toBeLessThanOrEqual(Math.max(2.5, firstTake) + 1.5);
    expect(durations[1]).toBeGreaterThanOrEqual(19);
    expect(durations[1]).toBeLessThanOrEqual(21);
  });

  it('warns the writer of a long question, and shows all of it to a customer on a 375×812 phone (issue 27)', { timeout: 90_000 }, async () => {
    // The company writes it: past 150 characters the form says a long question is hard to answer.
    await api('/api/user/complete-onboarding', { method: 'PUT', token: company.token, body: {} });
    const owner = await openBrowser({ locale: 'en-US' });
    browsers.push(owner);
    const dashboard = await owner.context.newPage();
    const dashboardErrors = watchErrors(dashboard);
    await dashboard.setViewportSize({ width: 1280, height: 860 });
    await signInInBrowser(dashboard, server, { email: company.email, password: PASSWORD });
    for (const lang of ['en', 'fr'] as const) {
      await owner.context.addCookies([{ name: 'i18next', value: lang, url: server.url }]);
      await dashboard.goto(`${server.url}/dashboard/questions`);
      await dashboard.waitForSelector('[data-testid="question-row"]');
      await dashboard.fill('[data-testid="question-text-input"]', LONG_QUESTIONS[lang]);
      expect(await dashboard.locator('[data-testid="question-long-hint"]').innerText()).toMatch(
        lang === 'fr' ? /^Il est difficile de répondre à une question longue en 20 secondes/ : /^A long question is hard to answer in 20 seconds/,
      );
      await shots(dashboard, `recording-long-question-form-${lang}`);
      await dashboard.click('[data-testid="question-submit"]');
      await dashboard.waitForSelector(`[data-testid="question-row"][data-position="${lang === 'fr' ? 4 : 3}"]`);
    }
    expect(dashboardErrors).toEqual([]);
    const listed = await api<{ id: string; text: string }[]>(`/api/questions/list?company_id=${company.companyId}`, { token: company.token });
    const idOf = (text: string) => listed.find((q) => q.text === text)!.id;

    // The customer's phone: the question whole (nothing left to scroll, no cue), above a camera and
    // a record button still on the screen.
    for (const lang of ['en', 'fr'] as const) {
      const request = await sendRequest(lang === 'fr' ? 'french' : 'english', 'Jo Lane', null, [idOf(LONG_QUESTIONS[lang])]);
      const { page, errors } = await newPage();
      await page.goto(request.link);
      await page.check('[data-testid="consent"]');
      await page.click('[data-testid="continue"]');
      await page.waitForSelector('[data-testid="start-recording-step"]:not([disabled])');
      await page.click('[data-testid="start-recording-step"]');
      await phase(page, 'idle');
      const shown = await page.locator('[data-testid="question-text"]').innerText();
      expect(shown.replace(/\s+/g, ' ')).toBe(LONG_QUESTIONS[lang].replace(/\s+/g, ' '));
      for (const [width, height] of [
        [375, 812],
        [1280, 860],
      ] as const) {
        await page.setViewportSize({ width, height });
        await sleep(150);
        const fit = await page.evaluate(() => {
          const panel = document.querySelector<HTMLElement>('[data-testid="question-panel"]')!;
          const text = panel.querySelector('h1')!.getBoundingClientRect();
          const box = panel.getBoundingClientRect();
          const record = document.querySelector('[data-testid="record"]')!.getBoundingClientRect();
          return { hidden: panel.scrollHeight - panel.clientHeight, textBottom: text.bottom, panelBottom: box.bottom, recordBottom: record.bottom, screen: window.innerHeight };
        });
        const where = `${lang} at ${width}×${height}: ${JSON.stringify(fit)}`;
        expect(fit.hidden, where).toBeLessThanOrEqual(0);
        expect(fit.textBottom, where).toBeLessThanOrEqual(fit.panelBottom);
        expect(fit.panelBottom, where).toBeLessThanOrEqual(fit.screen);
        expect(fit.recordBottom, where).toBeLessThanOrEqual(fit.screen);
        expect(await page.locator('[data-testid="question-more"]').count(), where).toBe(0);
      }
      await shots(page, `recording-long-question-${lang}`, { settle: false });
      expect(unexpected(errors)).toEqual([]);
    }
  });

  it('explains a refused camera and microphone, how to allow them, and offers a retry', async () => {
    // First, a link that does not exist: the server's own words, never a blank page.
    const probePage = await newPage({ deny: true });
    await probePage.page.goto(`${server.url}/testimonial/submit/no-such-token-123`);
    const loadError = probePage.page.locator('[data-testid="load-error"]');
    await loadError.waitFor();
    expect(await loadError.getAttribute('data-status')).toBe('404');
    expect(await loadError.innerText()).toContain('This testimonial link is not valid');
    await shots(probePage.page, 'recording-link-error-en');

    for (const lang of ['en', 'fr'] as const) {
      const request = await sendRequest(lang === 'fr' ? 'french' : 'english', lang === 'fr' ? 'Léa Martin' : 'Alex Kim');
      const { page } = await newPage({ deny: true });
      await page.goto(request.link);
      await page.check('[data-testid="consent"]');
      await page.click('[data-testid="continue"]');
      const problem = page.locator('[data-testid="device-error"]');
      await problem.waitFor();
      expect(await problem.getAttribute('data-problem')).toBe('permission-denied');
      expect(await page.locator('[data-testid="device-error-howto"]').getAttribute('data-browser')).toBe('chromium');
      expect(await problem.innerText()).toContain(lang === 'fr' ? 'Caméra ou micro bloqué' : 'Camera or microphone blocked');
      expect(await page.locator('[data-testid="start-recording-step"]').isDisabled()).toBe(true);
      await shots(page, `recording-device-denied-${lang}`);
      // Retry asks again; still refused, the explanation comes back (never a blank page).
      await page.click('[data-testid="device-retry"]');
      await page.waitForSelector('[data-testid="device-error"][data-problem="permission-denied"]');
    }
  });
});
