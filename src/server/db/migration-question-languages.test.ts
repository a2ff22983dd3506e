import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseAtMigration, type DatabaseAtMigration } from '../test/migrations.js';

/**
 * Migration 0019 gives a question a text in English and one in French (decision 165). A database at
 * 0018 holds questions of a company writing to its customers in English and of one writing in French:
 * each question keeps its text as the language of its company's mail language, the other empty; the
 * texts frozen in sent requests are untouched; a question without a text can no longer be written.
 */

const EN_COMPANY = '11111111-1111-4111-8111-111111111111';
const FR_COMPANY = '11111111-1111-4111-8111-111111111112';
const EN_QUESTION = '22222222-2222-4222-8222-222222222221';
const FR_QUESTION = '22222222-2222-4222-8222-222222222222';
const REQUEST = '33333333-3333-4333-8333-333333333333';

describe('migration 0019: questions in English and in French', () => {
  let pg: PGlite;
  let db: DatabaseAtMigration | undefined;

  beforeAll(async () => {
    db = await databaseAtMigration(18);
    pg = db.pg;
    await pg.exec(`
      insert into companies (id, name, mail_language) values ('${EN_COMPANY}', 'Acme', 'en'), ('${FR_COMPANY}', 'Fleurs & Co', 'fr');
      insert into questions (id, company_id, text, order_position)
        values ('${EN_QUESTION}', '${EN_COMPANY}', 'Why us?', 1), ('${FR_QUESTION}', '${FR_COMPANY}', 'Pourquoi nous ?', 1);
      insert into testimonial_requests (id, company_id, token, customer_name, customer_email, expires_at, language)
        values ('${REQUEST}', '${FR_COMPANY}', 'tok', 'Camille', 'camille@example.com', now() + interval '30 days', 'french');
      insert into request_questions (request_id, question_id, question_text, order_position) values ('${REQUEST}', '${FR_QUESTION}', 'Pourquoi nous ?', 1);
    `);
    await db.upgrade();
  });

  afterAll(async () => {
    await db?.close();
  });

  it('keeps each question’s text as its company’s mail language', async () => {
    const rows = (await pg.query<{ id: string; text_en: string | null; text_fr: string | null }>('select id, text_en, text_fr from questions order by id')).rows;
    expect(rows).toEqual([
      { id: EN_QUESTION, text_en: 'Why us?', text_fr: null },
      { id: FR_QUESTION, text_en: null, text_fr: 'Pourquoi nous ?' },
    ]);
    const columns = (await pg.query<{ column_name: string }>("select column_name from information_schema.columns where table_name = 'questions' and column_name = 'text'")).rows;
    expect(columns).toEqual([]);
  });

  it('leaves the texts frozen in sent requests as they were', async () => {
    const rows = (await pg.query<{ question_text: string }>('select question_text from request_questions')).rows;
    expect(rows).toEqual([{ question_text: 'Pourquoi nous ?' }]);
  });

  it('refuses a question with no text in either language', async () => {
    await expect(pg.query(`insert into questions (company_id, text_en, text_fr, order_position) values ('${EN_COMPANY}', null, '', 2)`)).rejects.toThrow(/questions_text_ck/);
    await expect(pg.query(`update questions set text_fr = null where id = '${FR_QUESTION}'`)).rejects.toThrow(/questions_text_ck/);
  });
});
