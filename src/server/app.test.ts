import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZApiError } from '../contract/errors.js';
import { createTestApp, type TestApp } from './test/harness.js';

describe('API skeleton', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('says ok in /api/health when database, queue, storage and mail answer, and nothing more', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers unknown /api paths with a JSON 404, never HTML', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: '/api/does-not-exist?x=1' });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      const body = ZApiError.parse(res.json());
      expect(body).toEqual({ error: `No such API call: ${method} /api/does-not-exist.`, code: 'not_found' });
    }
  });

  it('answers malformed JSON with 400 invalid_format', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/client-errors',
      headers: { 'content-type': 'application/json' },
      payload: '{"message": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'The request body is not valid JSON.', code: 'invalid_format' });
  });

  it('answers a wrong content type with 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/client-errors',
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 'unsupported_media_type' });
    expect(res.json().error).toMatch(/Unsupported content type 'text\/plain'/);
  });

  it('answers an oversized body with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/client-errors',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ message: 'x'.repeat(20_000), url: '/' }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: 'The request is too large.', code: 'payload_too_large' });
  });

  it('names the missing or invalid field', async () => {
    const missing = await t.app.inject({ method: 'POST', url: '/api/client-errors', payload: { url: '/' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ error: 'message is required.', code: 'missing_fields', field: 'message' });

    const invalid = await t.app.inject({ method: 'POST', url: '/api/client-errors', payload: { message: '  ', url: '/' } });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toEqual({ error: 'message: message is required.', code: 'invalid_data', field: 'message' });
  });

  it('accepts a valid client error report', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/client-errors',
      payload: { message: 'TypeError: x is undefined', url: '/dashboard' },
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ received: true });
  });

  it('rate-limits client error reports with the error shape', async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 22; i++) {
      last = await t.app.inject({ method: 'POST', url: '/api/client-errors', payload: { message: `boom ${i}`, url: '/' } });
      statuses.push(last.statusCode);
    }
    // One report was already accepted by the previous test within the same minute.
    expect(statuses.filter((s) => s === 202).length).toBeLessThanOrEqual(20);
    expect(statuses.at(-1)).toBe(429);
    expect(last?.json()).toMatchObject({ code: 'rate_limited', errorKey: 'rateLimited' });
  });

  it('sends security headers with a CSP on every answer: the page policy, and a closed one for API answers', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/dashboard' });
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    const api = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(api.headers['content-security-policy']).toBe("default-src 'none';object-src 'none';frame-ancestors 'none'");
    expect(api.headers['x-frame-options']).toBe('DENY');
    for (const res of [page, api]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      // Plain http (APP_URL http://app.test): no HSTS and no upgrade of requests.
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    }
  });
});

describe('serving the web app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    // A stand-in build of the web app, so this test does not depend on `vite build`.
    const web = path.join(t.config.dataDir, 'web');
    await mkdir(path.join(web, 'assets'), { recursive: true });
    await writeFile(path.join(web, 'index.html'), '<!doctype html><div id="root"></div>');
    await writeFile(path.join(web, 'recording.html'), '<!doctype html><div id="root" data-page="recording"></div>');
    await writeFile(path.join(web, 'assets', 'app-1234.js'), 'console.log(1)');
    await t.app.close();
    const { buildApp } = await import('./app.js');
    t.app = await buildApp(t.ctx, { webDir: web });
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves the single-page app for page routes, without caching index.html', async () => {
    for (const url of ['/', '/signin', '/dashboard/questions']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toBe('<!doctype html><div id="root"></div>');
    }
  });

  it("serves the customer's link its own page (recording.html), without caching it", async () => {
    for (const url of ['/testimonial/submit/abc', '/testimonial/submit/abc/', '/testimonial/submit/abc?utm=mail']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('data-page="recording"');
    }
    // Deeper paths are no recording link: the app answers (with its not-found page).
    const deeper = await t.app.inject({ method: 'GET', url: '/testimonial/submit/abc/more' });
    expect(deeper.body).toBe('<!doctype html><div id="root"></div>');
  });

  it('serves hashed assets as immutable', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/app-1234.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('still answers JSON for unknown /api paths and missing assets', async () => {
    const api = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(api.statusCode).toBe(404);
    expect(api.json().code).toBe('not_found');
    const asset = await t.app.inject({ method: 'POST', url: '/assets/missing.js' });
    expect(asset.statusCode).toBe(404);
  });
});

describe('production mode', () => {
  it('does not mount /dev/outbox', async () => {
    const t = await createTestApp({
      env: { NODE_ENV: 'production', JWT_SECRET: randomBytes(32).toString('hex'), APP_URL: 'https://app.example.com' },
    });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/dev/outbox' });
      expect(res.statusCode).toBe(404);
      const health = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.headers['strict-transport-security']).toContain('max-age=');
    } finally {
      await t.close();
    }
  });
});
