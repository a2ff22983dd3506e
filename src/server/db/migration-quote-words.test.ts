import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseAtMigration, type DatabaseAtMigration } from '../test/migrations.js';

/**
 * Migration 0018 keeps the engine's words of a transcript apart from the company's edits and marks a
 * quote found only in the edited words (decision 154). A database at 0017 holds a quote of a transcript
 * never edited and one of an edited transcript: the first stays the customer's words, the second, whose
 * original words cannot be known, is labelled edited. No transcript is given engine words it never had.
 */

const COMPANY = '11111111-1111-4111-8111-111111111111';
const QUESTION = '22222222-2222-4222-8222-222222222222';
const QUESTION_2 = '22222222-2222-4222-8222-222222222223';
const REQUEST = '33333333-3333-4333-8333-333333333333';
const PLAIN = '44444444-4444-4444-8444-444444444441';
const EDITED = '44444444-4444-4444-8444-444444444442';
const PLAIN_PUB = '55555555-5555-4555-8555-555555555551';
const EDITED_PUB = '55555555-5555-4555-8555-555555555552';
const NO_QUOTE_PUB = '55555555-5555-4555-8555-555555555553';

describe('migration 0018: quotes checked against the engine’s words', () => {
  let pg: PGlite;
  let db: DatabaseAtMigration | undefined;

  beforeAll(async () => {
    db = await databaseAtMigration(17);
    pg = db.pg;
    const segments = (text: string) => JSON.stringify([{ start: 0, end: 2, text }]);
    const answer = (id: string, n: number) =>
      `('${id}', '${REQUEST}', '${COMPANY}', '${n === 1 ? QUESTION : QUESTION_2}', 'Why us?', ${n}, 'companies/${COMPANY}/answers/${id}/original.webm', 'x${n}')`;
    const publication = (id: string, responseId: string, quote: string | null) =>
      `('${id}', '${COMPANY}', '${REQUEST}', '${responseId}', 'slug-${id}', 'v.mp4', '[{"responseId":"${responseId}","offset":0}]', ${quote === null ? 'null' : `'${quote}'`})`;
    await pg.exec(`
      insert into companies (id, name, credits) values ('${COMPANY}', 'Acme', 3);
      insert into questions (id, company_id, text, order_position) values ('${QUESTION}', '${COMPANY}', 'Why us?', 1), ('${QUESTION_2}', '${COMPANY}', 'And then?', 2);
      insert into testimonial_requests (id, company_id, token, customer_name, customer_email, expires_at, status, paid)
        values ('${REQUEST}', '${COMPANY}', 'tok', 'Sarah', 'sarah@example.com', now() + interval '30 days', 'completed', true);
      insert into testimonial_responses (id, request_id, company_id, question_id, question_text, order_position, original_key, original_sha256)
        values ${answer(PLAIN, 1)}, ${answer(EDITED, 2)};
      insert into transcriptions (response_id, company_id, engine, language, segments, edited)
        values ('${PLAIN}', '${COMPANY}', 'vosk', 'en', '${segments('They answered the same day.')}', false),
               ('${EDITED}', '${COMPANY}', 'vosk', 'en', '${segments('Best agency in the world.')}', true);
      insert into publications (id, company_id, request_id, response_id, slug, video_key, caption_parts, quote)
        values ${publication(PLAIN_PUB, PLAIN, 'the same day')}, ${publication(EDITED_PUB, EDITED, 'Best agency')}, ${publication(NO_QUOTE_PUB, EDITED, null)};
    `);
    await db.upgrade();
  });

  afterAll(async () => {
    await db?.close();
  });

  it('labels a quote edited only where a transcript of its video was edited', async () => {
    const rows = (await pg.query<{ id: string; quote: string | null; quote_edited: boolean }>('select id, quote, quote_edited from publications order by id')).rows;
    expect(rows).toEqual([
      { id: PLAIN_PUB, quote: 'the same day', quote_edited: false },
      { id: EDITED_PUB, quote: 'Best agency', quote_edited: true },
      { id: NO_QUOTE_PUB, quote: null, quote_edited: false },
    ]);
  });

  it('gives no transcript engine words it did not keep', async () => {
    const rows = (await pg.query<{ original_segments: unknown }>('select original_segments from transcriptions')).rows;
    expect(rows).toEqual([{ original_segments: null }, { original_segments: null }]);
  });
});
