import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, screenshot, watchErrors, type BrowserSession } from './support/browser.js';
import { makeAnswerClip, signUpCompany, waitForMailLink, type Company } from './support/fixtures.js';
import { startServer, type RunningServer } from './support/server.js';

/**
 * The customer's recording page, issue 18, in the built app and Chromium:
 * - a customer on a phone-sized window, in French, sends videos from the device instead of recording:
 *   the page refuses what it can check itself (not a video, too long) in French, keeps a good file
 *   on the device and previews it; the server refuses a file without sound, in French, and the
 *   customer replaces that answer with another file; the answers reach the company;
 * - a customer whose camera is refused is offered a video from the device, and answers with it;
 * - the question, the camera and the record button are in view at 375×667, 390×844 and 1280×720,
 *   notes open or closed, and Stop and the preview's buttons as well;
 * - Chromium, able to record MP4, records the answer in MP4 (H.264), which the server stores as such.
 */

const run = promisify(execFile);

interface Detail {
  testimonial: { status: string; testimonial_responses: { id: string; question: { id: string } }[] } | null;
}

/** Console errors caused on purpose: the camera refused, the server's refusal of a file without sound. */
function unexpected(errors: string[]): string[] {
  return errors.filter((e) => !/Permission denied|status of 400/i.test(e));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('customer recording page: a video from the device, and everything in view', () => {
  let server: RunningServer;
  let company: Company;
  let tmp: string;
  const clips: Record<'mp4' | 'long' | 'silent' | 'webm' | 'text', string> = { mp4: '', long: '', silent: '', webm: '', text: '' };
  const questionIds: string[] = [];
  const browsers: BrowserSession[] = [];

  /** A request to a new customer, for the first `count` questions; returns its id and its link. */
  async function sendRequest(language: 'english' | 'french', customerName: string, count = 2) {
    const customerEmail = `customer.${Date.now()}.${Math.floor(Math.random() * 1e6)}@client.test`;
    const { testimonial } = await company.api<{ testimonial: { id: string } }>('POST', '/api/testimonials/request', {
      customer_email: customerEmail,
      customer_name: customerName,
      customer_position: language === 'french' ? 'Gérante' : 'Head of Sales',
      question_ids: questionIds.slice(0, count),
      language,
    });
    return { id: testimonial.id, link: await waitForMailLink(server, customerEmail, '/testimonial/submit/') };
  }

  async function newPage(options: { deny?: boolean; noDevices?: boolean; width?: number; height?: number } = {}) {
    const browser = await openBrowser(options.noDevices ? { locale: 'en-US' } : options.deny ? { denyMedia: true, locale: 'en-US' } : { media: true, locale: 'en-US' });
    browsers.push(browser);
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: options.width ?? 375, height: options.height ?? 667 });
    return { page, errors: watchErrors(page) };
  }

  /** From the link to the recording step: consent, then the device check (or its problem). */
  async function openLink(page: Page, link: string) {
    await page.goto(link);
    await page.waitForSelector('[data-testid="consent"]', { timeout: 10_000 }).catch(async (error: unknown) => {
      await screenshot(page, 'recording-file-debug');
      throw new Error(`${String(error)}\n${await page.locator('body').innerText()}`);
    });
    await page.check('[data-testid="consent"]');
    await page.click('[data-testid="continue"]');
  }

  async function startRecordingStep(page: Page) {
    await page.waitForSelector('[data-testid="start-recording-step"]:not([disabled])');
    await page.click('[data-testid="start-recording-step"]');
    await page.waitForSelector('[data-testid="question"][data-phase="idle"]');
  }

  const phase = (page: Page, value: string) => page.waitForSelector(`[data-testid="question"][data-phase="${value}"]`);

  /** Chooses `file` as the answer to the question on screen (the picker's input, as a phone's camera app would fill it). */
  async function chooseFile(page: Page, file: string) {
    await page.setInputFiles('[data-testid="file-input"]', file);
  }

  /** Waits for a chosen file's preview, playable. */
  async function preview(page: Page) {
    await phase(page, 'preview');
    await page.waitForFunction(() => {
      const video = document.querySelector('[data-testid="take-preview"]') as HTMLVideoElement | null;
      return !!video && video.readyState >= 2;
    });
  }

  /** Answers kept in the page's IndexedDB. */
  const storedAnswers = (page: Page) =>
    page.evaluate(
      () =>
        new Promise<{ count: number; types: string[] }>((resolve, reject) => {
          const open = indexedDB.open('vouchreel-recording');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            const all = db.transaction('answers').objectStore('answers').getAll();
            all.onsuccess = () => {
              db.close();
              const rows = all.result as { mimeType: string; source?: string }[];
              resolve({ count: rows.length, types: rows.map((r) => `${r.source}:${r.mimeType}`) });
            };
            all.onerror = () => reject(all.error);
          };
        }),
    );

  /** The stored originals of a request's answers (file names), as the save call wrote them. */
  async function originals(requestId: string): Promise<string[]> {
    const dir = path.join(server.dataDir, 'media', 'companies', company.companyId, 'requests', requestId, 'answers');
    const found: string[] = [];
    for (const answer of await readdir(dir).catch(() => [] as string[])) {
      for (const file of await readdir(path.join(dir, answer))) if (/^original\.\w+$/.test(file)) found.push(path.join(dir, answer, file));
    }
    return found;
  }

  async function probe(file: string) {
    const { stdout } = await run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file]);
    const json = JSON.parse(stdout) as { format: { format_name: string }; streams: { codec_type: string; codec_name: string }[] };
    return {
      format: json.format.format_name,
      video: json.streams.find((s) => s.codec_type === 'video')?.codec_name,
      audio: json.streams.find((s) => s.codec_type === 'audio')?.codec_name,
    };
  }

  /** The company's view of the request: completed, with one answer per question. */
  async function expectAnswered(requestId: string, questions: string[]) {
    const detail = await company.api<Detail>('GET', `/api/testimonials/request/${requestId}?company_id=${company.companyId}`);
    expect(detail.testimonial?.status).toBe('completed');
    expect(detail.testimonial?.testimonial_responses.map((r) => r.question.id).sort()).toEqual([...questions].sort());
  }

  /** Whether an element's box lies wholly inside the window (no scrolling). */
  async function inView(page: Page, selector: string) {
    const box = await page.locator(selector).boundingBox();
    const size = page.viewportSize()!;
    return !!box && box.width > 0 && box.height > 0 && box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width + 0.5 && box.y + box.height <= size.height + 0.5;
  }

  async function expectInView(page: Page, selectors: string[], where: string) {
    // The page scrolls smoothly to the top of each step and when a recording starts.
    await page.waitForFunction(() => window.scrollY === 0, undefined, { timeout: 3000 }).catch(() => undefined);
    expect(await page.evaluate(() => window.scrollY), `${where}: scrolled`).toBe(0);
    for (const selector of selectors) expect(await inView(page, selector), `${selector} out of view at ${where}`).toBe(true);
  }

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'vouchreel-recording-file-e2e-'));
    const picture = (size: string) => ['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=30`];
    const tone = ['-f', 'lavfi', '-i', 'sine=f=440'];
    const x264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p'];
    clips.mp4 = path.join(tmp, 'VID_20261125_101500.mp4');
    clips.long = path.join(tmp, 'VID_20261125_102000.mp4');
    clips.silent = path.join(tmp, 'VID_20261125_103000.mp4');
    clips.text = path.join(tmp, 'notes.txt');
    // A phone's video: H.264/AAC in MP4, 4 s; one of 25 s, over the limit; one without sound.
    await run('ffmpeg', ['-v', 'error', '-y', ...picture('640x480'), ...tone, '-t', '4', ...x264, '-c:a', 'aac', clips.mp4]);
    await run('ffmpeg', ['-v', 'error', '-y', ...picture('320x240'), ...tone, '-t', '25', ...x264, '-c:a', 'aac', clips.long]);
    await run('ffmpeg', ['-v', 'error', '-y', ...picture('640x480'), '-t', '3', ...x264, clips.silent]);
    await writeFile(clips.text, 'Not a video: my notes for the testimonial.\n');
    clips.webm = await makeAnswerClip({ seconds: 3, tone: 523 });

    server = await startServer();
    company = await signUpCompany(server, { prefix: 'recording-file' });
    for (const [i, text] of ['What problem did we help you solve, and how did it feel once it was solved?', 'What would you tell a friend about working with us?'].entries()) {
      questionIds.push((await company.api<{ id: string }>('POST', '/api/questions/add', { company_id: company.companyId, text, order_position: i + 1 })).id);
    }
  });

  afterAll(async () => {
    for (const browser of browsers) await browser.close().catch(() => undefined);
    await server?.stop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('on a phone, in French, sends videos from the device: refused on the page, refused by the server, replaced, delivered', { timeout: 240_000 }, async () => {
    const request = await sendRequest('french', 'Camille Durand');
    const { page, errors } = await newPage({ width: 375, height: 667 });
    await openLink(page, request.link);
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    await startRecordingStep(page);
    await page.waitForSelector('[data-testid="question-counter"]:has-text("Question 1 sur 2")');

    // The choice is offered next to Record, for a video ('accept') from the camera app on a phone ('capture').
    const input = page.locator('[data-testid="file-input"]');
    expect(await input.getAttribute('accept')).toBe('video/*');
    expect(await input.getAttribute('capture')).toBe('user');
    expect(await page.locator('[data-testid="choose-file"]').innerText()).toBe('Envoyer une vidéo');
    await screenshot(page, 'recording-file-idle-fr-mobile', { fullPage: false });

    // What the page can check itself, it refuses at once, in French: not a video, then too long.
    await chooseFile(page, clips.text);
    const refusal = page.locator('[data-testid="take-error"]');
    await refusal.waitFor();
    expect(await refusal.innerText()).toBe('Ce fichier n\'est pas une vidéo. Choisissez une vidéo (MP4, MOV ou WebM).');
    await phase(page, 'idle');
    await chooseFile(page, clips.long);
    await page.waitForSelector('[data-testid="take-error"]:has-text("Cette vidéo dure 0:25")');
    expect(await refusal.innerText()).toBe(
      'Cette vidéo dure 0:25\u00a0; une réponse est limitée à 20\u00a0secondes. Filmez-en une plus courte, ou raccourcissez-la d\'abord sur votre appareil.',
    );
    await screenshot(page, 'recording-file-refused-fr-mobile', { fullPage: false });
    expect((await storedAnswers(page)).count).toBe(0);

    // A good video: previewed like a take, with its duration, then kept on the device.
    await chooseFile(page, clips.mp4);
    await preview(page);
    expect(await refusal.count()).toBe(0);
    expect(await page.locator('[data-testid="take-actions"]').innerText()).toContain('Votre vidéo (0:04)');
    expect(await page.locator('[data-testid="accept"]').innerText()).toBe('Enregistrer et question suivante');
    await expectInView(page, ['[data-testid="question-panel"]', '[data-testid="take-preview"]', '[data-testid="accept"]', '[data-testid="retake"]'], 'file preview 375×667');
    await screenshot(page, 'recording-file-preview-fr-mobile', { fullPage: false });
    await page.click('[data-testid="accept"]');
    await page.waitForSelector('[data-testid="question-counter"]:has-text("Question 2 sur 2")');
    expect(await storedAnswers(page)).toEqual({ count: 1, types: ['file:video/mp4'] });

    // Answer 2: a video without sound. The browser cannot tell; the server refuses it, in French,
    // and the customer is taken back to that answer to replace it.
    await chooseFile(page, clips.silent);
    await preview(page);
    expect(await page.locator('[data-testid="accept"]').innerText()).toBe('Terminer le témoignage');
    await page.click('[data-testid="accept"]');
    const uploadError = page.locator('[data-testid="upload-error"]');
    await uploadError.waitFor({ timeout: 60_000 });
    expect(await uploadError.innerText()).toContain("La réponse 2 n'a pas de son.");
    expect(await storedAnswers(page)).toEqual({ count: 2, types: ['file:video/mp4', 'file:video/mp4'] });
    await screenshot(page, 'recording-file-server-refusal-fr-mobile');
    const replace = page.locator('[data-testid="record-again"]');
    expect(await replace.innerText()).toBe('Remplacer la réponse 2');
    await replace.click();
    await page.waitForSelector('[data-testid="question-counter"]:has-text("Question 2 sur 2")');
    await phase(page, 'preview');
    await page.click('[data-testid="retake"]');
    await phase(page, 'idle');

    // A WebM from the device this time, and the upload goes through, with its progress.
    await chooseFile(page, clips.webm);
    await preview(page);
    await page.click('[data-testid="accept"]');
    await page.waitForSelector('[data-testid="upload-progress"]');
    await page.waitForSelector('[data-testid="thank-you"]', { timeout: 60_000 });
    expect(await page.locator('[data-testid="thank-you"] h1').innerText()).toBe('Merci, Camille Durand\u00a0!');
    expect((await storedAnswers(page)).count).toBe(0);
    expect(unexpected(errors)).toEqual([]);

    // The company's side: the request is completed with both answers, stored as sent.
    await expectAnswered(request.id, questionIds);
    const stored = (await originals(request.id)).map((f) => path.basename(f)).sort();
    expect(stored).toEqual(['original.mp4', 'original.webm']);
  });

  it('with the camera refused, offers a video from the device, and the customer answers with it', { timeout: 180_000 }, async () => {
    const request = await sendRequest('english', 'Alex Kim', 1);
    const { page, errors } = await newPage({ deny: true, width: 375, height: 667 });
    await openLink(page, request.link);

    // The device check explains the problem and offers the other way.
    const problem = page.locator('[data-testid="device-error"]');
    await problem.waitFor();
    expect(await problem.getAttribute('data-problem')).toBe('permission-denied');
    expect(await page.locator('[data-testid="file-instead-hint"]').innerText()).toContain('No working camera? You can still answer');
    expect(await page.locator('[data-testid="start-recording-step"]').isDisabled()).toBe(true);
    await screenshot(page, 'recording-file-denied-devices-en-mobile');
    await page.click('[data-testid="use-file-instead"]');

    // The question, with the same explanation and the choice of a video in place of the camera.
    await page.waitForSelector('[data-testid="question"] [data-testid="device-error"]');
    expect(await page.locator('[data-testid="record"]').count()).toBe(0);
    const choose = page.locator('[data-testid="choose-file"]');
    expect(await choose.innerText()).toBe('Send a video instead');
    await expectInView(page, ['[data-testid="question-panel"]', '[data-testid="choose-file"]'], 'camera refused, 375×667');
    await screenshot(page, 'recording-file-denied-question-en-mobile');
    await chooseFile(page, clips.mp4);
    await preview(page);
    expect(await page.locator('[data-testid="take-actions"]').innerText()).toContain('Your video (0:04)');
    expect(await page.locator('[data-testid="accept"]').innerText()).toBe('Complete Testimonial');
    await page.click('[data-testid="accept"]');
    await page.waitForSelector('[data-testid="thank-you"]', { timeout: 60_000 });
    expect(await page.locator('[data-testid="thank-you"] h1').innerText()).toBe('Thank you, Alex Kim!');
    expect(unexpected(errors)).toEqual([]);
    await expectAnswered(request.id, questionIds.slice(0, 1));
    expect((await originals(request.id)).map((f) => path.basename(f))).toEqual(['original.mp4']);

    // A browser with no camera at all is offered the same way.
    const bare = await newPage({ noDevices: true, width: 1280, height: 720 });
    const other = await sendRequest('french', 'Léa Martin', 1);
    await openLink(bare.page, other.link);
    await bare.page.waitForSelector('[data-testid="device-error"]');
    expect(await bare.page.locator('[data-testid="use-file-instead"]').innerText()).toBe('Envoyer une vidéo à la place');
  });

  it('keeps the question, the camera and the record button in view at 375×667, 390×844 and 1280×720, notes open or closed; records MP4', { timeout: 180_000 }, async () => {
    const request = await sendRequest('english', 'Sam Carter', 1);
    const { page, errors } = await newPage({ width: 375, height: 667 });
    await openLink(page, request.link);
    await startRecordingStep(page);
    await page.waitForFunction(() => {
      const video = document.querySelector('[data-testid="camera-preview"]') as HTMLVideoElement | null;
      return !!video && video.readyState >= 2 && video.videoWidth > 0;
    });
    const stage = ['[data-testid="question-panel"]', '[data-testid="camera-box"]', '[data-testid="record"]', '[data-testid="choose-file"]', '[data-testid="notes-toggle"]'];
    const sizes = [
      [375, 667],
      [390, 844],
      [1280, 720],
    ] as const;
    for (const notes of [false, true]) {
      if (notes) {
        await page.click('[data-testid="notes-toggle"]');
        await page.fill('[data-testid="notes-input"]', 'Two years\nFast answers\nSales up by thirty percent\nA team that listens');
        await page.click('[data-testid="notes-larger"]');
        await page.evaluate(() => window.scrollTo(0, 0));
      }
      for (const [width, height] of sizes) {
        await page.setViewportSize({ width, height });
        await sleep(150);
        await page.evaluate(() => window.scrollTo(0, 0));
        await expectInView(page, stage, `${width}×${height}, notes ${notes ? 'open' : 'closed'}`);
        // The camera is not squeezed to nothing: at least a third of the window's height or width.
        const camera = (await page.locator('[data-testid="camera-box"]').boundingBox())!;
        expect(camera.height, `camera at ${width}×${height}`).toBeGreaterThan(Math.min(height, width) / 3);
        expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      }
      if (notes) expect(await page.locator('[data-testid="notes-overlay"]').innerText()).toContain('Fast answers');
    }

    // Recording at 375×667 with the notes open, after the notes were scrolled to: the page comes
    // back to the question, the camera and Stop.
    await page.setViewportSize({ width: 375, height: 667 });
    await page.locator('[data-testid="notes-input"]').scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await page.click('[data-testid="record"]');
    await phase(page, 'recording');
    await expectInView(page, ['[data-testid="question-panel"]', '[data-testid="camera-box"]', '[data-testid="stop"]'], 'recording 375×667');
    await screenshot(page, 'recording-file-recording-en-mobile', { settle: false, fullPage: false });
    await sleep(2500);
    await page.click('[data-testid="stop"]');
    await preview(page);
    await expectInView(page, ['[data-testid="question-panel"]', '[data-testid="take-preview"]', '[data-testid="accept"]', '[data-testid="retake"]'], 'preview 375×667');

    // Chromium records MP4 here (H.264): the page keeps it as such, and the server stores an MP4.
    const recorderType = await page.evaluate(() => MediaRecorder.isTypeSupported('video/mp4;codecs=avc1,opus'));
    expect(recorderType).toBe(true);
    await page.click('[data-testid="accept"]');
    await page.waitForSelector('[data-testid="thank-you"]', { timeout: 60_000 });
    expect(unexpected(errors)).toEqual([]);
    await expectAnswered(request.id, questionIds.slice(0, 1));
    const [original, ...more] = await originals(request.id);
    expect(more).toEqual([]);
    expect(path.basename(original!)).toBe('original.mp4');
    const info = await probe(original!);
    expect(info.format).toContain('mp4');
    expect(info.video).toBe('h264');
    expect(['aac', 'opus']).toContain(info.audio);
  });
});
