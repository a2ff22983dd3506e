import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const RESULTS_DIR = path.resolve('test-results');

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
];

export interface BrowserSession {
  context: BrowserContext;
  close: () => Promise<void>;
}

export interface OpenBrowserOptions {
  locale?: string;
  /** Fake camera and microphone, with every permission prompt accepted. */
  media?: boolean;
  /** With `media`: a WAV file (absolute path) the fake microphone plays, in a loop. */
  fakeAudioFile?: string;
  /** Fake camera and microphone, but every permission prompt refused (the 'permission denied' case). */
  denyMedia?: boolean;
  /** More Chromium flags. */
  args?: string[];
}

/** Debian's Chromium in a fresh profile, with the flags this machine needs. */
export async function openBrowser(options: OpenBrowserOptions = {}): Promise<BrowserSession> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'vouchreel-chromium-'));
  const args = [...FLAGS, ...(options.media ? ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'] : [])];
  if (options.media && options.fakeAudioFile) args.push(`--use-file-for-fake-audio-capture=${options.fakeAudioFile}`);
  if (options.denyMedia) args.push('--use-fake-device-for-media-stream', '--deny-permission-prompts');
  if (options.args) args.push(...options.args);
  if (options.locale) args.push(`--lang=${options.locale}`);
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args,
    headless: true,
    ...(options.locale ? { locale: options.locale } : {}),
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Collects page errors and console errors so a test can assert there were none. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return errors;
}

export async function screenshot(page: Page, name: string, options: { settle?: boolean; fullPage?: boolean } = {}): Promise<string> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${name}.png`);
  // Let entrance animations finish so the picture shows the settled page (settle: false for pages
  // with endless animations, such as a pulsing recording dot, where waiting would only time out).
  if (options.settle !== false) {
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, { timeout: 5000 }).catch(() => undefined);
  }
  const fullPage = options.fullPage ?? true;
  // A whole-page picture shows every section: those a browser draws only as they near the screen
  // (render-when-visible, docs/decisions/152) would otherwise come out blank below the first screen.
  if (fullPage) await page.addStyleTag({ content: '.render-when-visible { content-visibility: visible !important; }' }).catch(() => undefined);
  await page.screenshot({ path: file, fullPage });
  return file;
}

/** Switches the app's language as a person would find it next time: the cookie and the stored choice, then a reload. */
export async function setLanguage(page: Page, server: { url: string }, browser: BrowserSession, lang: 'en' | 'fr'): Promise<void> {
  await browser.context.addCookies([{ name: 'i18next', value: lang, url: server.url }]);
  await page.evaluate((value) => localStorage.setItem('i18nextLng', value), lang);
  await page.reload();
}
