import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_VIDEO_STYLE } from '../../../contract/constants.js';
import type { TDraft } from '../../../contract/api/testimonials.schema.js';
import { companies, jobs, testimonialRequests, testimonialResponses, transcriptions } from '../../db/schema.js';
import { CARD_SECONDS } from '../../media/render.js';
import { signedInCompany } from '../../test/accounts.js';
import { makeClip, multipart } from '../../test/clips.js';
import { createTestApp, type TestApp } from '../../test/harness.js';

const run = promisify(execFile);
const SENTENCE = 'Working with this team was a great experience. I recommend them to everyone.';

/**
 * Issue 31: drafts on arrival, with real jobs (transcodes, pocketsphinx, ffmpeg). A paid testimonial
 * whose answers are prepared gets its draft without being asked; a company that prepares drafts pays on
 * arrival when a credit is left; no credit, a withdrawal or another company stop it.
 */
describe('drafts on arrival', () => {
  let t: TestApp;
  let dir: string;
  let speech: Buffer;
  beforeAll(async () => {
    t = await createTestApp({ work: true, env: { DRAFTS: 'on' } });
    dir = await mkdtemp(path.join(os.tmpdir(), 'vr-draft-'));
    const wav = path.join(dir, 'speech.wav');
    await run('flite', ['-voice', 'slt', '-t', SENTENCE, '-o', wav]);
    const video = path.join(dir, 'answer.webm');
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=navy:s=320x240:r=15', '-i', wav, '-shortest', '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-c:a', 'libopus', '-ar', '48000', video]);
    speech = await readFile(video);
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  type Me = Awaited<ReturnType<typeof signedInCompany>>;

  /** A testimonial of `count` answers sent through the real save call (speech, or a 2 s tone). */
  async function submitted(me: Me, o: { count: number; speech: boolean }) {
    const qs: string[] = [];
    for (let i = 0; i < o.count; i++) qs.push((await me.post('/api/questions/add', { company_id: me.companyId, text: `Question ${i + 1}?`, order_position: i + 1 })).json().id as string);
    const { testimonial } = (await me.post('/api/testimonials/request', { customer_email: 'd@client.test', customer_name: 'Dana', question_ids: qs, language: 'english' })).json();
    const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, testimonial.id));
    const clip = o.speech ? speech : await readFile(await makeClip({ format: 'webm', seconds: 2, tone: 500 }));
    const form = multipart([
      ...qs.flatMap((q, i) => [
        { name: `questionIds[${i}]`, value: q },
        { name: `bgColors[${i}]`, value: '#000000' },
      ]),
      { name: 'name', value: 'Dana' },
      { name: 'testimonialId', value: testimonial.id },
      { name: 'token', value: row!.token },
      { name: 'consentVersion', value: 'image-rights-v1' },
      ...qs.map((_, i) => ({ name: 'videos', filename: `video${i}.webm`, content: clip, type: 'video/webm' })),
    ]);
    const saved = await t.app.inject({ method: 'POST', url: '/api/public/testimonial/save', remoteAddress: '10.9.0.2', ...form });
    expect(saved.statusCode, saved.body).toBe(200);
    return testimonial.id as string;
  }

  const detail = async (me: Me, id: string) => (await me.get(`/api/testimonials/request/${id}?company_id=${me.companyId}`)).json().testimonial;
  const answersOf = (id: string) => t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, id));
  const prepared = async (id: string) => expect.poll(async () => (await answersOf(id)).every((a) => a.videoKey), { timeout: 90_000, interval: 300 }).toBe(true);
  const draftJobs = (id: string) => t.ctx.db.select().from(jobs).where(and(eq(jobs.requestId, id), eq(jobs.kind, 'draft')));
  const draftReady = async (me: Me, id: string): Promise<TDraft> => {
    await expect.poll(async () => (await detail(me, id)).draft?.phase, { timeout: 110_000, interval: 500 }).toBe('ready');
    return (await detail(me, id)).draft as TDraft;
  };
  const withCredits = async (me: Me, credits: number) => t.ctx.db.update(companies).set({ credits }).where(eq(companies.id, me.companyId));

  it('makes the draft of a paid testimonial once its answers are prepared: cards, subtitles, one click to publish', async () => {
    const me = await signedInCompany(t);
    await withCredits(me, 3);
    const id = await submitted(me, { count: 2, speech: true });
    expect((await detail(me, id)).draft).toBeNull();
    // Paid before the answers are prepared: the last transcode starts the draft.
    expect((await me.post(`/api/testimonials/pay/${id}`)).statusCode).toBe(200);
    const draft = await draftReady(me, id);
    expect(draft).toMatchObject({ subtitled: true, error: null, video_url: expect.stringContaining('/files/'), poster_url: expect.any(String) });
    const answers = await answersOf(id);
    // Both answers were transcribed inside the draft's work, by the engine.
    const stored = await t.ctx.db.select().from(transcriptions).where(eq(transcriptions.companyId, me.companyId));
    expect(stored.map((s) => s.responseId).sort()).toEqual(answers.map((a) => a.id).sort());
    expect(stored.every((s) => s.segments.length > 0 && s.engine.startsWith('pocketsphinx'))).toBe(true);

    // The file: a card before each answer, H.264 + AAC.
    const [job] = await draftJobs(id);
    const file = await t.ctx.media.probe(path.join(t.config.mediaDir, job!.outputKey!));
    const expected = answers.reduce((sum, a) => sum + CARD_SECONDS + (a.durationSeconds ?? 0), 0);
    expect(Math.abs(file.durationSeconds - expected)).toBeLessThan(0.5);
    expect(draft.duration_seconds).toBeCloseTo(file.durationSeconds, 1);
    expect(job!.result).toMatchObject({ subtitled: true, responseIds: expect.arrayContaining(answers.map((a) => a.id)) });
    const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, id));
    expect(row!.draftKey).toBe(job!.outputKey);

    // Paying again makes no second draft.
    expect((await me.post(`/api/testimonials/pay/${id}`)).statusCode).toBe(200);
    expect(await draftJobs(id)).toHaveLength(1);

    // Published in one click, with its job; another company can neither see nor publish it.
    const other = await signedInCompany(t);
    expect((await other.post('/api/publications', { testimonialId: id, jobId: draft.job_id })).statusCode).toBe(404);
    expect((await other.get(`/api/jobs/${draft.job_id}`)).statusCode).toBe(404);
    expect((await other.get(`/api/testimonials/request/${id}?company_id=${other.companyId}`)).json().testimonial).toBeNull();
    const published = await me.post('/api/publications', { testimonialId: id, jobId: draft.job_id });
    expect(published.statusCode, published.body).toBe(201);
  }, 200_000);

  it('pays on arrival and drafts when the company prepares drafts and has a credit; without a credit nothing happens', async () => {
    const me = await signedInCompany(t);
    const style = await me.post('/api/auth/update-settings', { ...DEFAULT_VIDEO_STYLE, prepare_drafts: true });
    expect(style.statusCode, style.body).toBe(200);
    expect(style.json().prepare_drafts).toBe(true);
    expect((await me.get('/api/auth/settings')).json().prepare_drafts).toBe(true);
    expect((await me.post('/api/auth/update-settings', { ...DEFAULT_VIDEO_STYLE, prepare_drafts: 'yes' })).json()).toMatchObject({ field: 'prepare_drafts', error: expect.stringMatching(/on or off/) });

    // No credit: the testimonial arrives, stays locked, and gets no draft.
    await withCredits(me, 0);
    const locked = await submitted(me, { count: 1, speech: false });
    await prepared(locked);
    const [lockedRow] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, locked));
    expect(lockedRow!.paid).toBe(false);
    expect(await draftJobs(locked)).toHaveLength(0);

    // A credit: paid on arrival (the credit spent then), drafted once prepared, without subtitles (a tone).
    await withCredits(me, 1);
    const id = await submitted(me, { count: 1, speech: false });
    const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, id));
    expect(row!.paid).toBe(true);
    const [company] = await t.ctx.db.select().from(companies).where(eq(companies.id, me.companyId));
    expect(company!.credits).toBe(0);
    const draft = await draftReady(me, id);
    expect(draft).toMatchObject({ subtitled: false, video_url: expect.any(String) });
  }, 200_000);

  it('makes no draft of a testimonial whose customer withdrew, and leaves out an answer the customer removed', async () => {
    const me = await signedInCompany(t);
    await withCredits(me, 3);
    const withdrawn = await submitted(me, { count: 1, speech: false });
    expect((await me.post(`/api/testimonials/pay/${withdrawn}`)).statusCode).toBe(200);
    await t.ctx.db.update(testimonialRequests).set({ consentWithdrawnAt: new Date() }).where(eq(testimonialRequests.id, withdrawn));
    await prepared(withdrawn);

    const id = await submitted(me, { count: 2, speech: false });
    const [first, second] = (await answersOf(id)).sort((a, b) => a.orderPosition - b.orderPosition);
    await t.ctx.db.update(testimonialResponses).set({ removalRequestedAt: new Date() }).where(eq(testimonialResponses.id, second!.id));
    expect((await me.post(`/api/testimonials/pay/${id}`)).statusCode).toBe(200);
    await draftReady(me, id);
    const [job] = await draftJobs(id);
    expect(job!.result).toMatchObject({ responseIds: [first!.id] });

    expect(await draftJobs(withdrawn)).toHaveLength(0);
    expect((await detail(me, withdrawn)).draft).toBeNull();
  }, 200_000);
});
