import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publications, transcriptions } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { paidTestimonial } from '../../test/publishing.js';
import { isQuoteOf } from './publications.quote.js';

describe('a publication quote', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ work: true });
  });
  afterAll(async () => {
    await t.close();
  });

  /** A published answer whose transcript says two sentences. */
  async function publishedWithTranscript() {
    const { me, tm, response } = await paidTestimonial(t);
    await t.ctx.db.insert(transcriptions).values({
      responseId: response.id,
      companyId: me.companyId,
      engine: 'edited',
      language: 'en',
      segments: [
        { start: 0.2, end: 2, text: 'They answered the same day.' },
        { start: 2, end: 4, text: 'Our sales <doubled> in a month & more.' },
      ],
    });
    const created = await me.post('/api/publications', { testimonialId: tm.id, responseId: response.id });
    expect(created.statusCode, created.body).toBe(201);
    return { me, tm, pub: created.json<{ id: string; slug: string }>() };
  }

  it('takes words of the transcript, shows them on the share page and as its preview text, and can be removed', async () => {
    const { me, tm, pub } = await publishedWithTranscript();
    const listed = (await me.get(`/api/publications?testimonialId=${tm.id}`)).json<{ publications: Array<{ quote: string | null; transcript: string[] }> }>();
    expect(listed.publications[0]).toMatchObject({ quote: null, transcript: ['They answered the same day. Our sales <doubled> in a month & more.'] });

    // A selection across the two sentences, with the line break and spaces a browser selection carries.
    const set = await me.put(`/api/publications/${pub.id}/quote`, { quote: '  same day.\n  Our sales <doubled>  ' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ quote: 'same day. Our sales <doubled>' });

    const page = (await t.app.inject({ method: 'GET', url: `/v/${pub.slug}` })).body;
    expect(page).toContain('<blockquote><p>“same day. Our sales &lt;doubled&gt;”</p></blockquote>');
    expect(page).toContain('<meta property="og:description" content="“same day. Our sales &lt;doubled&gt;”');
    expect(page).toContain('<meta name="twitter:description" content="“same day. Our sales &lt;doubled&gt;”');
    expect(page).not.toContain('<doubled>');
    const after = (await me.get(`/api/publications?testimonialId=${tm.id}`)).json<{ publications: Array<{ quote: string | null }> }>();
    expect(after.publications[0]!.quote).toBe('same day. Our sales <doubled>');

    // Blank (or null) removes it; the page goes back to its description.
    expect((await me.put(`/api/publications/${pub.id}/quote`, { quote: '   ' })).json()).toEqual({ quote: null });
    const plain = (await t.app.inject({ method: 'GET', url: `/v/${pub.slug}` })).body;
    expect(plain).not.toContain('<blockquote>');
    expect(plain).toMatch(/<meta property="og:description" content="Watch /);
    expect((await t.ctx.db.select({ quote: publications.quote }).from(publications).where(eq(publications.id, pub.id)))[0]!.quote).toBeNull();
  });

  it('refuses words the customer did not say, a quote too long, another company and a taken-down publication, and keeps the quote it had', async () => {
    const { me, pub } = await publishedWithTranscript();
    expect((await me.put(`/api/publications/${pub.id}/quote`, { quote: 'They answered the same day.' })).statusCode).toBe(200);

    const invented = await me.put(`/api/publications/${pub.id}/quote`, { quote: 'Best agency in the world.' });
    expect(invented.statusCode).toBe(400);
    expect(invented.json()).toMatchObject({ code: 'invalid_data', field: 'quote', reason: 'quote_not_in_transcript', error: expect.stringMatching(/words the customer said/) });

    const long = await me.put(`/api/publications/${pub.id}/quote`, { quote: 'a'.repeat(301) });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ code: 'invalid_data', field: 'quote' });
    expect((await me.put(`/api/publications/${pub.id}/quote`, { quote: 42 })).statusCode).toBe(400);
    expect((await me.put(`/api/publications/${pub.id}/quote`, {})).statusCode).toBe(400);

    const other = await signedInCompany(t);
    const foreign = await other.put(`/api/publications/${pub.id}/quote`, { quote: null });
    expect(foreign.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PUT', url: `/api/publications/${pub.id}/quote`, payload: { quote: null } })).statusCode).toBe(401);

    const [row] = await t.ctx.db.select({ quote: publications.quote }).from(publications).where(eq(publications.id, pub.id));
    expect(row!.quote).toBe('They answered the same day.');

    expect((await t.app.inject({ method: 'DELETE', url: `/api/publications/${pub.id}`, headers: me.headers })).statusCode).toBe(204);
    expect((await me.put(`/api/publications/${pub.id}/quote`, { quote: null })).statusCode).toBe(404);
  });

  it('refuses any quote for a video without a transcript', async () => {
    const { me, tm, response } = await paidTestimonial(t);
    const pub = (await me.post('/api/publications', { testimonialId: tm.id, responseId: response.id })).json<{ id: string }>();
    expect((await me.put(`/api/publications/${pub.id}/quote`, { quote: 'Anything' })).json()).toMatchObject({ reason: 'quote_not_in_transcript' });
  });
});

describe('isQuoteOf', () => {
  const transcript = ['I would recommend them. They are fast.', 'Service was great!'];
  it('finds words across paragraphs, ignoring case, spacing and quotation marks at the ends', () => {
    expect(isQuoteOf('fast. Service was', transcript)).toBe(true);
    expect(isQuoteOf('« i would RECOMMEND them »', transcript)).toBe(true);
    expect(isQuoteOf('“They are  fast.”', transcript)).toBe(true);
  });
  it('refuses words not said, changed or empty', () => {
    expect(isQuoteOf('They are slow.', transcript)).toBe(false);
    expect(isQuoteOf('I recommend them', transcript)).toBe(false);
    expect(isQuoteOf('  “ ” ', transcript)).toBe(false);
    expect(isQuoteOf('anything', [])).toBe(false);
  });
});
