/**
 * The public pages (share pages, embeds, walls, oEmbed, published media), attacked from outside as in
 * issue 26, each attack replayed against the fix:
 * 1. framing the web app under /embed/ (and the app served under /v/ and /wall/);
 * 2. locking an address out of every public page with a page of `<img>` tags at unknown slugs;
 * 4. malformed slugs (`%00`) answering 500 after a query;
 * 6. carriage returns and control characters cutting WebVTT cues;
 * 8. the build's manifest (the source tree) and other build artefacts served as files.
 * Items 3 (view counts), 5 (quotes), 7 (S3 delivery) and 9 (secrets) are replayed in views.security.ts,
 * publications.security.ts, published-media.security.ts and secrets.security.ts.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TWall } from '../../src/contract/api/wall.schema.js';
import { testimonialResponses, transcriptions } from '../../src/server/db/schema.js';
import { PUBLIC_MISS_POLICY } from '../../src/server/modules/publications/public-misses.js';
import { newSlug } from '../../src/server/modules/publications/publications.service.js';
import { signedInCompany } from '../../src/server/test/accounts.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';
import { completedTestimonial } from '../../src/server/test/testimonials.js';

/** What only the web app's page holds: a page that shows it is the app. */
const APP_MARKER = 'data-vouchreel-app-shell';

describe('the public pages under attack (issue 26)', () => {
  let t: TestApp;
  let web: string;
  let owner: Awaited<ReturnType<typeof signedInCompany>>;
  let live: { id: string; slug: string; url: string };
  let wall: TWall;
  let subject: { testimonialId: string; responseId: string };
  let address = 0;
  /** Each test from addresses of its own: the miss limiter remembers addresses between tests. */
  const freshAddress = () => `198.18.${(++address >> 8) & 255}.${address & 255}`;
  const from =
    (remoteAddress: string) =>
    (url: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url, remoteAddress, headers });

  beforeAll(async () => {
    // A built web app, so that a path answered with the app shows it.
    web = await mkdtemp(path.join(os.tmpdir(), 'vouchreel-public-web-'));
    await mkdir(path.join(web, '.vite'), { recursive: true });
    await mkdir(path.join(web, 'assets'), { recursive: true });
    await writeFile(path.join(web, 'index.html'), `<!doctype html><html><body><div id="root" ${APP_MARKER}></div></body></html>`);
    await writeFile(path.join(web, 'index.html.br'), 'compressed page');
    await writeFile(path.join(web, 'recording.html'), `<!doctype html><html><body><div id="root" ${APP_MARKER}></div></body></html>`);
    await writeFile(path.join(web, '.vite', 'manifest.json'), JSON.stringify({ 'src/web/main.tsx': { file: 'assets/app.js', isEntry: true, src: 'src/web/main.tsx' } }));
    await writeFile(path.join(web, 'assets', 'app.js'), 'console.log("app")');
    await writeFile(path.join(web, 'assets', 'app.js.br'), 'brotli bytes');
    await writeFile(path.join(web, 'robots.txt'), 'User-agent: *');

    t = await createTestApp({ app: { webDir: web } });
    owner = await signedInCompany(t);
    const tm = await completedTestimonial(t, owner);
    expect((await owner.post(`/api/testimonials/pay/${tm.id}`)).statusCode).toBe(200);
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));
    await t.ctx.db.update(testimonialResponses).set({ videoKey: response!.originalKey, posterKey: response!.originalKey }).where(eq(testimonialResponses.id, response!.id));
    // A transcript as the studio stores it, with what a pasted text may carry: CR, CRLF, control characters.
    await t.ctx.db.insert(transcriptions).values({
      responseId: response!.id,
      companyId: owner.companyId,
      engine: 'edited',
      language: 'en',
      edited: true,
      segments: [
        { start: 0, end: 1.5, text: 'First line\rsecond part' },
        { start: 1.5, end: 3, text: 'Windows\r\n\r\nbreak\u0007 and\u0001 bell\u001b[31m' },
        { start: 3, end: 4, text: 'Unicode\u2028separator\u0085next' },
      ],
    });
    subject = { testimonialId: tm.id, responseId: response!.id };
    const res = await owner.post('/api/publications', subject);
    expect(res.statusCode, res.body).toBe(201);
    live = res.json();
    wall = (await owner.get('/api/wall')).json<TWall>();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    await t?.close();
    await rm(web, { recursive: true, force: true });
  });

  /* ------------------------------------------------------------------ 1. framing */

  it('lets other sites frame only a live publication’s or an existing wall’s embed', async () => {
    const get = from(freshAddress());
    for (const url of [`/embed/${live.slug}`, `/embed/wall/${wall.slug}`]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-security-policy'], url).toMatch(/(^|;)frame-ancestors \*(;|$)/);
      expect(res.headers['x-frame-options'], url).toBeUndefined();
    }
  });

  it('answers unknown and malformed embed paths with a small 404 page that is not the app and may not be framed', async () => {
    const get = from(freshAddress());
    // The attacker's frame: /embed/x/y served the signed-in app with frame-ancestors *.
    for (const url of ['/embed/x/y', '/embed/', '/embed/wall/a/b', '/embed/wall/', `/embed/${newSlug()}`, '/embed/wall/acme-0000000000', '/embed/%00', '/embed/x/y?next=/dashboard']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.body, url).not.toContain(APP_MARKER);
      expect(res.body.length, url).toBeLessThan(2000);
      expect(res.headers['content-security-policy'], url).toMatch(/frame-ancestors 'none'/);
      expect(res.headers['content-security-policy'], url).not.toMatch(/frame-ancestors \*/);
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
    }
    // An embed taken down is not framable either.
    const gone = (await owner.post('/api/publications', subject)).json<{ id: string; slug: string }>();
    expect((await t.app.inject({ method: 'DELETE', url: `/api/publications/${gone.id}`, headers: owner.headers })).statusCode).toBe(204);
    const down = await get(`/embed/${gone.slug}`);
    expect(down.statusCode).toBe(404);
    expect(down.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
  });

  it('answers paths under /v/ and /wall/ that are not a page with a 404, never the app', async () => {
    const get = from(freshAddress());
    for (const url of ['/v/a/b/c', '/v/', `/v/${live.slug}/other`, `/v/${live.slug}/video.mp4/x`, '/wall/a/b', '/wall/', `/wall/${wall.slug}/x`, '/v', '/wall', '/embed']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain(APP_MARKER);
      expect(res.headers['content-security-policy'], url).toMatch(/frame-ancestors 'none'/);
    }
    // The app's own pages are still the app.
    for (const url of ['/', '/dashboard', '/signin', '/videos', '/wallet', '/embedded']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain(APP_MARKER);
      expect(res.headers['content-security-policy'], url).toMatch(/frame-ancestors 'none'/);
    }
  });

  /* ------------------------------------------------------------------ 2. lock-out */

  it('ignores misses of media, posters and captions: a page of 61 <img> tags locks no one out', async () => {
    const get = from(freshAddress());
    // The attack: a cross-site page whose <img> tags point at unknown slugs' media.
    for (let i = 0; i < 61; i += 1) {
      const slug = newSlug();
      const url = [`/v/${slug}/poster.jpg`, `/v/${slug}/video.mp4`, `/v/${slug}/captions.vtt`][i % 3]!;
      expect((await get(url)).statusCode, url).toBe(404);
    }
    // Every public page still answers as usual, an unknown one with its 404.
    for (const url of [`/v/${live.slug}`, `/embed/${live.slug}`, `/v/${live.slug}/video.mp4`, `/v/${live.slug}/captions.vtt`, `/wall/${wall.slug}`, `/api/oembed?url=${encodeURIComponent(live.url)}`]) {
      expect((await get(url)).statusCode, url).toBe(200);
    }
    expect((await get(`/v/${newSlug()}`)).statusCode).toBe(404);
  });

  it('always serves live publications and walls to an address that missed too often, and penalises its misses for a short, growing time', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-27T10:00:00Z') });
    const get = from(freshAddress());
    const liveUrls = [
      `/v/${live.slug}`,
      `/embed/${live.slug}`,
      `/v/${live.slug}/video.mp4`,
      `/v/${live.slug}/poster.jpg`,
      `/v/${live.slug}/captions.vtt`,
      `/wall/${wall.slug}`,
      `/embed/wall/${wall.slug}`,
      `/api/oembed?url=${encodeURIComponent(live.url)}`,
    ];
    const misses = (n: number) => Array.from({ length: n }, (_, i) => [`/v/${newSlug()}`, `/embed/${newSlug()}`, `/wall/acme-${newSlug().slice(0, 10).toLowerCase().replace(/[^a-z0-9]/g, 'x')}`][i % 3]!);
    for (const url of misses(PUBLIC_MISS_POLICY.freePerMinute)) expect((await get(url)).statusCode, url).toBe(404);
    const first = await get(`/v/${newSlug()}`);
    expect(first.statusCode).toBe(429);
    // A penalised miss reads like a miss, in HTML, with the time to wait.
    expect(first.headers['content-type']).toMatch(/^text\/html/);
    expect(Number(first.headers['retry-after'])).toBe(PUBLIC_MISS_POLICY.firstPenaltyMs / 1000);
    expect((await get(`/api/oembed?url=${encodeURIComponent(`http://app.test/v/${newSlug()}`)}`)).statusCode).toBe(429);
    // The viewers behind that address see every live page, however many they are.
    for (let i = 0; i < 200; i += 1) {
      const url = liveUrls[i % liveUrls.length]!;
      expect((await get(url)).statusCode, url).toBe(200);
    }
    // Media misses are never refused.
    expect((await get(`/v/${newSlug()}/poster.jpg`)).statusCode).toBe(404);
    // The penalty is short: a minute later, a miss is a 404 again.
    vi.setSystemTime(Date.now() + PUBLIC_MISS_POLICY.firstPenaltyMs + 1000);
    expect((await get(`/v/${newSlug()}`)).statusCode).toBe(404);
    // ...and grows when the address goes on: twice as long the second time.
    for (const url of misses(PUBLIC_MISS_POLICY.freePerMinute - 1)) await get(url);
    const second = await get(`/v/${newSlug()}`);
    expect(second.statusCode).toBe(429);
    expect(Number(second.headers['retry-after'])).toBe((2 * PUBLIC_MISS_POLICY.firstPenaltyMs) / 1000);
    vi.setSystemTime(Date.now() + PUBLIC_MISS_POLICY.firstPenaltyMs + 1000);
    expect((await get(`/v/${newSlug()}`)).statusCode).toBe(429);
    vi.setSystemTime(Date.now() + PUBLIC_MISS_POLICY.firstPenaltyMs);
    expect((await get(`/v/${newSlug()}`)).statusCode).toBe(404);
    // Another address is never affected.
    expect((await from(freshAddress())(`/v/${newSlug()}`)).statusCode).toBe(404);
  });

  it('never penalises a NAT of many viewers watching live videos', async () => {
    const get = from(freshAddress());
    for (let i = 0; i < 300; i += 1) expect((await get(i % 2 ? `/v/${live.slug}` : `/embed/${live.slug}`)).statusCode).toBe(200);
    // A few dead links among them are only misses.
    for (let i = 0; i < 10; i += 1) expect((await get(`/v/${newSlug()}`)).statusCode).toBe(404);
  });

  /* ------------------------------------------------------------------ 4. malformed slugs */

  it('answers a malformed slug with a 404 before any query, and counts it as a miss', async () => {
    const get = from(freshAddress());
    const select = vi.spyOn(t.ctx.db, 'select');
    const urls = ['/v/%00', '/v/a%00b', '/embed/%00', '/wall/%00', '/embed/wall/%00', '/v/%00/video.mp4', '/v/%00/poster.jpg', '/v/%00/captions.vtt', `/v/${'a'.repeat(5000)}`, '/wall/%E2%80%AE-0000000000'];
    try {
      for (const url of urls) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.body, url).not.toMatch(/select|insert|"publications"|"walls"/i);
      }
      const oembed = await get(`/api/oembed?url=${encodeURIComponent('http://app.test/v/%00')}`);
      expect(oembed.statusCode).toBe(404);
      expect(select).not.toHaveBeenCalled();
    } finally {
      select.mockRestore();
    }
    // Malformed page documents count: an address sending only those is penalised like any guesser.
    for (let i = 0; i < PUBLIC_MISS_POLICY.freePerMinute; i += 1) await get(`/v/%00${i}`);
    expect((await get('/v/%00')).statusCode).toBe(429);
  });

  /* ------------------------------------------------------------------ 6. WebVTT cues */

  it('keeps each caption in its cue: CR and CRLF become LF, control characters are dropped, no blank line inside a cue', async () => {
    const res = await from(freshAddress())(`/v/${live.slug}/captions.vtt`);
    expect(res.statusCode).toBe(200);
    const vtt = res.body;
    // eslint-disable-next-line no-control-regex -- control characters are what must be absent
    expect(vtt).not.toMatch(/[\r\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/);
    // Three cues, each a number, a timing line and its text: a blank line only between cues.
    const blocks = vtt.trim().split('\n\n');
    expect(blocks[0]).toBe('WEBVTT');
    expect(blocks.slice(1)).toEqual([
      '1\n00:00:00.000 --> 00:00:01.500\nFirst line\nsecond part',
      '2\n00:00:01.500 --> 00:00:03.000\nWindows\nbreak and bell[31m',
      '3\n00:00:03.000 --> 00:00:04.000\nUnicode\nseparator\nnext',
    ]);
  });

  /* ------------------------------------------------------------------ 8. build artefacts */

  it('serves no build artefact that is not an asset: not the manifest and its source tree, not templates, not compressed siblings', async () => {
    const get = from(freshAddress());
    for (const url of ['/.vite/manifest.json', '/.vite/', '/.vite', '/%2Evite/manifest.json', '/assets/../.vite/manifest.json', '/index.html.br', '/recording.html', '/index.html', '/assets/app.js.br', '/.env', '/.git/config']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('src/web/main.tsx');
      expect(res.body, url).not.toContain(APP_MARKER);
      expect(res.body, url).not.toBe('brotli bytes');
    }
    // The assets themselves, and their compressed siblings as their encoding, are still served.
    const asset = await get('/assets/app.js', { 'accept-encoding': 'br' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-encoding']).toBe('br');
    expect(asset.body).toBe('brotli bytes');
    expect((await get('/assets/app.js')).body).toBe('console.log("app")');
    expect((await get('/robots.txt')).statusCode).toBe(200);
  });
});
