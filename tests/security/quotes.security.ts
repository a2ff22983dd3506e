/**
 * A quote presented as the customer's words (issue 26, item 5). A publication's quote was checked
 * against the transcript as the company edited it, and the share page showed it under the customer's
 * name: a company could add praise to the transcript, then quote it. Now the engine's words are kept
 * apart from the edits, and a quote found only in the edited words is labelled on the page (and the
 * wall) as a transcript corrected by the company (decision 154). Replayed here end to end: the engine (a stand-in
 * for pocketsphinx) runs in the worker, the company edits the cues through the studio's call, publishes
 * and quotes.
 */
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, transcriptions } from '../../src/server/db/schema.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';
import { paidTestimonial } from '../../src/server/test/publishing.js';

const PRAISE = 'Best agency in the world, they doubled our sales.';

describe('a quote the customer never said', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'vr-quote-attack-'));
    // The engine hears four words, in pocketsphinx's output format (word, start, end, confidence).
    const engine = path.join(dir, 'pocketsphinx_continuous');
    await writeFile(
      engine,
      '#!/bin/sh\necho "they 0.100 0.300 0.990"\necho "answered 0.300 0.600 0.990"\necho "the 0.600 0.700 0.990"\necho "same 0.700 0.900 0.990"\necho "day 0.900 1.100 0.990"\n',
    );
    await chmod(engine, 0o755);
    t = await createTestApp({ work: true, env: { POCKETSPHINX_PATH: engine } });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('is labelled on the share page as a transcript corrected by the company; the engine’s own words are not', async () => {
    const { me, tm, response } = await paidTestimonial(t);
    const [company] = await t.ctx.db.select({ name: companies.name }).from(companies).where(eq(companies.id, me.companyId));

    // The engine transcribes the answer in the worker.
    expect((await me.post(`/api/testimonials/response/${response.id}/transcribe`, { force: true })).statusCode).toBe(202);
    await expect.poll(async () => (await t.ctx.db.select().from(transcriptions).where(eq(transcriptions.responseId, response.id))).length, { timeout: 60_000, interval: 250 }).toBe(1);
    const heard = (await me.post(`/api/testimonials/response/${response.id}/transcribe`, {})).json<{ transcription: Array<{ start: number; end: number; text: string }> }>().transcription;
    expect(heard.map((s) => s.text).join(' ')).toMatch(/they answered the same day/i);

    // The attack: the company adds praise to the transcript (the studio's subtitles call saves the cues)…
    // (Typed lines follow the rules of any subtitles, decision 167: the praise takes the second half of the last line's time.)
    const last = heard[heard.length - 1]!;
    const middle = Math.round(((last.start + last.end) / 2) * 1000) / 1000;
    const edited = [...heard.slice(0, -1), { ...last, end: middle }, { start: middle, end: last.end, text: PRAISE }];
    const saved = await me.post(`/api/testimonials/response/${response.id}/generate-modified/subtitles`, { language: 'en', transcription: edited });
    expect(saved.statusCode, saved.body).toBe(202);
    const [row] = await t.ctx.db.select().from(transcriptions).where(eq(transcriptions.responseId, response.id));
    expect(row!.edited).toBe(true);
    expect(row!.segments.map((s) => s.text)).toContain(PRAISE);
    // …which leaves the engine's words as they were.
    expect(row!.originalSegments).toEqual(heard);

    // …publishes the answer and quotes the praise. Accepted (it is in the published transcript), but as edited.
    const created = await me.post('/api/publications', { testimonialId: tm.id, responseId: response.id });
    expect(created.statusCode, created.body).toBe(201);
    const pub = created.json<{ id: string; slug: string }>();
    const quoted = await me.put(`/api/publications/${pub.id}/quote`, { quote: 'Best agency in the world' });
    expect(quoted.statusCode, quoted.body).toBe(200);
    expect(quoted.json()).toEqual({ quote: 'Best agency in the world', quoteEdited: true });

    // The public page shows it with the label, under the customer's name, and link previews say so too.
    const label = `Transcript corrected by ${company!.name}`;
    const page = (await t.app.inject({ method: 'GET', url: `/v/${pub.slug}` })).body;
    expect(page).toMatch(/<blockquote><p>“Best agency in the world”<\/p><\/blockquote><figcaption>[^<]+<small class="corrected">([^<]+)<\/small><\/figcaption>/);
    expect(/<small class="corrected">([^<]+)<\/small>/.exec(page)![1]).toBe(label.replace(/&/g, '&amp;'));
    expect(page).toMatch(/<meta property="og:description" content="“Best agency in the world” [^"]+ · Transcript corrected by /);
    // So does the company's wall, under the card's quote.
    const wall = (await me.get('/api/wall')).json<{ slug: string }>();
    const wallPage = (await t.app.inject({ method: 'GET', url: `/wall/${wall.slug}` })).body;
    expect(wallPage).toContain('Best agency in the world');
    expect(/<p class="corrected">([^<]+)<\/p>/.exec(wallPage)?.[1]).toBe(label.replace(/&/g, '&amp;'));

    // A quote of what the engine heard is the customer's words: no label.
    const own = await me.put(`/api/publications/${pub.id}/quote`, { quote: 'they answered the same day' });
    expect(own.json()).toEqual({ quote: 'they answered the same day', quoteEdited: false });
    const plain = (await t.app.inject({ method: 'GET', url: `/v/${pub.slug}` })).body;
    expect(plain).toContain('<blockquote><p>“they answered the same day”</p></blockquote>');
    expect(plain).not.toMatch(/class="corrected"|Transcript corrected/);
    expect((await t.app.inject({ method: 'GET', url: `/wall/${wall.slug}` })).body).not.toMatch(/class="corrected"|Transcript corrected/);

    // Editing again never rewrites the engine's words.
    // (once the first render is done: one render of an answer at a time)
    const editAgain = () => me.post(`/api/testimonials/response/${response.id}/generate-modified/subtitles`, { language: 'en', transcription: [{ start: 0.1, end: 1.9, text: PRAISE }] });
    await expect.poll(async () => (await editAgain()).statusCode, { timeout: 90_000, interval: 500 }).toBe(202);
    const [after] = await t.ctx.db.select().from(transcriptions).where(eq(transcriptions.responseId, response.id));
    expect(after!.segments).toMatchObject([{ start: 0.1, end: 1.9, text: PRAISE }]);
    // The saved line carries its words, timed by the server inside the line (word-by-word captions, decision 205).
    const words = after!.segments[0]!.words ?? [];
    expect(words.map((w) => w.text).join(' ')).toBe(PRAISE);
    expect(words.every((w) => w.start >= 0.1 && w.end <= 1.9 && w.end >= w.start)).toBe(true);
    expect(after!.originalSegments).toEqual(heard);
    expect((await me.put(`/api/publications/${pub.id}/quote`, { quote: 'they answered the same day' })).json()).toEqual({ quote: 'they answered the same day', quoteEdited: false });
  }, 180_000);
});
