import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseAtMigration, type DatabaseAtMigration } from '../test/migrations.js';

/**
 * Migration 0009 carries the render states of the previous schema (jsonb maps on answers and
 * testimonials) and the transcription jobs over to `jobs`: a database at 0008 is filled as the
 * previous release wrote it, then migrated to the current schema.
 */

const COMPANY = '11111111-1111-4111-8111-111111111111';
const QUESTION = '22222222-2222-4222-8222-222222222222';
const QUESTION_2 = '22222222-2222-4222-8222-222222222223';
const REQUEST = '33333333-3333-4333-8333-333333333333';
const ANSWER = '44444444-4444-4444-8444-444444444444';
const ANSWER_2 = '44444444-4444-4444-8444-444444444445';
const INTRO_JOB = '55555555-5555-4555-8555-555555555555';
const STALE_JOB = '55555555-5555-4555-8555-555555555556';
const EXPORT_JOB = '55555555-5555-4555-8555-555555555557';
const MERGE_JOB = '55555555-5555-4555-8555-555555555558';
const QUEUED_MERGE_SUBS = '55555555-5555-4555-8555-555555555559';
const TRANSCRIPTION_JOB = '66666666-6666-4666-8666-666666666666';
const MERGED_TRANSCRIPTION_JOB = '66666666-6666-4666-8666-666666666667';

interface JobRow {
  id: string;
  kind: string;
  request_id: string;
  response_id: string | null;
  params: Record<string, unknown>;
  phase: string;
  progress: number;
  error_reason: string | null;
  error_detail: string | null;
  output_key: string | null;
  result: unknown;
}

describe('migration 0009: render states and transcription jobs become jobs', () => {
  let pg: PGlite;
  let db: DatabaseAtMigration | undefined;
  let jobs: JobRow[];
  const now = Date.now();
  const iso = (msAgo: number) => new Date(now - msAgo).toISOString();

  beforeAll(async () => {
    // The migrations of the previous release (0000–0008), in a folder of their own.
    db = await databaseAtMigration(8);
    pg = db.pg;

    const answerStates = {
      transcode: { phase: 'ready', progress: 100, error: null, jobId: null, updatedAt: iso(3_600_000) },
      intro: { phase: 'ready', progress: 100, error: null, jobId: INTRO_JOB, updatedAt: iso(3_000_000) },
      export_original: { phase: 'ready', progress: 100, error: null, jobId: EXPORT_JOB, updatedAt: iso(2_000_000) },
      subtitles: { phase: 'rendering', progress: 40, error: null, jobId: STALE_JOB, updatedAt: iso(3_000_000) },
    };
    const answer2States = { transcode: { phase: 'failed', progress: 0, error: 'Invalid data found when processing input', jobId: null, updatedAt: iso(60_000) } };
    const requestStates = {
      merge: { phase: 'ready', progress: 100, error: null, jobId: MERGE_JOB, updatedAt: iso(1_000_000) },
      merge_subtitles: { phase: 'queued', progress: 0, error: null, jobId: QUEUED_MERGE_SUBS, updatedAt: iso(30_000) },
    };
    const base = `companies/${COMPANY}/requests/${REQUEST}`;
    await pg.exec(`
      insert into companies (id, name, credits) values ('${COMPANY}', 'Acme', 3);
      insert into questions (id, company_id, text, order_position) values ('${QUESTION}', '${COMPANY}', 'Why us?', 1), ('${QUESTION_2}', '${COMPANY}', 'And then?', 2);
      insert into testimonial_requests (id, company_id, token, customer_name, customer_email, expires_at, status, paid, merged_key, render_state)
        values ('${REQUEST}', '${COMPANY}', 'tok', 'Sarah', 'sarah@example.com', now() + interval '30 days', 'completed', true,
                '${base}/merged-${MERGE_JOB}.mp4', '${JSON.stringify(requestStates)}');
      insert into testimonial_responses (id, request_id, company_id, question_id, question_text, order_position, original_key, original_sha256, video_key, modified_key, short_original_key, intro_generated, render_state)
        values ('${ANSWER}', '${REQUEST}', '${COMPANY}', '${QUESTION}', 'Why us?', 1, '${base}/answers/${ANSWER}/original.webm', 'x',
                '${base}/answers/${ANSWER}/answer.mp4', '${base}/answers/${ANSWER}/intro-${INTRO_JOB}.mp4',
                '${base}/answers/${ANSWER}/export-shorts-${EXPORT_JOB}.mp4', true, '${JSON.stringify(answerStates)}'),
               ('${ANSWER_2}', '${REQUEST}', '${COMPANY}', '${QUESTION_2}', 'And then?', 2, '${base}/answers/${ANSWER_2}/original.webm', 'y',
                null, null, null, false, '${JSON.stringify(answer2States)}');
      insert into transcription_jobs (id, company_id, request_id, response_id, status, result)
        values ('${TRANSCRIPTION_JOB}', '${COMPANY}', '${REQUEST}', '${ANSWER}', 'done', '[{"responseId":"${ANSWER}","transcription":[]}]');
      insert into transcription_jobs (id, company_id, request_id, status, error)
        values ('${MERGED_TRANSCRIPTION_JOB}', '${COMPANY}', '${REQUEST}', 'error', 'engine crashed');
    `);

    // The current release's migrations, from where the database stands.
    await db.upgrade();
    jobs = (await pg.query<JobRow>('select * from jobs order by id')).rows;
  });

  afterAll(async () => {
    await db?.close();
  });

  const job = (id: string) => jobs.find((j) => j.id === id);

  it('drops the jsonb render maps and the transcription jobs table', async () => {
    const { rows: columns } = await pg.query<{ table_name: string }>(
      `select table_name from information_schema.columns where column_name = 'render_state' and table_schema = 'public'`,
    );
    expect(columns).toEqual([]);
    const { rows: tables } = await pg.query(`select 1 from information_schema.tables where table_name = 'transcription_jobs'`);
    expect(tables).toEqual([]);
  });

  it("keeps a ready render with its id, kind and the output its render wrote", () => {
    expect(job(INTRO_JOB)).toMatchObject({ kind: 'intro', response_id: ANSWER, phase: 'ready', progress: 100, output_key: expect.stringContaining(`intro-${INTRO_JOB}`) });
    expect(job(EXPORT_JOB)).toMatchObject({ kind: 'export', params: { videoType: 'original' }, phase: 'ready', output_key: expect.stringContaining(`export-shorts-${EXPORT_JOB}`) });
    expect(job(MERGE_JOB)).toMatchObject({ kind: 'merge', request_id: REQUEST, response_id: null, phase: 'ready', output_key: expect.stringContaining(`merged-${MERGE_JOB}`) });
  });

  it('records a render lost in flight as interrupted, and keeps a recent queued one queued', () => {
    expect(job(STALE_JOB)).toMatchObject({ kind: 'subtitles', phase: 'failed', error_reason: 'interrupted' });
    expect(job(QUEUED_MERGE_SUBS)).toMatchObject({ kind: 'merged_subtitles', phase: 'queued', error_reason: null, output_key: null });
  });

  it('gives each transcode a job: ready with the answer video, failed with its reason and detail', () => {
    const transcodes = jobs.filter((j) => j.kind === 'transcode');
    expect(transcodes).toHaveLength(2);
    expect(transcodes.find((j) => j.response_id === ANSWER)).toMatchObject({ phase: 'ready', output_key: expect.stringMatching(/answer\.mp4$/) });
    expect(transcodes.find((j) => j.response_id === ANSWER_2)).toMatchObject({
      phase: 'failed',
      error_reason: 'transcode_failed',
      error_detail: 'Invalid data found when processing input',
      output_key: null,
    });
  });

  it('carries the transcription jobs over with their ids, results and errors', () => {
    expect(job(TRANSCRIPTION_JOB)).toMatchObject({ kind: 'transcription', response_id: ANSWER, phase: 'ready', result: [{ responseId: ANSWER, transcription: [] }] });
    expect(job(MERGED_TRANSCRIPTION_JOB)).toMatchObject({
      kind: 'merged_transcription',
      response_id: null,
      phase: 'failed',
      error_reason: 'transcription_failed',
      error_detail: 'engine crashed',
    });
    expect(jobs).toHaveLength(9);
  });

  it('refuses a second render of the same answer while one is in flight', async () => {
    await pg.query(`insert into jobs (company_id, kind, request_id, response_id) values ($1, 'intro', $2, $3)`, [COMPANY, REQUEST, ANSWER]);
    await expect(pg.query(`insert into jobs (company_id, kind, request_id, response_id) values ($1, 'export', $2, $3)`, [COMPANY, REQUEST, ANSWER])).rejects.toThrow(
      /jobs_one_render_uq/,
    );
    // A transcode or a transcription is not a render: it may run beside one.
    await pg.query(`insert into jobs (company_id, kind, request_id, response_id) values ($1, 'transcription', $2, $3)`, [COMPANY, REQUEST, ANSWER]);
  });
});
