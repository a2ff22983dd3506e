import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { questions, testimonialRequests, testimonialResponses } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { completedTestimonial } from '../../test/testimonials.js';

/**
 * A question's text in English and in French (issue 27 item 1, decision 165): either may be empty,
 * not both; a request freezes each question in its own language, falling back to the other one.
 */
describe('questions in the customer’s language', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  type Me = Awaited<ReturnType<typeof signedInCompany>>;
  const add = (me: Me, body: object) => me.post('/api/questions/add', { company_id: me.companyId, order_position: 1, ...body });
  const list = async (me: Me) => (await me.get(`/api/questions/list?company_id=${me.companyId}`)).json() as { id: string; text: string; text_en: string | null; text_fr: string | null }[];

  /** What the customer's link shows for a request in `language` asking `ids`. */
  async function customerQuestions(me: Me, ids: string[], language: 'english' | 'french') {
    const sent = await me.post('/api/testimonials/request', { customer_email: 'client@example.test', customer_name: 'Camille', question_ids: ids, language });
    expect(sent.statusCode, sent.body).toBe(201);
    const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, sent.json().testimonial.id));
    const page = await t.app.inject({ method: 'GET', url: `/api/public/testimonial/validate/${row!.token}` });
    expect(page.statusCode, page.body).toBe(200);
    return (page.json().questions as { text: string }[]).map((q) => q.text);
  }

  it('keeps both texts, and a request shows each question in its language, else in the other', async () => {
    const me = await signedInCompany(t);
    const both = await add(me, { text_en: '  What changed for you?  ', text_fr: 'Qu’est-ce qui a changé pour vous ?' });
    expect(both.statusCode, both.body).toBe(201);
    expect(both.json()).toMatchObject({ text: 'What changed for you?', text_en: 'What changed for you?', text_fr: 'Qu’est-ce qui a changé pour vous ?' });
    const frOnly = await add(me, { text_en: '', text_fr: 'Nous recommanderiez-vous ?', order_position: 2 });
    expect(frOnly.json()).toMatchObject({ text: 'Nous recommanderiez-vous ?', text_en: null, text_fr: 'Nous recommanderiez-vous ?' });
    const enOnly = await add(me, { text_en: 'Anything else?', text_fr: null, order_position: 3 });
    expect(enOnly.json()).toMatchObject({ text_en: 'Anything else?', text_fr: null });
    const ids = [both.json().id, frOnly.json().id, enOnly.json().id] as string[];

    expect(await customerQuestions(me, ids, 'french')).toEqual(['Qu’est-ce qui a changé pour vous ?', 'Nous recommanderiez-vous ?', 'Anything else?']);
    expect(await customerQuestions(me, ids, 'english')).toEqual(['What changed for you?', 'Nous recommanderiez-vous ?', 'Anything else?']);
  });

  it('refuses a question with no text in either language, with a reason the interface translates, and writes nothing', async () => {
    const me = await signedInCompany(t);
    for (const body of [{ text_en: '  ', text_fr: '' }, { text_en: null, text_fr: null }, {}, { text: '   ' }]) {
      const res = await add(me, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      if ('text' in body) expect(res.json().field).toBe('text');
      else expect(res.json()).toMatchObject({ code: 'invalid_data', reason: 'question_text_required', field: 'text_en', error: 'Write the question in English, in French, or in both.' });
    }
    const ambiguous = await add(me, { text: 'Why?', text_fr: 'Pourquoi ?' });
    expect(ambiguous.json()).toMatchObject({ code: 'invalid_data', reason: 'question_text_ambiguous', field: 'text' });
    expect(await list(me)).toEqual([]);

    // Editing away the only text is refused too, and the question keeps its text.
    const q = (await add(me, { text_fr: 'Pourquoi nous ?' })).json();
    const cleared = await me.post('/api/questions/edit', { id: q.id, company_id: me.companyId, text_fr: '' });
    expect(cleared.json()).toMatchObject({ reason: 'question_text_required' });
    expect((await list(me)).map((x) => x.text_fr)).toEqual(['Pourquoi nous ?']);
  });

  it('limits each language to 500 characters, naming the field', async () => {
    const me = await signedInCompany(t);
    const longFr = await add(me, { text_en: 'Short?', text_fr: 'x'.repeat(501) });
    expect(longFr.statusCode).toBe(400);
    expect(longFr.json()).toMatchObject({ field: 'text_fr' });
    expect(longFr.json().error).toMatch(/French text must be at most 500 characters/);
    const longEn = await add(me, { text_en: 'y'.repeat(501) });
    expect(longEn.json().error).toMatch(/English text must be at most 500 characters/);
    const exact = await add(me, { text_en: 'z'.repeat(500), text_fr: 'é'.repeat(500) });
    expect(exact.statusCode).toBe(201);
  });

  it('reads `text` as the company’s mail language on input, and answers it in that language first', async () => {
    const me = await signedInCompany(t, { lang: 'fr' });
    const q = (await add(me, { text: 'Qu’avez-vous aimé ?' })).json();
    expect(q).toMatchObject({ text: 'Qu’avez-vous aimé ?', text_en: null, text_fr: 'Qu’avez-vous aimé ?' });
    // The English text is added beside it; `text` still answers in French.
    const withEn = await me.post('/api/questions/edit', { id: q.id, company_id: me.companyId, text_en: 'What did you like?' });
    expect(withEn.json()).toMatchObject({ text: 'Qu’avez-vous aimé ?', text_en: 'What did you like?', text_fr: 'Qu’avez-vous aimé ?' });
    // `text` replaces the French text and keeps the English one.
    const edited = await me.post('/api/questions/edit', { id: q.id, company_id: me.companyId, text: 'Qu’avez-vous préféré ?' });
    expect(edited.json()).toMatchObject({ text: 'Qu’avez-vous préféré ?', text_en: 'What did you like?', text_fr: 'Qu’avez-vous préféré ?' });
    // Removing the French text: `text` falls back to English.
    const enOnly = await me.post('/api/questions/edit', { id: q.id, company_id: me.companyId, text_fr: null });
    expect(enOnly.json()).toMatchObject({ text: 'What did you like?', text_en: 'What did you like?', text_fr: null });
    const [row] = await t.ctx.db.select().from(questions).where(eq(questions.id, q.id));
    expect([row?.textEn, row?.textFr]).toEqual(['What did you like?', null]);
  });

  it('freezes the text at sending: editing a question later leaves a sent request as it was', async () => {
    const me = await signedInCompany(t);
    const q = (await add(me, { text_en: 'Before?', text_fr: 'Avant ?' })).json();
    const sent = await me.post('/api/testimonials/request', { customer_email: 'c@example.test', customer_name: 'C', question_ids: [q.id], language: 'french' });
    await me.post('/api/questions/edit', { id: q.id, company_id: me.companyId, text_en: 'After?', text_fr: 'Après ?' });
    const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, sent.json().testimonial.id));
    const page = await t.app.inject({ method: 'GET', url: `/api/public/testimonial/validate/${row!.token}` });
    expect(page.json().questions.map((x: { text: string }) => x.text)).toEqual(['Avant ?']);
  });

  it('gives the answer of a French request the French text, which its cards, share page, wall and e-mails read', async () => {
    const me = await signedInCompany(t);
    const done = await completedTestimonial(t, me, { question: { text_en: 'How was it?', text_fr: 'C’était comment ?' }, language: 'french' });
    const answers = await t.ctx.db.select({ text: testimonialResponses.questionText }).from(testimonialResponses).where(eq(testimonialResponses.requestId, done.id));
    expect(answers).toEqual([{ text: 'C’était comment ?' }]);
  });
});
