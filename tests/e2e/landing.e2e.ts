import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, screenshot, watchErrors, type BrowserSession } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';

/**
 * The landing page of the built app, served by the real server on the embedded defaults, in both
 * languages: the HTML alone until the visitor shows intent, language switch, demo videos (one plays at
 * a time), Get started → /signup.
 */
describe('landing page', () => {
  let server: RunningServer;
  let browser: BrowserSession;

  beforeAll(async () => {
    server = await startServer();
    browser = await openBrowser({ locale: 'en-US' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const isPlaying = (page: Page, lang: string) =>
    page.$eval(`video[data-demo="${lang}"]`, (v) => {
      const video = v as HTMLVideoElement;
      return !video.paused && video.currentTime > 0;
    });

  /**
   * Opens the landing page, moves the pointer over it as a visitor does, and waits until the app has
   * taken its HTML over (decisions 152 and 170): the page is its HTML until the visitor shows intent.
   * The tags that name the page's address are the app's alone (the HTML has none).
   */
  async function openLanding(page: Page) {
    await page.goto(server.url);
    await page.mouse.move(10, 10);
    await page.waitForSelector('link[rel="canonical"]', { state: 'attached' });
  }

  /** The built files a page loads for these manifest keys: each chunk, its static imports, their styles. */
  async function builtFiles(keys: string[]): Promise<{ files: Set<string>; file: (key: string) => string }> {
    type TChunk = { file: string; imports?: string[]; css?: string[] };
    const manifest = JSON.parse(await readFile(path.resolve(import.meta.dirname, '../../dist/web/.vite/manifest.json'), 'utf8')) as Record<string, TChunk>;
    const files = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk) throw new Error(`no ${key} in the Vite manifest`);
      if (files.has(chunk.file)) return;
      files.add(chunk.file);
      chunk.css?.forEach((css) => files.add(css));
      chunk.imports?.forEach(visit);
    };
    keys.forEach(visit);
    return { files, file: (key: string) => manifest[key]!.file };
  }

  it('loads only what its first screen shows: one language, no dashboard, sign-in, Radix or toast code (decision 141)', async () => {
    await browser.context.clearCookies();
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    const requested: { type: string; path: string }[] = [];
    page.on('request', (r) => requested.push({ type: r.resourceType(), path: new URL(r.url()).pathname.slice(1) }));
    await page.setViewportSize({ width: 390, height: 844 });
    // A visitor who only looks gets the HTML and one small module: no app, no messages (decision 170).
    await page.goto(server.url);
    await page.waitForLoadState('networkidle');
    const beforeIntent = requested.filter((r) => r.type === 'script').map((r) => r.path);
    expect(beforeIntent).toHaveLength(1);
    expect(beforeIntent[0]).toMatch(/^assets\/start-on-intent-\w+\.js$/);
    expect(requested.some((r) => r.path.endsWith('.json'))).toBe(false);
    // The pointer moves: the app arrives and takes the page over.
    await page.mouse.move(10, 10);
    await page.waitForSelector('link[rel="canonical"]', { state: 'attached' });
    await page.waitForLoadState('networkidle');

    const { files, file } = await builtFiles(['index.html', 'features/landing/landing-page.tsx', 'i18n/en.json']);
    const scripts = requested.filter((r) => r.type === 'script').map((r) => r.path);
    const start = scripts.filter((path) => /^assets\/start-on-intent-\w+\.js$/.test(path));
    expect(start).toHaveLength(1);
    expect(scripts.filter((path) => !start.includes(path)).sort()).toEqual([...files].filter((f) => f.endsWith('.js')).sort());
    expect(scripts).not.toContain(file('i18n/fr.json'));
    // The hero's poster: one WebP from the srcset (the preload and the image share it), never the JPEG.
    const posters = requested.filter((r) => r.path.startsWith('media/demo-en'));
    expect(posters).toHaveLength(1);
    expect(posters[0]!.path).toMatch(/^media\/demo-en-\d+\.webp$/);
    expect(requested.some((r) => r.path.endsWith('.jpg'))).toBe(false);
    const poster = await page.$eval('[data-testid="demo-play-en"]', (button) => {
      const image = button.parentElement!.querySelector('img')!;
      return { width: image.getAttribute('width'), height: image.getAttribute('height'), loaded: image.complete && image.naturalWidth > 0 };
    });
    expect(poster).toEqual({ width: '1280', height: '720', loaded: true });

    // The other language's messages (and the menu's code) arrive with the switch.
    await page.click('[data-testid="language-menu"]');
    await page.click('[data-testid="language-option-fr"]');
    await page.waitForFunction(() => document.documentElement.lang === 'fr');
    expect(requested.map((r) => r.path)).toContain(file('i18n/fr.json'));
    expect(await page.textContent('[data-testid="get-started"]')).not.toBe('Get started');
    await page.keyboard.press('Escape');

    // The phone menu: a stand-in until pressed, then the Radix menu, open, with the sections.
    await page.click('[data-testid="mobile-menu"]');
    await page.waitForSelector('[role="menu"] a[href="/#pricing"]');
    expect(errors).toEqual([]);
    // The next journeys start as a new English visitor (the choice is kept in a cookie and local storage).
    await page.evaluate(() => localStorage.clear());
    await page.close();
    await browser.context.clearCookies();
  });

  it('paints its first screen from the HTML in the browser language, then takes that HTML over as it is (decision 152)', async () => {
    // Without any script: the page is all there, in the visitor's kept language (French here).
    await browser.context.clearCookies();
    await browser.context.addCookies([{ name: 'i18next', value: 'fr', url: server.url }]);
    const bare = await browser.context.newPage();
    await bare.setViewportSize({ width: 375, height: 667 });
    const cdp = await browser.context.newCDPSession(bare);
    await cdp.send('Emulation.setScriptExecutionDisabled', { value: true });
    await bare.goto(server.url);
    expect(await bare.getAttribute('html', 'lang')).toBe('fr');
    expect(await bare.title()).toBe('Les témoignages vidéo de vos clients | Vouchreel');
    expect(await bare.textContent('h1')).toBe('Transformez vos clients satisfaits en témoignages vidéo');
    expect(await bare.locator('li[data-package]').count()).toBe(5);
    expect(await bare.getAttribute('[data-testid="get-started"]', 'href')).toBe('/signup');
    expect(await bare.evaluate(() => document.querySelector('#root')?.getAttribute('data-prerendered'))).toBe('fr');
    await screenshot(bare, 'landing-fr-375-no-script', { fullPage: false });
    await bare.close();
    await browser.context.clearCookies();

    // With its script held back: the menu pressed before the app has arrived opens once it has taken
    // the page over (decision 170), the heading painted from the HTML is still the same element, and
    // React reports no mismatch.
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 375, height: 667 });
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(server.url, { waitUntil: 'commit' });
    await page.waitForSelector('h1');
    await page.$eval('h1', (h1) => h1.setAttribute('data-painted-from-html', 'yes'));
    await page.click('[data-testid="mobile-menu"]');
    expect(await page.locator('[role="menuitem"]').count()).toBe(0);
    release();
    // Taken over: the tags that name the page's address are the app's (the HTML has none), and the
    // press made before is answered.
    await page.waitForSelector('link[rel="canonical"]', { state: 'attached' });
    await page.waitForSelector('[role="menuitem"]');
    expect(await page.getAttribute('h1', 'data-painted-from-html')).toBe('yes');
    expect(await page.getAttribute('link[rel="canonical"]', 'href')).toBe(`${server.url}/`);
    expect(await page.locator('title').count()).toBe(1);
    expect(await page.locator('meta[name="description"]').count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows English to an English browser, switches to French, and remembers it', async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await openLanding(page);
    await page.waitForSelector('#pricing');
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(await page.title()).toMatch(/ \| Vouchreel$/);
    expect(await page.getAttribute('meta[name="robots"]', 'content')).toBe('index, follow');
    expect(await page.getAttribute('meta[property="og:image"]', 'content')).toBe(`${server.url}/og-image.png`);
    expect(await page.getAttribute('link[rel="canonical"]', 'href')).toBe(`${server.url}/`);
    expect(await page.locator('li[data-feature]').count()).toBe(6);
    expect(await page.locator('li[data-package]').count()).toBe(5);
    expect(await page.textContent('li[data-package="starter"]')).toContain('€75');
    expect(await page.getAttribute('li[data-package="medium"]', 'data-featured')).toBe('true');
    await screenshot(page, 'landing-en-desktop');

    await page.click('[data-testid="language-menu"]');
    await page.click('[data-testid="language-option-fr"]');
    await page.waitForFunction(() => document.documentElement.lang === 'fr');
    expect(await page.textContent('li[data-package="starter"]')).toContain('75\u00a0€');
    const cookies = await browser.context.cookies(server.url);
    expect(cookies.find((c) => c.name === 'i18next')).toMatchObject({ value: 'fr', path: '/', sameSite: 'Lax' });

    await page.reload();
    await page.waitForSelector('#pricing');
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    expect(await page.getAttribute('meta[property="og:locale"]', 'content')).toBe('fr_FR');
    await screenshot(page, 'landing-fr-desktop');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('plays the demo video of each language, one at a time', async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await openLanding(page);
    await page.waitForSelector('[data-testid="demo-play-fr"]');

    await page.click('[data-testid="demo-play-fr"]');
    await page.waitForFunction(() => {
      const v = document.querySelector('video[data-demo="fr"]') as HTMLVideoElement | null;
      return v && !v.paused && v.currentTime > 0.3;
    });
    expect(await page.$eval('video[data-demo="fr"]', (v) => (v as HTMLVideoElement).currentSrc)).toMatch(/\/media\/demo-fr\.mp4$/);

    await page.click('[data-testid="demo-play-en"]');
    await page.waitForFunction(() => {
      const v = document.querySelector('video[data-demo="en"]') as HTMLVideoElement | null;
      return v && !v.paused && v.currentTime > 0.3;
    });
    expect(await isPlaying(page, 'en')).toBe(true);
    expect(await page.$eval('video[data-demo="fr"]', (v) => (v as HTMLVideoElement).paused)).toBe(true);
    await screenshot(page, 'landing-demo-playing');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('follows Get started to /signup, on a phone in French', async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 375, height: 812 });
    await browser.context.addCookies([{ name: 'i18next', value: 'fr', url: server.url }]);
    await openLanding(page);
    await page.waitForSelector('#pricing');
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'landing-fr-mobile');

    await page.click('[data-testid="get-started"]');
    await page.waitForURL(`${server.url}/signup`);
    await page.waitForSelector('h1');
    expect(await page.title()).toMatch(/ \| Vouchreel$/);
    await screenshot(page, 'signup-fr-mobile');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('sends signed-out visitors of the dashboard, unknown dashboard paths included, to the noindex sign-in page', async () => {
    // The under-construction page itself is checked signed in (tests/e2e/dashboard.e2e.ts).
    const page = await browser.context.newPage();
    await page.goto(`${server.url}/dashboard/nowhere`);
    await page.waitForURL(`${server.url}/signin`);
    await page.waitForSelector('h1');
    expect(await page.getAttribute('meta[name="robots"]', 'content')).toBe('noindex, nofollow');
    await page.close();
  });

  it('answers unknown API paths with JSON, not the web app', async () => {
    const res = await fetch(`${server.url}/api/nothing-here`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'No such API call: GET /api/nothing-here.', code: 'not_found' });
  });
});
