import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../web/i18n/en.json' with { type: 'json' };
import fr from '../../web/i18n/fr.json' with { type: 'json' };
import { createTestApp, type TestApp } from '../test/harness.js';
import { pageLanguage } from './page-language.js';
import { RECORDING_MESSAGES_MARK, recordingMessages, withRecordingMessages } from './recording-page.js';

/**
 * The customer's recording page carries the messages of the language it will start in
 * (docs/decisions/140): the browser's kept preference, else its languages; the page reads them
 * instead of asking for them after its script.
 */

/**
 * The parts of a catalogue the page reads, as src/web/i18n/recording-messages.{en,fr}.ts pick them
 * (src/web/recording-entry.test.ts holds them to the same parts).
 */
const picked = (catalogue: typeof en) => ({
  common: catalogue.common,
  meta: catalogue.meta,
  recording: catalogue.recording,
  collectPage: catalogue.collectPage,
  errors: { app: catalogue.errors.app, reasons: catalogue.errors.reasons },
});
const recordingEn = picked(en);
const recordingFr = picked(fr as typeof en);

const PAGE = `<!doctype html>\n<html lang="en">\n  <body>\n    <div id="root"></div>\n    ${RECORDING_MESSAGES_MARK}\n    <script type="module" src="/assets/recording-x.js"></script>\n  </body>\n</html>\n`;

/** The JSON element of a page, and its language. */
function inlined(html: string): { language: string | undefined; messages: unknown } {
  const match = /<script type="application\/json" id="recording-messages" data-language="(\w+)">(.*?)<\/script>/s.exec(html);
  if (!match) throw new Error(`no messages in ${html}`);
  return { language: match[1], messages: JSON.parse(match[2] ?? '') };
}

describe('the language the recording page starts in', () => {
  it('is the kept preference first, then the browser languages by preference, else English', () => {
    expect(pageLanguage({ cookie: 'a=1; i18next=fr; b=2', 'accept-language': 'en-US,en;q=0.9' })).toBe('fr');
    expect(pageLanguage({ cookie: 'i18next=de', 'accept-language': 'fr-CA,fr;q=0.9,en;q=0.8' })).toBe('fr');
    expect(pageLanguage({ 'accept-language': 'de-DE, en;q=0.5, fr;q=0.4' })).toBe('en');
    expect(pageLanguage({ 'accept-language': 'en;q=0.4, fr;q=0.8' })).toBe('fr');
    expect(pageLanguage({ 'accept-language': 'fr;q=0, en-GB' })).toBe('en');
    expect(pageLanguage({ 'accept-language': 'de' })).toBe('en');
    expect(pageLanguage({})).toBe('en');
  });
});

describe('the messages written into the recording page', () => {
  it("are the page's own messages of each language, as its chunks carry them", () => {
    expect(recordingMessages('en')).toEqual(recordingEn);
    expect(recordingMessages('fr')).toEqual(recordingFr);
  });

  it('take the mark and set the document language; a page without the mark is left alone', () => {
    const fr = withRecordingMessages(PAGE, 'fr');
    expect(fr).toContain('<html lang="fr">');
    expect(fr).not.toContain(RECORDING_MESSAGES_MARK);
    expect(inlined(fr)).toEqual({ language: 'fr', messages: recordingFr });
    // Nothing in the messages can close the element early.
    expect(fr.match(/<\/script>/g)).toHaveLength(2);
    expect(withRecordingMessages('<!doctype html><div id="root"></div>', 'fr')).toBe('<!doctype html><div id="root"></div>');
  });
});

describe('the recording link over HTTP', () => {
  let t: TestApp;
  let web: string;

  beforeAll(async () => {
    web = await mkdtemp(path.join(os.tmpdir(), 'vouchreel-web-'));
    await mkdir(path.join(web, 'assets'), { recursive: true });
    await writeFile(path.join(web, 'index.html'), '<!doctype html><div id="root"></div>');
    await writeFile(path.join(web, 'recording.html'), PAGE);
    t = await createTestApp({ app: { webDir: web } });
  });
  afterAll(async () => {
    await t?.close();
    if (web) await rm(web, { recursive: true, force: true });
  });

  it("answers in the browser's language, compressed as asked, varying on what chose it", async () => {
    const get = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/testimonial/submit/abc', headers });
    const br = await get({ 'accept-encoding': 'br, gzip', 'accept-language': 'fr-FR,fr;q=0.9' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(String(br.headers.vary)).toMatch(/accept-language/i);
    expect(String(br.headers.vary)).toMatch(/cookie/i);
    expect(inlined(brotliDecompressSync(br.rawPayload).toString('utf8')).language).toBe('fr');

    const gzip = await get({ 'accept-encoding': 'gzip', 'accept-language': 'fr', cookie: 'i18next=en' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(inlined(gunzipSync(gzip.rawPayload).toString('utf8'))).toEqual({ language: 'en', messages: recordingEn });

    const plain = await get({});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('<html lang="en">');
    expect(inlined(plain.body).language).toBe('en');

    // A new build is served at once.
    await writeFile(path.join(web, 'recording.html'), PAGE.replace('recording-x.js', 'recording-new.js'));
    expect((await get({})).body).toContain('recording-new.js');
  });
});
