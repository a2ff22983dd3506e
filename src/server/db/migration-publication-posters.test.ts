import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseAtMigration, type DatabaseAtMigration } from '../test/migrations.js';

/**
 * Migration 0020 gives existing publications their length (decision 168): the end of the last answer in
 * the video, its offset in caption_parts plus its recorded length. A merged video of two answers behind
 * their 3 s cards lasts 3 + 20 + 3 + 12.5 s; one whose answer's length is unknown stays unknown. No
 * poster moment is set: every existing poster is the automatic one.
 */

const COMPANY = '11111111-1111-4111-8111-111111111111';
const QUESTIONS = ['22222222-2222-4222-8222-222222222221', '22222222-2222-4222-8222-222222222222', '22222222-2222-4222-8222-222222222223'];
const REQUEST = '33333333-3333-4333-8333-333333333333';
const FIRST = '44444444-4444-4444-8444-444444444441';
const SECOND = '44444444-4444-4444-8444-444444444442';
const UNKNOWN = '44444444-4444-4444-8444-444444444443';
const MERGED_PUB = '55555555-5555-4555-8555-555555555551';
const UNKNOWN_PUB = '55555555-5555-4555-8555-555555555552';

describe('migration 0020: lengths of existing publications', () => {
  let pg: PGlite;
  let db: DatabaseAtMigration | undefined;

  beforeAll(async () => {
    db = await databaseAtMigration(19);
    pg = db.pg;
    const answer = (id: string, n: number, seconds: number | null) =>
      `('${id}', '${REQUEST}', '${COMPANY}', '${QUESTIONS[n - 1]}', 'Why us?', ${n}, 'companies/${COMPANY}/answers/${id}/original.webm', 'x${n}', ${seconds ?? 'null'})`;
    await pg.exec(`
      insert into companies (id, name, credits) values ('${COMPANY}', 'Acme', 3);
      insert into questions (id, company_id, text_en, order_position) values ${QUESTIONS.map((q, i) => `('${q}', '${COMPANY}', 'Why us ${i}?', ${i + 1})`).join(', ')};
      insert into testimonial_requests (id, company_id, token, customer_name, customer_email, expires_at, status, paid)
        values ('${REQUEST}', '${COMPANY}', 'tok', 'Sarah', 'sarah@example.com', now() + interval '30 days', 'completed', true);
      insert into testimonial_responses (id, request_id, company_id, question_id, question_text, order_position, original_key, original_sha256, duration_seconds)
        values ${answer(FIRST, 1, 20)}, ${answer(SECOND, 2, 12.5)}, ${answer(UNKNOWN, 3, null)};
      insert into publications (id, company_id, request_id, response_id, slug, video_key, poster_key, caption_parts)
        values ('${MERGED_PUB}', '${COMPANY}', '${REQUEST}', '${FIRST}', 'slug-merged', 'm.mp4', 'm.jpg',
                '[{"responseId":"${FIRST}","offset":3},{"responseId":"${SECOND}","offset":26}]'),
               ('${UNKNOWN_PUB}', '${COMPANY}', '${REQUEST}', '${UNKNOWN}', 'slug-unknown', 'u.mp4', 'u.jpg',
                '[{"responseId":"${UNKNOWN}","offset":0}]');
    `);
    await db.upgrade();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('fills the length from the answers, leaves an unknown one unknown, and sets no poster moment', async () => {
    const { rows } = await pg.query<{ id: string; duration_seconds: number | null; poster_seconds: number | null; poster_key: string }>(
      'select id, duration_seconds, poster_seconds, poster_key from publications order by id',
    );
    expect(rows).toEqual([
      { id: MERGED_PUB, duration_seconds: 38.5, poster_seconds: null, poster_key: 'm.jpg' },
      { id: UNKNOWN_PUB, duration_seconds: null, poster_seconds: null, poster_key: 'u.jpg' },
    ]);
  });
});
