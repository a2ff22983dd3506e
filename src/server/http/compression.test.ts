import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDirectory } from '../../../scripts/vite-plugins.js';
import { signedInCompany } from '../test/accounts.js';
import { createTestApp, type TestApp } from '../test/harness.js';

/**
 * What goes over the wire, through HTTP calls to the app: the built web app's files come as the
 * brotli or gzip siblings the build wrote (the same function as `vite build`'s plugin), pages too;
 * API JSON is compressed when it is worth it; media never is; and a client that accepts nothing
 * gets the files as they are.
 */

const SCRIPT = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word-${i % 37}`))};\n`;
const INDEX = `<!doctype html><html><head><title>app</title></head><body><div id="root"></div>${'<!-- padding -->'.repeat(80)}</body></html>`;
const RECORDING = `<!doctype html><html><head><title>recording</title></head><body><div id="root" data-page="recording"></div></body></html>`;

function decode(encoding: string | undefined, body: Buffer): string {
  if (encoding === 'br') return brotliDecompressSync(body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(body).toString('utf8');
  return body.toString('utf8');
}

describe('compression over the wire', () => {
  let t: TestApp;
  let web: string;
  let video: Buffer;

  beforeAll(async () => {
    // A stand-in build of the web app, compressed as `vite build` compresses it.
    web = await mkdtemp(path.join(os.tmpdir(), 'vouchreel-web-'));
    await mkdir(path.join(web, 'assets'), { recursive: true });
    await mkdir(path.join(web, 'media'), { recursive: true });
    await writeFile(path.join(web, 'index.html'), INDEX);
    await writeFile(path.join(web, 'recording.html'), RECORDING);
    await writeFile(path.join(web, 'assets', 'app-1234.js'), SCRIPT);
    await writeFile(path.join(web, 'assets', 'tiny-1234.js'), 'export {};\n');
    video = randomBytes(64 * 1024);
    await writeFile(path.join(web, 'media', 'demo.mp4'), video);
    await precompressDirectory(web);
    t = await createTestApp({ app: { webDir: web } });
  });
  afterAll(async () => {
    await t?.close();
    if (web) await rm(web, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('sends a hashed script as brotli or gzip by what the browser accepts, still immutable', async () => {
    for (const [accept, encoding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['br;q=0.5, gzip', 'gzip'],
      ['gzip', 'gzip'],
    ] as const) {
      const res = await get('/assets/app-1234.js', { 'accept-encoding': accept });
      expect(res.statusCode, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(encoding);
      expect(res.headers['content-type'], accept).toMatch(/javascript/);
      expect(String(res.headers.vary), accept).toMatch(/accept-encoding/i);
      expect(res.headers['cache-control'], accept).toBe('public, max-age=31536000, immutable');
      expect(res.rawPayload.length, accept).toBeLessThan(SCRIPT.length / 4);
      expect(decode(encoding, res.rawPayload), accept).toBe(SCRIPT);
    }
  });

  it('sends the file as it is to a client that accepts no encoding, or only identity', async () => {
    for (const headers of [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'br;q=0, gzip;q=0' }] as Record<string, string>[]) {
      const res = await get('/assets/app-1234.js', headers);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.body).toBe(SCRIPT);
    }
    // A file too small for the build to compress has no sibling: the server compresses it on the fly.
    const tiny = await get('/assets/tiny-1234.js', { 'accept-encoding': 'br, gzip' });
    expect(tiny.headers['content-encoding']).toBe('br');
    expect(decode('br', tiny.rawPayload)).toBe('export {};\n');
    expect((await get('/assets/tiny-1234.js')).body).toBe('export {};\n');
  });

  it('compresses pages, the recording link its own page, never cached without a check', async () => {
    for (const [url, page] of [
      ['/', INDEX],
      ['/signin', INDEX],
      ['/dashboard/questions', INDEX],
      ['/testimonial/submit/abc', RECORDING],
    ] as const) {
      const br = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.statusCode, url).toBe(200);
      expect(br.headers['content-type'], url).toMatch(/^text\/html/);
      expect(br.headers['content-encoding'], url).toBe('br');
      expect(String(br.headers.vary), url).toMatch(/accept-encoding/i);
      expect(br.headers['cache-control'], url).toBe('no-cache');
      expect(decode('br', br.rawPayload), url).toBe(page);
      const gzip = await get(url, { 'accept-encoding': 'gzip' });
      expect(gzip.headers['content-encoding'], url).toBe('gzip');
      expect(decode('gzip', gzip.rawPayload), url).toBe(page);
      const plain = await get(url);
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      expect(plain.body, url).toBe(page);
    }
    const recording = await get('/testimonial/submit/abc');
    expect(recording.headers['x-robots-tag']).toBe('noindex, nofollow');
    // The security headers of a document are still there.
    expect(String(recording.headers['content-security-policy'])).toContain("script-src 'self'");
  });

  it('compresses API JSON of 1 KB or more, and leaves small answers alone', async () => {
    const company = await signedInCompany(t);
    for (let i = 1; i <= 8; i++) {
      const added = await company.post('/api/questions/add', {
        company_id: company.companyId,
        text: `Question ${i}: what would you tell a friend who asked you about working with us, and why?`,
        order_position: i,
      });
      expect(added.statusCode).toBe(201);
    }
    const url = `/api/questions/list?company_id=${company.companyId}`;
    const plain = await t.app.inject({ method: 'GET', url, headers: company.headers });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    for (const encoding of ['br', 'gzip'] as const) {
      const res = await t.app.inject({ method: 'GET', url, headers: { ...company.headers, 'accept-encoding': encoding } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      expect(res.rawPayload.length).toBeLessThan(plain.body.length / 2);
      expect(JSON.parse(decode(encoding, res.rawPayload))).toEqual(plain.json());
    }
    const small = await get('/api/health', { 'accept-encoding': 'br, gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ status: 'ok' });
  });

  it('never encodes media: whole files and byte ranges go as they are', async () => {
    const whole = await get('/media/demo.mp4', { 'accept-encoding': 'br, gzip' });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.headers['content-encoding']).toBeUndefined();
    expect(whole.rawPayload.equals(video)).toBe(true);
    const range = await get('/media/demo.mp4', { 'accept-encoding': 'br, gzip', range: 'bytes=100-199' });
    expect(range.statusCode).toBe(206);
    expect(range.headers['content-encoding']).toBeUndefined();
    expect(range.headers['content-range']).toBe(`bytes 100-199/${video.length}`);
    expect(range.rawPayload.equals(video.subarray(100, 200))).toBe(true);
  });
});
