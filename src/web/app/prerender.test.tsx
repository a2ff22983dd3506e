import { describe, expect, it } from 'vitest';
import en from '../i18n/en.json';
import fr from '../i18n/fr.json';
import type { TLanguage } from '../../contract/constants.js';
import { prerender, PRERENDERED_LANGUAGES, PRERENDERED_PAGES } from './prerender';

/**
 * The landing page as the build writes it into landing.<language>.html (docs/decisions/152), rendered
 * here the same way, in Node, without a browser: the whole page in its language, and in <head> only
 * the metadata that does not name the address the page is served from.
 */
describe('the prerendered landing page', () => {
  it('is the landing page, in each language', async () => {
    expect(PRERENDERED_PAGES).toEqual({ '/': 'landing' });
    for (const [language, catalogue] of [
      ['en', en],
      ['fr', fr],
    ] as [TLanguage, typeof en][]) {
      const page = await prerender('/', language);
      expect(page.root, language).toContain(`<h1`);
      expect(page.root, language).toContain(catalogue.landing.meta.title.split(' ')[0]!);
      expect(page.root.match(/<li[^>]*data-package=/g), language).toHaveLength(5);
      expect(page.root.match(/<li[^>]*data-feature=/g), language).toHaveLength(6);
      expect(page.root, language).toMatch(/<a [^>]*href="\/signup"[^>]*data-testid="get-started"|<a [^>]*data-testid="get-started"[^>]*href="\/signup"/);
      // Nothing of the head is left in the markup.
      expect(page.root, language).not.toMatch(/^<(title|meta|link)\b/);
      expect(page.head, language).toContain(`<title>${catalogue.landing.meta.title} | Vouchreel</title>`);
      expect(page.head, language).toContain('<meta name="robots" content="index, follow"/>');
      expect(page.head, language).toMatch(/<meta name="description" content="[^"]+"\/>/);
      // The hero's poster, the largest paint on a phone, is asked for from the head.
      expect(page.head, language).toMatch(new RegExp(`<link rel="preload" as="image" imageSrcSet="/media/demo-${language}-320\\.webp 320w`));
    }
  });

  it('leaves out of the head what names the page’s own address: the browser adds it', async () => {
    const { head } = await prerender('/', 'en');
    expect(head).not.toMatch(/rel="canonical"|og:url|og:image"|twitter:image|og:video"/);
  });

  it('has a catalogue for each language it is written in, and no other', async () => {
    expect([...PRERENDERED_LANGUAGES]).toEqual(['en', 'fr']);
    await expect(prerender('/', 'de' as TLanguage)).rejects.toThrow(/no catalogue for de/);
  });
});
