import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, publications, testimonialRequests, transcriptions } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { paidTestimonial } from '../../test/publishing.js';
import { engineWords, isQuoteOf, isSaidIn, quoteWords } from './publications.quote.js';

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
    expect(set.json()).toEqual({ quote: 'same day. Our sales <doubled>', quoteEdited: false });

    const page = (await t.app.inject({ method: 'GET', url: `/v/${pub.slug}` })).body;
    expect(page).toContain('<blockquote><p>“same day. Our sales &lt;doubled&gt;”</p></blockquote>');
    expect(page).toContain('<meta property="og:description" content="“same day. Our sales &lt;doubled&gt;”');
    expect(page).toContain('<meta name="twitter:description" content="“same day. Our sales &lt;doubled&gt;”');
    expect(page).not.toContain('<doubled>');
    expect(page).not.toContain('class="corrected"');
    const after = (await me.get(`/api/publications?testimonialId=${tm.id}`)).json<{ publications: Array<{ quote: string | null }> }>();
    expect(after.publications[0]!.quote).toBe('same day. Our sales <doubled>');

    // Blank (or null) removes it; the page goes back to its description.
    expect((await me.put(`/api/publications/${pub.id}/quote`, { quote: '   ' })).json()).toEqual({ quote: null, quoteEdited: false });
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

  /** A published answer whose engine heard `said` and whose transcript the company corrected to `edited` (null: not known). */
  async function publishedCorrected(said: string | null, edited: string) {
    const { me, tm, response } = await paidTestimonial(t);
    await t.ctx.db.insert(transcriptions).values({
      responseId: response.id,
      companyId: me.companyId,
      engine: 'pocketsphinx',
      language: 'en',
      segments: [{ start: 0.2, end: 3, text: edited }],
      originalSegments: said === null ? null : [{ start: 0.2, end: 3, text: said }],
      edited: true,
    });
    const created = await me.post('/api/publications', { testimonialId: tm.id, responseId: response.id });
    expect(created.statusCode, created.body).toBe(201);
    const [company] = await t.ctx.db.select({ name: companies.name }).from(companies).where(eq(companies.id, me.companyId));
    return { me, tm, company: company!.name, pub: created.json<{ id: string; slug: string }>() };
  }
  const page = async (slug: string) => (await t.app.inject({ method: 'GET', url: `/v/${slug}` })).body;

  it('takes the engine’s words as the customer’s, and words found only in the corrected transcript as edited, labelled on the page', async () => {
    const { me, tm, company, pub } = await publishedCorrected('the team at a cme was quick to answer', 'The team at Acme was quick to answer. Best agency ever.');

    // Words the engine heard (case and spacing aside): the customer's, no label.
    const said = await me.put(`/api/publications/${pub.id}/quote`, { quote: 'The team at a cme was quick' });
    expect(said.json()).toEqual({ quote: 'The team at a cme was quick', quoteEdited: false });
    expect(await page(pub.slug)).not.toMatch(/class="corrected"|Transcript corrected/);

    // A spelling fixed by the company: accepted, stored and shown as edited.
    const fixed = await me.put(`/api/publications/${pub.id}/quote`, { quote: 'The team at Acme was quick' });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json()).toEqual({ quote: 'The team at Acme was quick', quoteEdited: true });
    const [row] = await t.ctx.db.select({ quoteEdited: publications.quoteEdited }).from(publications).where(eq(publications.id, pub.id));
    expect(row!.quoteEdited).toBe(true);
    const html = await page(pub.slug);
    expect(html).toContain(`<blockquote><p>“The team at Acme was quick”</p></blockquote><figcaption>`);
    expect(html).toMatch(/<figcaption>[^<]*<small class="corrected">Transcript corrected by [^<]+<\/small><\/figcaption>/);
    expect(html).toContain(`Transcript corrected by ${company.replace(/&/g, '&amp;')}`);
    expect(html).toMatch(/<meta property="og:description" content="“The team at Acme was quick” [^"]* · Transcript corrected by /);
    const listed = (await me.get(`/api/publications?testimonialId=${tm.id}`)).json<{ publications: Array<{ quote: string; quoteEdited?: boolean }> }>();
    expect(listed.publications[0]).toMatchObject({ quote: 'The team at Acme was quick', quoteEdited: true });

    // Words added by the company: the same. Removing the quote clears the mark.
    expect((await me.put(`/api/publications/${pub.id}/quote`, { quote: 'Best agency ever.' })).json()).toEqual({ quote: 'Best agency ever.', quoteEdited: true });
    expect((await me.put(`/api/publications/${pub.id}/quote`, { quote: null })).json()).toEqual({ quote: null, quoteEdited: false });
    expect((await t.ctx.db.select({ quoteEdited: publications.quoteEdited }).from(publications).where(eq(publications.id, pub.id)))[0]!.quoteEdited).toBe(false);
    // Words in neither are refused as before.
    expect((await me.put(`/api/publications/${pub.id}/quote`, { quote: 'Worst agency ever.' })).json()).toMatchObject({ reason: 'quote_not_in_transcript' });
  });

  it('takes a quote of a transcript edited before the engine’s words were kept as edited, labelled in the page’s language', async () => {
    const { me, tm, company, pub } = await publishedCorrected(null, 'They answered the same day.');
    await t.ctx.db.update(testimonialRequests).set({ language: 'french' }).where(eq(testimonialRequests.id, tm.id));
    expect((await me.put(`/api/publications/${pub.id}/quote`, { quote: 'the same day' })).json()).toEqual({ quote: 'the same day', quoteEdited: true });
    const html = await page(pub.slug);
    expect(html).toContain('<blockquote><p>«\u00a0the same day\u00a0»</p></blockquote>');
    expect(html).toContain(`<small class="corrected">Transcription corrigée par ${company.replace(/&/g, '&amp;')}</small>`);
  });

  it('keeps the words of a transcript stored before they were kept apart as the engine’s at its first edit', async () => {
    const { me, tm, response } = await paidTestimonial(t);
    const heard = [{ start: 0.2, end: 1.5, text: 'they answered the same day' }];
    // As migration 0018 leaves a row the engine wrote and nobody edited: its words in segments only.
    await t.ctx.db.insert(transcriptions).values({ responseId: response.id, companyId: me.companyId, engine: 'pocketsphinx', language: 'en', segments: heard });
    const edit = await me.post(`/api/testimonials/response/${response.id}/generate-modified/subtitles`, { language: 'en', transcription: [{ start: 0.2, end: 1.5, text: 'They answered the same day. Best agency ever.' }] });
    expect(edit.statusCode, edit.body).toBe(202);
    const [row] = await t.ctx.db.select().from(transcriptions).where(eq(transcriptions.responseId, response.id));
    expect(row).toMatchObject({ edited: true, originalSegments: heard });
    const pub = (await me.post('/api/publications', { testimonialId: tm.id, responseId: response.id })).json<{ id: string }>();
    expect((await me.put(`/api/publications/${pub.id}/quote`, { quote: 'They answered the same day.' })).json()).toEqual({ quote: 'They answered the same day.', quoteEdited: false });
    expect((await me.put(`/api/publications/${pub.id}/quote`, { quote: 'Best agency ever.' })).json()).toEqual({ quote: 'Best agency ever.', quoteEdited: true });
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

describe('quoteWords', () => {
  const sources = { shown: ['Acme is fast.', 'Best agency ever.'], said: [['a cme is fast.']] };
  it('tells the engine’s words from the company’s', () => {
    expect(quoteWords('a cme is fast', sources)).toBe('said');
    expect(quoteWords('Acme is fast', sources)).toBe('edited');
    expect(quoteWords('Best agency', sources)).toBe('edited');
    expect(quoteWords('Worst agency', sources)).toBe(null);
  });
  it('takes words the engine heard as the customer’s even where the company’s edits removed them', () => {
    expect(quoteWords('a cme is fast', { shown: [], said: [['a cme is fast.']] })).toBe('said');
  });
  it('finds a quote across two answers only where the engine’s words of both are known and next to each other', () => {
    const parts = { shown: ['One.', 'Two.', 'Three.'], said: [['One.'], ['Three.']] };
    expect(quoteWords('One. Two.', parts)).toBe('edited');
    expect(quoteWords('Two. Three.', parts)).toBe('edited');
    expect(quoteWords('Three.', parts)).toBe('said');
    expect(quoteWords('One. Two.', { shown: parts.shown, said: [['One.', 'Two.', 'Three.']] })).toBe('said');
  });
});

describe('engineWords', () => {
  const segments = [{ start: 0, end: 1, text: 'edited' }];
  const original = [{ start: 0, end: 1, text: 'heard' }];
  it('reads the kept words, else the segments of a transcript never edited, else nothing', () => {
    expect(engineWords({ segments, originalSegments: original, edited: true })).toBe(original);
    expect(engineWords({ segments, originalSegments: null, edited: false })).toBe(segments);
    expect(engineWords({ segments, originalSegments: null, edited: true })).toBeNull();
  });
});

describe('isSaidIn', () => {
  const heard = ['i would recommend them they are fast', 'service was great'];
  it('compares words: case, punctuation and the company’s quotation marks aside, across answers', () => {
    expect(isSaidIn('I would recommend them. They are fast!', heard)).toBe(true);
    expect(isSaidIn('« They are fast. Service was great »', heard)).toBe(true);
    expect(isSaidIn('they’re fast', heard)).toBe(false);
  });
  it('takes whole words only, and nothing from nothing', () => {
    expect(isSaidIn('commend them', heard)).toBe(false);
    expect(isSaidIn('great', heard)).toBe(true);
    expect(isSaidIn(' … ', heard)).toBe(false);
    expect(isSaidIn('anything', [])).toBe(false);
  });
});
