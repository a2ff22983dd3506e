import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, screenshot, watchErrors, type BrowserSession } from './support/browser.js';
import { signInInBrowser, signUpCompany, type Company } from './support/fixtures.js';
import { startServer, type RunningServer } from './support/server.js';

const run = promisify(execFile);

/** Waits until the preview's fonts have arrived (the preview draws with the shipped files). */
async function fontsReady(page: Page, families: string[]) {
  await page.waitForFunction(
    (names) => names.every((name) => [...document.fonts].some((face) => face.family.replace(/"/g, '') === name && face.status === 'loaded')),
    families,
  );
}

/** The drawn boxes of the intro card's lines and logo, in the SVG's frame pixels, as Chromium lays them out. */
async function drawnCard(page: Page) {
  return page.evaluate(() => {
    const svg = document.querySelector<SVGSVGElement>('[data-testid="preview-intro"]')!;
    const box = (el: SVGGraphicsElement) => {
      const b = el.getBBox();
      return { x: b.x, y: b.y, width: b.width, height: b.height };
    };
    const logo = svg.querySelector<SVGImageElement>('[data-testid="preview-logo"]');
    return {
      viewBox: svg.getAttribute('viewBox'),
      kind: svg.getAttribute('data-kind'),
      shrunk: svg.getAttribute('data-shrunk'),
      fontSize: Number(svg.getAttribute('data-font-size')),
      lines: [...svg.querySelectorAll<SVGTextElement>('[data-testid="preview-question-line"]')].map((el) => ({ text: el.textContent ?? '', ...box(el) })),
      logo: logo ? box(logo) : null,
    };
  });
}

/**
 * The ready-made themes and the preview's formats (issue 17), in Chromium: the themes are a radio group
 * picked with the keyboard, the preview follows; on each format the card's lines, as the browser draws
 * them with the shipped fonts, stay inside the frame's safe area and under the logo's band. Screenshots
 * at 375 and 1280 px in English and French, on each format.
 */
describe('settings: themes and preview formats', () => {
  let server: RunningServer;
  let browser: BrowserSession;
  let workDir: string;
  let company: Company;

  beforeAll(async () => {
    server = await startServer();
    browser = await openBrowser({ locale: 'en-US' });
    workDir = await mkdtemp(path.join(os.tmpdir(), 'vouchreel-themes-'));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('picks a theme with the keyboard, previews each format within its safe area, and keeps the logo in its band', async () => {
    company = await signUpCompany(server, { prefix: 'themes' });
    await company.api('PUT', '/api/user/complete-onboarding', {});
    const logo = path.join(workDir, 'logo.png');
    // A wide two-colour wordmark stand-in, so the picture shows how the band fits a wide logo.
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=#f5f1e8:s=360x96', '-vf', 'drawbox=x=0:y=0:w=96:h=96:color=#e4572e:t=fill', '-frames:v', '1', logo]);

    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInInBrowser(page, server, company);
    await page.goto(`${server.url}/dashboard/settings?tab=video`);
    await page.waitForSelector('[data-testid="settings-video-form"]');

    // A new company starts on the 'ink' theme, shown as picked.
    const picker = page.locator('[data-testid="theme-picker"]');
    expect(await picker.getAttribute('role')).toBe('radiogroup');
    expect(await page.isChecked('[data-testid="theme-ink-input"]')).toBe(true);
    expect(await page.getAttribute('[data-testid="preview-intro"] rect', 'fill')).toBe('#15171f');

    // The keyboard moves through the themes as through any radio group, and each one fills the fields.
    await page.focus('[data-testid="theme-ink-input"]');
    await page.keyboard.press('ArrowRight');
    expect(await page.isChecked('[data-testid="theme-paper-input"]')).toBe(true);
    expect(await page.inputValue('[data-testid="question-font"]')).toBe('Georgia');
    expect(await page.getAttribute('[data-testid="preview-intro"] rect', 'fill')).toBe('#f5f1e8');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('theme-paper-input');
    await page.keyboard.press('ArrowRight');
    expect(await page.isChecked('[data-testid="theme-ocean-input"]')).toBe(true);
    expect(await page.inputValue('[data-testid="background-color"]')).toBe('#0b3954');
    await page.waitForSelector('[data-testid="style-save"]:not([disabled])');

    // The logo, shown in videos: it gets its own band on the card.
    await page.setInputFiles('[data-testid="logo-input"]', logo);
    await page.waitForSelector('[data-testid="logo-current"][src*="/api/public/logo/"]:not([data-preparing])');
    // The switch turned on with the upload (issue 27).
    expect(await page.getAttribute('[data-testid="show-logo-switch"]', 'aria-checked')).toBe('true');
    await page.waitForSelector('[data-testid="preview-logo"]');
    // The logo's fields are not a theme's: the theme stays picked.
    expect(await page.isChecked('[data-testid="theme-ocean-input"]')).toBe(true);
    await page.click('[data-testid="style-save"]');
    await page.waitForSelector('[data-testid="style-save"][disabled]');
    await fontsReady(page, ['DejaVu Sans', 'Fira Sans']);

    // Each format: the frame of the video, the lines inside its safe area and under the logo.
    const safeShares = {
      answer: { top: 0.07, bottom: 0.07, left: 0.07, right: 0.07 },
      landscape: { top: 0.07, bottom: 0.08, left: 0.07, right: 0.07 },
      vertical: { top: 0.14, bottom: 0.26, left: 0.07, right: 0.14 },
    } as const;
    const sizes = { answer: '0 0 960 540', landscape: '0 0 1920 1080', vertical: '0 0 1080 1920' } as const;
    await page.check('[data-testid="preview-long-question"]');
    for (const format of ['answer', 'landscape', 'vertical'] as const) {
      await page.click(`label:has([data-testid="preview-format-${format}"])`);
      expect(await page.isChecked(`[data-testid="preview-format-${format}"]`)).toBe(true);
      const card = await drawnCard(page);
      expect(card.viewBox).toBe(sizes[format]);
      expect(card.kind).toBe(format);
      // The long sample is shrunk to fit, and said so under the frame.
      expect(card.shrunk, format).toBe('true');
      expect(await page.textContent('[data-testid="preview-fit-note"]')).toMatch(/^Reduced to \d+ px to fit$/);
      const [, , width, height] = sizes[format].split(' ').map(Number) as [number, number, number, number];
      const m = safeShares[format];
      const logoBox = card.logo!;
      expect(logoBox.y).toBeGreaterThanOrEqual(Math.round(height * m.top) - 1);
      for (const line of card.lines) {
        const where = `${format}: ${line.text}`;
        expect(line.x, where).toBeGreaterThanOrEqual(width * m.left - 1);
        expect(line.x + line.width, where).toBeLessThanOrEqual(width * (1 - m.right) + 1);
        expect(line.y + line.height, where).toBeLessThanOrEqual(height * (1 - m.bottom) + 1);
        expect(line.y, where).toBeGreaterThanOrEqual(logoBox.y + logoBox.height);
      }
      expect(card.lines.at(-1)!.text.endsWith('…')).toBe(false);
    }
    // On 9:16, the platforms' overlays show faintly (and can be hidden); the subtitles sit above them.
    expect(await page.locator('[data-testid="preview-intro"] [data-testid="preview-overlay-zones"]').count()).toBe(1);
    const subtitleBottom = await page.evaluate(() => {
      const lines = [...document.querySelectorAll<SVGTextElement>('[data-testid="preview-subtitle-line"]')];
      return Math.max(...lines.map((el) => el.getBBox().y + el.getBBox().height));
    });
    expect(subtitleBottom).toBeLessThanOrEqual(1920 * (1 - 0.26) + 1);
    await page.uncheck('[data-testid="preview-zones"]');
    expect(await page.locator('[data-testid="preview-overlay-zones"]').count()).toBe(0);
    await page.check('[data-testid="preview-zones"]');

    // Screenshots: each format at 1280 and 375 px, in English and French.
    const shoot = async (lang: 'en' | 'fr') => {
      for (const width of [1280, 375]) {
        await page.setViewportSize(width === 1280 ? { width: 1280, height: 900 } : { width: 375, height: 812 });
        for (const format of ['answer', 'landscape', 'vertical'] as const) {
          await page.click(`label:has([data-testid="preview-format-${format}"])`);
          if (width === 1280) {
            await page.evaluate(() => window.scrollTo(0, 0));
            await page.locator('[data-testid="settings-themes"]').scrollIntoViewIfNeeded();
          } else {
            await page.evaluate(() => window.scrollTo(0, 0));
            await page.locator('[data-testid="settings-preview"]').scrollIntoViewIfNeeded();
          }
          expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
          await screenshot(page, `settings-themes-${format}-${lang}-${width}`, { fullPage: false });
        }
        if (width === 375) {
          await page.locator('[data-testid="settings-themes"]').scrollIntoViewIfNeeded();
          await screenshot(page, `settings-themes-picker-${lang}-375`, { fullPage: false });
        }
      }
    };
    await page.uncheck('[data-testid="preview-long-question"]');
    await shoot('en');
    await browser.context.addCookies([{ name: 'i18next', value: 'fr', url: server.url }]);
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'fr'));
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.reload();
    await page.waitForSelector('[data-testid="settings-video-form"]');
    await fontsReady(page, ['DejaVu Sans', 'Fira Sans']);
    expect(await page.textContent('[data-testid="theme-ocean"]')).toContain('Océan');
    await page.check('[data-testid="preview-long-question"]');
    await shoot('fr');
    expect(errors).toEqual([]);
  });
});
