import { readFile } from 'node:fs/promises';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TJob } from '../../../contract/api/jobs.schema.js';
import { companies, jobs, testimonialRequests } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { makeClip, multipart } from '../../test/clips.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { settleDraft } from '../../test/testimonials.js';
import { shortQuestion } from './ready-mail.js';

type Company = Awaited<ReturnType<typeof signedInCompany>>;
interface Mail {
  subject: string;
  text: string;
  html: string;
  date: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const LONG_QUESTION = 'What would you tell a friend who hesitates to order our weekly vegetable boxes for the whole family?';

/**
 * A paid testimonial of `me` whose customer answered every question (through the real save call), each
 * answer prepared for the studio. Returns the answers' ids in question order.
 */
async function answeredTestimonial(t: TestApp, me: Company, questions: string[], customer: string) {
  await t.ctx.db.update(companies).set({ credits: 5 }).where(eq(companies.id, me.companyId));
  const ids: string[] = [];
  for (const [i, text] of questions.entries()) {
    ids.push((await me.post('/api/questions/add', { company_id: me.companyId, text, order_position: i + 1 })).json().id as string);
  }
  const { testimonial } = (await me.post('/api/testimonials/request', { customer_email: `${customer.split(' ')[0]}@client.test`, customer_name: customer, question_ids: ids, language: 'english' })).json();
  const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, testimonial.id));
  const clip = await readFile(await makeClip({ format: 'webm', seconds: 2, tone: 610 }));
  const form = multipart([
    ...ids.map((q, i) => ({ name: `questionIds[${i}]`, value: q })),
    ...ids.map((_, i) => ({ name: `bgColors[${i}]`, value: '#000000' })),
    { name: 'name', value: customer },
    { name: 'testimonialId', value: testimonial.id },
    { name: 'token', value: row!.token },
    { name: 'consentVersion', value: 'image-rights-v1' },
    ...ids.map((_, i) => ({ name: 'videos', filename: `video${i}.webm`, content: clip, type: 'video/webm' })),
  ]);
  const saved = await t.app.inject({ method: 'POST', url: '/api/public/testimonial/save', remoteAddress: `10.7.${Math.floor(Math.random() * 250)}.1`, ...form });
  expect(saved.statusCode, saved.body).toBe(200);
  expect((await me.post(`/api/testimonials/pay/${testimonial.id}`)).statusCode).toBe(200);
  const answers = (saved.json().responses as { id: string }[]).map((r) => r.id);
  // Prepared (the transcodes ran), read from the database: nobody follows them.
  await expect
    .poll(async () => (await t.ctx.db.select({ phase: jobs.phase }).from(jobs).where(and(inArray(jobs.responseId, answers), eq(jobs.kind, 'transcode')))).map((j) => j.phase), {
      timeout: 60_000,
      interval: 300,
    })
    .toEqual(answers.map(() => 'ready'));
  await settleDraft(t, testimonial.id);
  return { requestId: testimonial.id as string, answers };
}

/** Starts a render through its HTTP call; returns its job id. */
async function start(me: Company, url: string, body: object): Promise<string> {
  const res = await me.post(url, { language: 'en', ...body });
  expect([200, 202], res.body).toContain(res.statusCode);
  return res.json().jobId as string;
}
const intro = (me: Company, answer: string) => start(me, `/api/testimonials/response/${answer}/generate-modified/intro`, {});
const merge = (me: Company, requestId: string) => start(me, `/api/testimonials/${requestId}/merge`, {});
const exportAnswer = (me: Company, answer: string, platform: 'shorts' | 'linkedin', videoType: 'original' | 'modified') =>
  start(me, `/api/testimonials/response/${answer}/export-v2`, { platform, videoType, cropArea: { x: 0, y: 0, width: 1, height: 1 } });

/** Waits for jobs to finish without following them (the owner left the page): read from the database. */
async function finishedUnwatched(t: TestApp, ids: string[]) {
  await expect
    .poll(async () => (await t.ctx.db.select({ phase: jobs.phase }).from(jobs).where(inArray(jobs.id, ids))).map((j) => j.phase).sort(), { timeout: 120_000, interval: 250 })
    .toEqual(ids.map(() => 'ready'));
}

/** Follows a job as the web app does (GET /api/jobs/{id} every second, its hook polls every 2) until it is final. */
async function follow(me: Company, id: string): Promise<TJob> {
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(1000)) {
    const job = (await me.get(`/api/jobs/${id}`)).json() as TJob;
    if (['ready', 'failed', 'cancelled'].includes(job.phase)) return job;
  }
  throw new Error(`job ${id} did not finish`);
}

/** The 'video ready' e-mails to the company's user, oldest first. */
async function readyMails(t: TestApp, me: Company): Promise<Mail[]> {
  const all = (await t.app.inject({ method: 'GET', url: `/dev/outbox/messages.json?to=${me.email}` })).json() as Mail[];
  return all.filter((m) => /because you started a video|avez lancé une vidéo/.test(m.text)).reverse();
}

describe("'video ready' e-mails: one per testimonial, for what the owner did not see finish", () => {
  const GATHER = 10;
  const INTERVAL = 20;
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      work: true,
      env: { READY_MAIL_GATHER_SECONDS: String(GATHER), READY_MAIL_INTERVAL_SECONDS: String(INTERVAL), READY_MAIL_SLOW_RENDER_SECONDS: '60', WORKER_CONCURRENCY: '4' },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('gathers a burst of renders the owner did not follow into one e-mail that names each video', async () => {
    const me = await signedInCompany(t);
    const { requestId, answers } = await answeredTestimonial(t, me, ['Why did you choose us?', LONG_QUESTION, 'Would you recommend us?'], 'Sarah Miller');
    const burst = [await intro(me, answers[0]!), await intro(me, answers[1]!), await intro(me, answers[2]!), await merge(me, requestId)];
    await finishedUnwatched(t, burst);
    // Then an export of the second answer's original recording, still within the gathering time.
    const exported = await exportAnswer(me, answers[1]!, 'shorts', 'original');
    await finishedUnwatched(t, [exported]);
    // Each finished render waits to be told about; the e-mail waits for the burst to be over.
    const rows = await t.ctx.db.select().from(jobs).where(inArray(jobs.id, [...burst, exported]));
    expect(rows.map((r) => [r.readyOutput, r.watchedAt])).toEqual(expect.arrayContaining([['intro', null], ['merge', null], ['export_shorts', null]]));
    expect(await readyMails(t, me)).toEqual([]);

    await expect.poll(async () => (await readyMails(t, me)).length, { timeout: (GATHER + 20) * 1000, interval: 500 }).toBe(1);
    const [mail] = await readyMails(t, me);
    expect(mail!.subject).toBe('5 videos ready — Sarah Miller');
    expect(mail!.text).toContain("These 5 videos of Sarah Miller's testimonial are ready to watch and download:");
    expect(shortQuestion(LONG_QUESTION)).toBe('What would you tell a friend who hesitates to order our…');
    for (const line of [
      '• Answer with intro — “Why did you choose us?”',
      `• Answer with intro — “${shortQuestion(LONG_QUESTION)}”`,
      '• Answer with intro — “Would you recommend us?”',
      '• Merged video',
      `• Shorts/Reels/TikTok export (9:16) of the original recording — “${shortQuestion(LONG_QUESTION)}”`,
    ]) {
      expect(mail!.text).toContain(line);
    }
    expect(mail!.text).toContain(`/dashboard/testimonials/${requestId}`);
    const told = await t.ctx.db.select().from(jobs).where(inArray(jobs.id, [...burst, exported]));
    expect(told.every((r) => !r.notifyPending && r.notifiedAt)).toBe(true);
    const [request] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, requestId));
    expect(request!.readyMailSentAt).not.toBeNull();

    // Nothing more comes: the other messages of the burst, if any, find nothing left to tell.
    await sleep((GATHER + 2) * 1000);
    expect(await readyMails(t, me)).toHaveLength(1);
  }, 240_000);

  it('sends nothing for renders the owner followed on the page that finished within the threshold', async () => {
    const me = await signedInCompany(t);
    const { requestId, answers } = await answeredTestimonial(t, me, ['What changed for you?'], 'Tom Baker');
    const ids = [await intro(me, answers[0]!), await merge(me, requestId)];
    const followed = await Promise.all(ids.map((id) => follow(me, id)));
    expect(followed.map((j) => j.phase)).toEqual(['ready', 'ready']);
    for (const job of followed) expect(Date.parse(job.finishedAt!) - Date.parse(job.startedAt!)).toBeLessThan(60_000);
    const rows = await t.ctx.db.select().from(jobs).where(inArray(jobs.id, ids));
    for (const row of rows) expect(row).toMatchObject({ watchedAt: expect.any(Date), notifyPending: false, notifiedAt: null });
    // An export followed as well, started after them: still nothing.
    await follow(me, await exportAnswer(me, answers[0]!, 'linkedin', 'modified'));
    await sleep((GATHER + 4) * 1000);
    expect(await readyMails(t, me)).toEqual([]);
    const [request] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, requestId));
    expect(request!.readyMailSentAt).toBeNull();
  }, 240_000);

  it('writes the watch mark at most every few seconds, only for a running job of the caller\'s company', async () => {
    const me = await signedInCompany(t);
    const other = await signedInCompany(t);
    const { requestId, answers } = await answeredTestimonial(t, me, ['How was the delivery?'], 'Ann Lee');
    // A job row without a queue message: no worker takes it, it stays queued while it is read.
    const [row] = await t.ctx.db.insert(jobs).values({ companyId: me.companyId, kind: 'intro', requestId, responseId: answers[0]!, params: { language: 'en' } }).returning();
    const id = row!.id;
    const mark = async () => (await t.ctx.db.select({ w: jobs.watchedAt }).from(jobs).where(eq(jobs.id, id)))[0]!.w;
    expect((await other.get(`/api/jobs/${id}`)).statusCode).toBe(404);
    expect(await mark()).toBeNull();
    expect((await me.get(`/api/jobs/${id}`)).statusCode).toBe(200);
    const first = await mark();
    expect(first).toBeInstanceOf(Date);
    await me.get(`/api/jobs/${id}`);
    expect(await mark()).toEqual(first);
    await sleep(5_200);
    await me.get(`/api/jobs/${id}`);
    expect((await mark())!.getTime()).toBeGreaterThan(first!.getTime());
    // A final job is not marked any more.
    await t.ctx.db.update(jobs).set({ phase: 'failed', watchedAt: null }).where(eq(jobs.id, id));
    await me.get(`/api/jobs/${id}`);
    expect(await mark()).toBeNull();
  }, 60_000);

  it('gathers a second burst within the interval into one later e-mail', async () => {
    const me = await signedInCompany(t);
    const { requestId, answers } = await answeredTestimonial(t, me, ['What did you like most?', 'Anything to improve?'], 'Léa Martin');
    const first = await intro(me, answers[0]!);
    await finishedUnwatched(t, [first]);
    await expect.poll(async () => (await readyMails(t, me)).length, { timeout: (GATHER + 20) * 1000, interval: 500 }).toBe(1);
    expect((await readyMails(t, me))[0]!.subject).toBe('Answer with intro — Léa Martin');
    const [sent] = await t.ctx.db.select({ at: testimonialRequests.readyMailSentAt }).from(testimonialRequests).where(eq(testimonialRequests.id, requestId));
    const firstSentAt = sent!.at!;

    // A second burst right after: its e-mail waits for the interval since the first, and gathers both.
    const second = [await intro(me, answers[1]!), await merge(me, requestId)];
    await finishedUnwatched(t, second);
    // Nothing more goes until the interval since the first e-mail has passed, however long the burst took
    // on this machine (a loaded one may finish it after the interval: then there is nothing to wait for).
    const holdUntil = firstSentAt.getTime() + INTERVAL * 1000 - 1000;
    await sleep(Math.max(0, Math.min(holdUntil - Date.now(), (GATHER + 3) * 1000)));
    if (Date.now() < holdUntil) expect(await readyMails(t, me)).toHaveLength(1);
    await expect.poll(async () => (await readyMails(t, me)).length, { timeout: (INTERVAL + 20) * 1000, interval: 500 }).toBe(2);
    const later = (await readyMails(t, me))[1]!;
    expect(later.subject).toBe('2 videos ready — Léa Martin');
    expect(later.text).toContain('• Answer with intro — “Anything to improve?”');
    expect(later.text).toContain('• Merged video');
    expect(later.text).not.toContain('What did you like most?');
    const [request] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, requestId));
    expect(request!.readyMailSentAt!.getTime() - firstSentAt.getTime()).toBeGreaterThanOrEqual(INTERVAL * 1000 - 1000);
  }, 240_000);
});

describe("'video ready' e-mails: a slow render is told about even when followed", () => {
  let t: TestApp;
  beforeAll(async () => {
    // A threshold of zero stands for the minute of production: every real render crosses it, however fast
    // this machine renders (the one-run merge of two short answers takes under a second).
    t = await createTestApp({ work: true, env: { READY_MAIL_GATHER_SECONDS: '1', READY_MAIL_INTERVAL_SECONDS: '600', READY_MAIL_SLOW_RENDER_SECONDS: '0' } });
  });
  afterAll(async () => {
    await t.close();
  });

  for (const lang of ['en', 'fr'] as const) {
    it(`sends one e-mail naming the video when the render took longer than the threshold (${lang})`, async () => {
      const me = await signedInCompany(t, { lang });
      const { requestId, answers } = await answeredTestimonial(t, me, ['Why us?', 'And then?'], 'Sarah Miller');
      // The merge of two answers renders two segments and joins them: well over a second here.
      const job = await follow(me, await merge(me, requestId));
      expect(job.phase).toBe('ready');
      expect(Date.parse(job.finishedAt!)).toBeGreaterThan(Date.parse(job.startedAt!));
      await expect.poll(async () => (await readyMails(t, me)).length, { timeout: 30_000, interval: 300 }).toBe(1);
      const [mail] = await readyMails(t, me);
      expect(mail!.subject).toBe(lang === 'en' ? 'Merged video — Sarah Miller' : 'Vidéo fusionnée — Sarah Miller');
      expect(mail!.text).toContain(
        lang === 'en' ? "This video of Sarah Miller's testimonial is ready to watch and download:" : 'Cette vidéo du témoignage de Sarah Miller est prête à être regardée et téléchargée\u00a0:',
      );
      expect(answers).toHaveLength(2);
    }, 180_000);
  }
});
