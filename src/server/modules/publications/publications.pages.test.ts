import { describe, expect, it } from 'vitest';
import { deFr, sharePage } from './publications.pages.js';

describe('French page text', () => {
  it('elides "de" before a name that starts with a vowel, and only then', () => {
    expect(deFr('Élodie Martin')).toBe('d’Élodie Martin');
    expect(deFr('Antoine')).toBe('d’Antoine');
    expect(deFr('Camille Laurent')).toBe('de Camille Laurent');
    // An h may be aspirated (de Hugo): left as it is.
    expect(deFr('Hugo')).toBe('de Hugo');
  });
});

describe('the company logo in the share page header (decision 172)', () => {
  const publication = (logoPlate: boolean): Parameters<typeof sharePage>[0] => ({
    id: 'p1',
    slug: 'abc',
    videoKey: 'v.mp4',
    posterKey: null,
    width: 1280,
    height: 720,
    durationSeconds: 42,
    captionParts: [],
    subtitlesBurnedIn: false,
    language: 'en',
    name: 'Sam Carter',
    position: null,
    quote: null,
    quoteEdited: false,
    company: { id: 'c1', name: 'Navy & Co', logoUrl: 'http://app.test/api/public/logo/c1?v=1', logoPlate },
    colors: { background: '#15171f', text: '#ffffff' },
    viewToken: 't',
  });
  const header = (html: string) => html.slice(html.indexOf('<header>'), html.indexOf('</header>'));
  const site = { appUrl: 'http://app.test', brandName: 'Vouchreel' };

  it('puts the logo on the light plate when the company logo needs it, and keeps a wide logo at its shape', () => {
    const plated = sharePage(publication(true), { cues: [], paragraphs: [] }, site);
    expect(header(plated)).toMatch(/^<header><span class="plate" data-plate><img src="http:\/\/app\.test\/api\/public\/logo\/c1\?v=1" alt="Navy &amp; Co logo" height="40"><\/span>$/);
    expect(plated).toContain('.plate{display:inline-flex;background:#fff;');
    expect(plated).toMatch(/header img\{[^}]*max-width:min\(200px,60vw\);object-fit:contain\}/);
    expect(header(sharePage(publication(false), { cues: [], paragraphs: [] }, site))).not.toContain('plate');
  });
});
