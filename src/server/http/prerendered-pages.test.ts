import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDirectory } from '../../../scripts/vite-plugins.js';
import { createTestApp, type TestApp } from '../test/harness.js';

/**
 * The landing page is sent already drawn, in the language the app will start in (docs/decisions/152):
 * the build writes landing.en.html and landing.fr.html beside index.html, and the server picks one
 * by the visitor's kept preference (the cookie), then their browser's languages, else English. Any
 * other page is the app's index.html, and a build without the copies sends index.html for / too.
 */
const page = (name: string) => `<!doctype html><html><head><title>${name}</title></head><body><div id="root">${name}</div>${'<!-- padding -->'.repeat(80)}</body></html>`;

async function standInBuild(files: Record<string, string>): Promise<string> {
  const web = await mkdtemp(path.join(os.tmpdir(), 'vouchreel-web-'));
  for (const [name, content] of Object.entries(files)) await writeFile(path.join(web, name), content);
  await precompressDirectory(web);
  return web;
}

describe('the prerendered landing page', () => {
  let t: TestApp;
  let web: string;

  beforeAll(async () => {
    web = await standInBuild({ 'index.html': page('app'), 'landing.en.html': page('landing en'), 'landing.fr.html': page('landing fr') });
    t = await createTestApp({ app: { webDir: web } });
  });
  afterAll(async () => {
    await t?.close();
    if (web) await rm(web, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('is sent in the kept language first, then in the browser language, else in English', async () => {
    for (const [headers, expected] of [
      [{ 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.8' }, 'landing fr'],
      [{ 'accept-language': 'de-DE,en;q=0.5' }, 'landing en'],
      [{ cookie: 'i18next=en', 'accept-language': 'fr-FR' }, 'landing en'],
      [{ cookie: 'theme=dark; i18next=fr', 'accept-language': 'en-US' }, 'landing fr'],
      [{}, 'landing en'],
    ] as [Record<string, string>, string][]) {
      const res = await get('/', headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(200);
      expect(res.body, JSON.stringify(headers)).toContain(`<div id="root">${expected}</div>`);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      // Caches keep one copy per language.
      expect(String(res.headers.vary)).toMatch(/accept-language/);
      expect(String(res.headers.vary)).toMatch(/cookie/);
    }
  });

  it('is sent compressed, as the build wrote it', async () => {
    const res = await get('/', { 'accept-language': 'fr', 'accept-encoding': 'br, gzip' });
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString('utf8')).toContain('<div id="root">landing fr</div>');
  });

  it('is only the landing page: other pages, and / with a query, stay the app', async () => {
    expect((await get('/signin', { 'accept-language': 'fr' })).body).toContain('<div id="root">app</div>');
    expect((await get('/dashboard/testimonials')).body).toContain('<div id="root">app</div>');
    expect((await get('/?utm_source=newsletter', { 'accept-language': 'fr' })).body).toContain('<div id="root">landing fr</div>');
    // The copies are pages of /, not addresses of their own that a link could share.
    expect((await get('/landing.fr.html')).statusCode).toBe(404);
  });
});

describe('a build without prerendered pages', () => {
  it('sends the app for / as before', async () => {
    const web = await standInBuild({ 'index.html': page('app') });
    const t = await createTestApp({ app: { webDir: web } });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-language': 'fr' } });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root">app</div>');
    } finally {
      await t.close();
      await rm(web, { recursive: true, force: true });
    }
  });
});
