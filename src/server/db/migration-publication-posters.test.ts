import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../lib/paths.js';

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
  let before: string;

  beforeAll(async () => {
    before = await mkdtemp(path.join(os.tmpdir(), 'vr-migrations-'));
    const journal = JSON.parse(await readFile(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: { idx: number; tag: string }[] };
    const previous = journal.entries.filter((e) => e.idx < 20);
    for (const e of previous) await cp(path.join(MIGRATIONS_DIR, `${e.tag}.sql`), path.join(before, `${e.tag}.sql`));
    await cp(path.join(MIGRATIONS_DIR, 'meta'), path.join(before, 'meta'), { recursive: true });
    await writeFile(path.join(before, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: previous }));

    pg = await PGlite.create('memory://');
    await migrate(drizzle(pg), { migrationsFolder: before });
    const answer = (id: string, n: number, seconds: number | null) =>
      `('${id}', '${REQUEST}', '${COMPANY}', '${QUESTIONS[n - 1]}', 'Why us?', ${n}, 'companies/${COMPANY}/answers/${id}/original.webm', 'x${n}', ${seconds ?? 'null'})`;
    await pg.exec(`
      insert into companies (id, name, credits) values ('${COMPANY}', 'Acme', 3);
      insert into questions (id, company_id, text, order_position) values ${QUESTIONS.map((q, i) => `('${q}', '${COMPANY}', 'Why us ${i}?', ${i + 1})`).join(', ')};
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
    await migrate(drizzle(pg), { migrationsFolder: MIGRATIONS_DIR });
  });
  afterAll(async () => {
    await pg?.close();
    if (before) await rm(before, { recursive: true, force: true });
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
