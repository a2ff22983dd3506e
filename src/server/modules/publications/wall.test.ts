import { brotliCompressSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WALL_SLUG_PATTERN, type TWall } from '../../../contract/api/wall.schema.js';
import { companies, publications, testimonialRequests, testimonialResponses, transcriptions } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { completedTestimonial } from '../../test/testimonials.js';
import { newWallSlug, readableSlugPart } from './wall.service.js';

type Company = Awaited<ReturnType<typeof signedInCompany>>;

describe('the wall', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A live publication of a paid testimonial's answer (no worker here: it plays from its upload). */
  async function published(me: Company, who: { name: string; title?: string; quote?: string; language?: 'english' | 'french'; transcript?: string }) {
    await t.ctx.db.update(companies).set({ credits: 5 }).where(eq(companies.id, me.companyId));
    const tm = await completedTestimonial(t, me);
    expect((await me.post(`/api/testimonials/pay/${tm.id}`)).statusCode).toBe(200);
    await t.ctx.db
      .update(testimonialRequests)
      .set({ submitterName: who.name, submitterTitle: who.title ?? null, ...(who.language ? { language: who.language } : {}) })
      .where(eq(testimonialRequests.id, tm.id));
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));
    await t.ctx.db.update(testimonialResponses).set({ videoKey: response!.originalKey, width: 360, height: 640 }).where(eq(testimonialResponses.id, response!.id));
    if (who.transcript !== undefined) {
      await t.ctx.db.insert(transcriptions).values({
        responseId: response!.id,
        companyId: me.companyId,
        engine: 'edited',
        language: who.language === 'french' ? 'fr' : 'en',
        segments: [{ start: 0.2, end: 1.5, text: who.transcript }],
      });
    }
    const res = await me.post('/api/publications', { testimonialId: tm.id, responseId: response!.id });
    expect(res.statusCode, res.body).toBe(201);
    const pub = res.json<{ id: string; slug: string }>();
    if (who.quote) await t.ctx.db.update(publications).set({ quote: who.quote }).where(eq(publications.id, pub.id));
    return pub;
  }
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  const put = (me: Company, body: unknown) =>
    t.app.inject({ method: 'PUT', url: '/api/wall', headers: { ...me.headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  const cardsOf = (html: string) => [...html.matchAll(/<source src="\/v\/([\w-]+)\/video\.mp4"/g)].map((m) => m[1]);

  it('makes a readable, unguessable slug from the company name', () => {
    expect(readableSlugPart('  Café Élan & Co. — Paris!  ')).toBe('cafe-elan-co-paris');
    expect(readableSlugPart('日本')).toBe('');
    const slug = newWallSlug('Café Élan & Co');
    expect(slug).toMatch(/^cafe-elan-co-[a-z0-9]{10}$/);
    expect(slug).toMatch(WALL_SLUG_PATTERN);
    expect(newWallSlug('日本')).toMatch(/^[a-z0-9]{10}$/);
    expect(newWallSlug('x'.repeat(200)).length).toBeLessThanOrEqual(51);
    const many = new Set(Array.from({ length: 500 }, () => newWallSlug('Acme')));
    expect(many.size).toBe(500);
  });

  it('creates the wall on first read, shows live publications newest first, then the order the company sets', async () => {
    const me = await signedInCompany(t, { companyName: `Wall Café ${Date.now()}` });
    const empty = await me.get('/api/wall');
    expect(empty.statusCode, empty.body).toBe(200);
    const wall = empty.json<TWall>();
    expect(wall.slug).toMatch(/^wall-cafe-\d+-[a-z0-9]{10}$/);
    expect(wall).toMatchObject({
      url: `http://app.test/wall/${wall.slug}`,
      embedUrl: `http://app.test/embed/wall/${wall.slug}`,
      items: [],
    });
    expect(wall.snippet).toBe(`<div data-vouchreel-wall="${wall.slug}"></div>\n<script src="http://app.test/wall.js" async></script>`);
    expect(wall.iframeSnippet).toContain(`<iframe src="http://app.test/embed/wall/${wall.slug}"`);
    // The same wall on every read.
    expect((await me.get('/api/wall')).json<TWall>().slug).toBe(wall.slug);
    const emptyPage = await get(`/wall/${wall.slug}`);
    expect(emptyPage.statusCode).toBe(200);
    expect(emptyPage.body).toContain('No testimonials to show yet.');

    const a = await published(me, { name: 'Ada <Lovelace>', title: 'CTO', quote: 'Fast & "simple".' });
    const b = await published(me, { name: 'Bob' });
    const c = await published(me, { name: 'Cyd' });
    // Newest first by default, every live publication on the wall.
    const first = (await me.get('/api/wall')).json<TWall>();
    expect(first.items.map((i) => [i.publicationId, i.onWall, i.position])).toEqual([
      [c.id, true, 1],
      [b.id, true, 2],
      [a.id, true, 3],
    ]);
    expect(first.items[2]).toMatchObject({ name: 'Ada <Lovelace>', title: 'CTO', quote: 'Fast & "simple".', kind: 'answer', question: expect.stringMatching(/^Question/), posterUrl: null, url: `http://app.test/v/${a.slug}` });
    expect(cardsOf((await get(`/wall/${wall.slug}`)).body)).toEqual([c.slug, b.slug, a.slug]);

    // The company shows a then c; b goes off the wall.
    const set = await put(me, { items: [a.id, c.id] });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<TWall>().items.map((i) => [i.publicationId, i.onWall, i.position])).toEqual([
      [a.id, true, 1],
      [c.id, true, 2],
      [b.id, false, null],
    ]);
    const page = await get(`/wall/${wall.slug}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('public, no-cache');
    expect(page.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(cardsOf(page.body)).toEqual([a.slug, c.slug]);
    expect(page.body).toMatch(/^<!doctype html>\s*<html lang="en">/);
    expect(page.body).toContain('Ada &lt;Lovelace&gt;');
    expect(page.body).not.toContain('<Lovelace>');
    expect(page.body).toContain('Fast &amp; &quot;simple&quot;.');
    expect(page.body).toContain(`<a class="open" href="/v/${a.slug}">`);
    expect(page.body).toMatch(/<video controls playsinline preload="none" width="360" height="640"/);
    expect(page.body).toContain('2 video testimonials');

    // A new publication goes on top of the arranged wall.
    const d = await published(me, { name: 'Dee' });
    expect(cardsOf((await get(`/wall/${wall.slug}`)).body)).toEqual([d.slug, a.slug, c.slug]);
    // Unpublished: gone from the wall and from the company's list.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/publications/${a.id}`, headers: me.headers })).statusCode).toBe(204);
    expect(cardsOf((await get(`/wall/${wall.slug}`)).body)).toEqual([d.slug, c.slug]);
    expect((await me.get('/api/wall')).json<TWall>().items.map((i) => i.publicationId)).toEqual([d.id, c.id, b.id]);
    // An unpublished one cannot be put back: the whole call is refused and nothing changes.
    const refused = await put(me, { items: [b.id, a.id] });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: 'not_found', reason: 'wall_item_unavailable', field: 'items' });
    expect(cardsOf((await get(`/wall/${wall.slug}`)).body)).toEqual([d.slug, c.slug]);
    // An empty list empties the wall.
    expect((await put(me, { items: [] })).json<TWall>().items.every((i) => !i.onWall)).toBe(true);
    expect(cardsOf((await get(`/wall/${wall.slug}`)).body)).toEqual([]);
  }, 120_000);

  it('answers in the language asked, frames only the embed, and serves the scripts', async () => {
    const me = await signedInCompany(t);
    const pub = await published(me, { name: 'Zoé' });
    const { slug } = (await me.get('/api/wall')).json<TWall>();
    const fr = await get(`/wall/${slug}`, { 'accept-language': 'fr-FR,fr;q=0.9' });
    expect(fr.body).toMatch(/<html lang="fr">/);
    expect(fr.body).toContain('Ce que disent nos clients');
    expect((await get(`/wall/${slug}?lang=en`, { 'accept-language': 'fr' })).body).toContain('<html lang="en">');

    const embed = await get(`/embed/wall/${slug}?lang=fr`);
    expect(embed.statusCode).toBe(200);
    expect(embed.headers['content-security-policy']).toMatch(/(^|;)frame-ancestors \*(;|$)/);
    expect(embed.headers['x-frame-options']).toBeUndefined();
    expect(embed.body).toContain('<html lang="fr">');
    expect(embed.body).not.toContain('<header>');
    expect(embed.body).toContain(`href="/v/${pub.slug}" target="_blank" rel="noopener"`);
    expect(embed.body).toContain('<script src="/wall-frame.js" defer></script>');
    expect(embed.body).not.toMatch(/<script>/);

    const loader = await get('/wall.js');
    expect(loader.statusCode).toBe(200);
    expect(loader.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(loader.headers['cache-control']).toBe('public, max-age=86400');
    expect(loader.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(loader.body).toContain('ev.origin!==base');
    expect(Buffer.byteLength(loader.body)).toBeLessThan(2_000);
    const frame = await get('/wall-frame.js');
    expect(frame.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(frame.body).toContain('postMessage');

    for (const url of ['/wall/no-such-wall-aaaaaaaaaa', '/embed/wall/no-such-wall-aaaaaaaaaa']) {
      const missing = await get(url, { 'accept-language': 'fr' });
      expect(missing.statusCode, url).toBe(404);
      expect(missing.headers['content-type']).toMatch(/^text\/html/);
      expect(missing.body).toContain('<h1>Ce mur n&#39;est pas disponible</h1>');
    }
  }, 60_000);

  it('gives the card of a transcribed publication the captions track of its share page, and none to the others', async () => {
    const me = await signedInCompany(t);
    const spoken = await published(me, { name: 'Léa', language: 'french', transcript: 'Très rapide & <simple>' });
    const silent = await published(me, { name: 'Sam' });
    const blank = await published(me, { name: 'Kim', transcript: '   ' });
    const { slug } = (await me.get('/api/wall')).json<TWall>();
    const cardOf = (html: string, pubSlug: string) => html.split('<li class="card">').find((c) => c.includes(`/v/${pubSlug}/video.mp4`))!;

    const page = (await get(`/wall/${slug}`)).body;
    const track = `<track kind="captions" src="/v/${spoken.slug}/captions.vtt" srclang="fr" label="French" default>`;
    expect(cardOf(page, spoken.slug)).toContain(track);
    expect(page.split('<track ').length - 1).toBe(1);
    expect(cardOf(page, silent.slug)).not.toContain('<track');
    expect(cardOf(page, blank.slug)).not.toContain('<track');
    // The same track as the share page's; labelled in the wall's language; in the embed too.
    expect((await get(`/v/${spoken.slug}`)).body).toContain(`<track kind="captions" src="/v/${spoken.slug}/captions.vtt" srclang="fr" label="Français" default>`);
    expect(cardOf((await get(`/wall/${slug}?lang=fr`)).body, spoken.slug)).toContain(`srclang="fr" label="Français" default>`);
    expect(cardOf((await get(`/embed/wall/${slug}`)).body, spoken.slug)).toContain(track);

    // The track's address answers WebVTT; a publication without captions has none.
    const src = /<track kind="captions" src="([^"]+)"/.exec(cardOf(page, spoken.slug))![1]!;
    const vtt = await get(src);
    expect(vtt.statusCode).toBe(200);
    expect(vtt.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(vtt.body).toMatch(/^WEBVTT\n\n1\n00:00:00\.200 --> 00:00:01\.500\nTrès rapide &amp; &lt;simple&gt;\n/);
    expect((await get(`/v/${silent.slug}/captions.vtt`)).statusCode).toBe(404);
  }, 120_000);

  it('validates the body with our error shape', async () => {
    const me = await signedInCompany(t);
    for (const body of [{}, { items: 'x' }, { items: ['not-an-id'] }]) {
      const res = await put(me, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_data', field: expect.stringMatching(/^items/) });
    }
    const id = crypto.randomUUID();
    const twice = await put(me, { items: [id, id] });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error).toMatch(/only once/);
    expect((await put(me, { items: Array.from({ length: 61 }, () => crypto.randomUUID()) })).statusCode).toBe(400);
    expect((await put(me, { items: [id] })).statusCode).toBe(404);
  });

  it('weighs far under 30 KB compressed with a full wall', async () => {
    const me = await signedInCompany(t);
    for (let i = 0; i < 6; i += 1) await published(me, { name: `Customer number ${i}`, title: 'Head of operations', quote: 'A sentence or two that the customer said, kept as the quote of this video. '.repeat(2) });
    const { slug } = (await me.get('/api/wall')).json<TWall>();
    const page = (await get(`/wall/${slug}`)).body;
    const frame = (await get('/wall-frame.js')).body;
    const bytes = brotliCompressSync(Buffer.from(page + frame)).length;
    expect(bytes).toBeLessThan(30_000);
    // Even a wall of 60 cards stays far below: each card compresses to a few hundred bytes.
    expect(bytes).toBeLessThan(3_000);
  }, 120_000);
});
