import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_VIDEO_STYLE } from '../../../contract/constants.js';
import { consents, jobs, pendingObjects, testimonialRequests, testimonialResponses } from '../../db/schema.js';
import type { Storage } from '../../storage/storage.js';
import { signedInCompany } from '../../test/accounts.js';
import { makeClip, multipart } from '../../test/clips.js';
import { createTestApp, type TestApp } from '../../test/harness.js';

describe('customer submission', () => {
  let t: TestApp;
  let ipN = 0;
  const clips: Record<string, Buffer> = {};

  beforeAll(async () => {
    t = await createTestApp({ work: true, env: { UPLOAD_MAX_BYTES: String(1024 * 1024) } });
    const [webm, mp4, webm2, long, silent] = await Promise.all([
      makeClip({ format: 'webm', seconds: 3 }),
      makeClip({ format: 'mp4', seconds: 2 }),
      makeClip({ format: 'webm', seconds: 3, tone: 660 }),
      makeClip({ format: 'mp4', seconds: 23 }),
      makeClip({ format: 'webm', seconds: 2, audio: false }),
    ]);
    for (const [k, f] of Object.entries({ webm, mp4, webm2, long, silent })) clips[k] = await readFile(f);
  });
  afterAll(async () => {
    await t.close();
  });

  /** A company with two questions and a pending request; returns what the customer's link gives. */
  async function pendingRequest() {
    const me = await signedInCompany(t, { lang: 'fr' });
    const q1 = (await me.post('/api/questions/add', { company_id: me.companyId, text: 'Qu’est-ce qui vous a plu ?', order_position: 1 })).json();
    const q2 = (await me.post('/api/questions/add', { company_id: me.companyId, text: 'Nous recommanderiez-vous ?', order_position: 2 })).json();
    const { testimonial } = (
      await me.post('/api/testimonials/request', { customer_email: 'cust@example.test', customer_name: 'Camille', question_ids: [q1.id, q2.id], language: 'french' })
    ).json();
    const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, testimonial.id));
    return { me, id: testimonial.id as string, token: row!.token, q1: q1.id as string, q2: q2.id as string };
  }

  const save = (r: { id: string; token: string }, answers: { questionId: string; clip: Buffer; name?: string }[], over: Record<string, string> = {}) => {
    // The fields first, then the videos, as the recording page sends them.
    const form = multipart([
      ...answers.map((a, i) => ({ name: `questionIds[${i}]`, value: a.questionId })),
      ...answers.map((_, i) => ({ name: `bgColors[${i}]`, value: '#112233' })),
      { name: 'name', value: 'Camille Roy' },
      { name: 'title', value: 'Fleuriste' },
      { name: 'testimonialId', value: r.id },
      { name: 'token', value: r.token },
      { name: 'consentVersion', value: 'image-rights-v1' },
      ...Object.entries(over).map(([name, value]) => ({ name, value })),
      ...answers.map((a, i) => ({ name: 'videos', filename: a.name ?? `video${i}.webm`, content: a.clip, type: 'video/webm' })),
    ]);
    return t.app.inject({ method: 'POST', url: '/api/public/testimonial/save', remoteAddress: `10.7.0.${++ipN % 250}`, ...form });
  };

  it('validates a token: questions in order; unknown, expired and completed tokens get a clear error', async () => {
    const r = await pendingRequest();
    const ok = await t.app.inject({ method: 'GET', url: `/api/public/testimonial/validate/${r.token}` });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      testimonial: { id: r.id, customer_name: 'Camille', language: 'french', background_color: DEFAULT_VIDEO_STYLE.background_color, company: { logo_url: null } },
      questions: [{ id: r.q1 }, { id: r.q2 }],
      // No promotion of ours on the customer's page unless the operator asks for it (issue 27).
      powered_by: false,
    });
    const unknown = await t.app.inject({ method: 'GET', url: '/api/public/testimonial/validate/not-a-real-token' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toMatch(/not valid/);

    await t.ctx.db.update(testimonialRequests).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(testimonialRequests.id, r.id));
    const expired = await t.app.inject({ method: 'GET', url: `/api/public/testimonial/validate/${r.token}` });
    expect(expired.statusCode).toBe(410);
    expect(expired.json().error).toMatch(/expired/);

    await t.ctx.db.update(testimonialRequests).set({ status: 'completed' }).where(eq(testimonialRequests.id, r.id));
    const done = await t.app.inject({ method: 'GET', url: `/api/public/testimonial/validate/${r.token}` });
    expect(done.statusCode).toBe(409);
    expect(done.json().error).toMatch(/already been recorded/);
  });

  it('stores a WebM and an MP4 answer, completes the request with the consent, transcodes to MP4 and tells the company', async () => {
    const r = await pendingRequest();
    const res = await save(r, [
      { questionId: r.q1, clip: clips.webm! },
      { questionId: r.q2, clip: clips.mp4!, name: 'video1.mp4' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, testimonialId: r.id });
    expect(body.responses).toHaveLength(2);

    const [request] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, r.id));
    expect(request).toMatchObject({ status: 'completed', submitterName: 'Camille Roy', submitterTitle: 'Fleuriste' });
    const [consent] = await t.ctx.db.select().from(consents).where(eq(consents.requestId, r.id));
    expect(consent).toMatchObject({ textVersion: 'image-rights-v1', language: 'fr', ip: expect.stringMatching(/^10\.7\.0\./) });
    expect(consent?.text).toContain("J'autorise");

    // The worker transcodes each answer into a faststart MP4 with a poster.
    await expect
      .poll(async () => (await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, r.id))).every((x) => x.videoKey && x.posterKey), { timeout: 60_000, interval: 500 })
      .toBe(true);
    const rows = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, r.id));
    for (const row of rows) {
      const file = path.join(t.config.mediaDir, row.videoKey!);
      const info = await t.ctx.media.probe(file);
      expect(info.video?.codec).toBe('h264');
      expect(info.audio?.codec).toBe('aac');
      expect(info.durationSeconds).toBeGreaterThan(1.5);
      expect(info.durationSeconds).toBeLessThan(3.5);
      expect(row.bgColor).toBe('#112233');
      // Its transcode job, committed with the answer, is ready and names the video.
      const [job] = await t.ctx.db.select().from(jobs).where(eq(jobs.responseId, row.id));
      expect(job).toMatchObject({ kind: 'transcode', phase: 'ready', outputKey: row.videoKey, companyId: r.me.companyId });
    }

    const newTestimonialMail = async () => {
      const mails = (await t.app.inject({ method: 'GET', url: `/dev/outbox/messages.json?to=${r.me.email}` })).json() as { subject: string; links: string[] }[];
      return mails.find((m) => m.subject === 'Camille Roy vous a envoyé un témoignage vidéo');
    };
    await expect.poll(newTestimonialMail, { timeout: 15_000 }).toBeDefined();
    const mail = await newTestimonialMail();
    expect(mail?.links).toContain(`http://app.test/dashboard/testimonials/${r.id}`);
  });

  it('returns the first result for a retried identical submission, and refuses a different second one', async () => {
    const r = await pendingRequest();
    const answers = [{ questionId: r.q1, clip: clips.webm! }];
    const first = await save(r, answers);
    expect(first.statusCode).toBe(200);
    const again = await save(r, answers);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const different = await save(r, [{ questionId: r.q1, clip: clips.webm2! }]);
    expect(different.statusCode).toBe(409);
    expect(different.json().error).toMatch(/already been recorded/);
    expect(await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, r.id))).toHaveLength(1);
    // One transcode job for the one answer: the retry and the refusal queued nothing.
    expect(await t.ctx.db.select().from(jobs).where(eq(jobs.requestId, r.id))).toHaveLength(1);
  });

  it('answers two identical submissions sent at once with one result, and keeps only the files of the one that committed', async () => {
    const r = await pendingRequest();
    const answers = [{ questionId: r.q1, clip: clips.webm! }];
    // Both pass the checks before either commits; the second finds the request completed under its lock.
    const [a, b] = await Promise.all([save(r, answers), save(r, answers)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json()).toEqual(b.json());
    const rows = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, r.id));
    expect(rows.map((row) => row.id)).toEqual(a.json().responses.map((x: { id: string }) => x.id));
    expect(await t.ctx.db.select().from(jobs).where(eq(jobs.requestId, r.id))).toHaveLength(1);
    // Only the committed answer's upload is left in storage, and nothing is pending.
    const dir = path.join(t.config.mediaDir, 'companies', r.me.companyId, 'requests', r.id, 'answers');
    const originals = (await readdir(dir, { recursive: true })).filter((f) => /original\.webm$/.test(String(f)));
    expect(originals.map(String), JSON.stringify(originals)).toEqual([path.join(rows[0]!.id, `original.webm`)]);
    expect((await t.ctx.db.select().from(pendingObjects)).filter((p) => p.key.includes(r.id))).toEqual([]);
  });

  it.each([
    // The reason names the answer; the customer's page shows it in the request's language (French here).
    ['a clip longer than 20 s', () => clips.long!, { reason: 'answer_too_long', params: { answer: 1, seconds: 20 }, error: expect.stringMatching(/more than 20 seconds/) }],
    ['a clip without sound', () => clips.silent!, { reason: 'answer_no_sound', params: { answer: 1 }, error: expect.stringMatching(/has no sound/) }],
    ['a text file named .webm', () => Buffer.from('this is not a video at all'), { reason: 'answer_unreadable', params: { answer: 1 } }],
    // Cut short on the way: its packets end early (found by ffprobe, the API process runs no ffmpeg).
    ['a WebM cut short', () => clips.webm!.subarray(0, Math.floor(clips.webm!.length * 0.6)), { reason: 'answer_incomplete', params: { answer: 1 } }],
  ])('refuses %s with a clear reason and stores nothing', async (_name, clip, refusal) => {
    const r = await pendingRequest();
    const res = await save(r, [{ questionId: r.q1, clip: clip() }]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_format', ...refusal });
    const [request] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, r.id));
    expect(request?.status).toBe('pending');
  });

  it('refuses an oversized file with 413, a foreign question id, a missing file and a bad token', async () => {
    const r = await pendingRequest();
    const big = await save(r, [{ questionId: r.q1, clip: Buffer.alloc(1200 * 1024, 7) }]);
    expect(big.statusCode).toBe(413);
    expect(big.json().code).toBe('payload_too_large');

    const other = await pendingRequest();
    const foreign = await save(r, [{ questionId: other.q1, clip: clips.webm! }]);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error).toMatch(/question this request does not ask/);

    const missing = await save(r, [{ questionId: r.q1, clip: clips.webm! }], { 'questionIds[1]': r.q2, 'bgColors[1]': '#000000' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatch(/recording of answer 2 is missing/);

    const badToken = await save({ id: r.id, token: other.token }, [{ questionId: r.q1, clip: clips.webm! }]);
    expect(badToken.statusCode).toBe(404);

    const json = await t.app.inject({ method: 'POST', url: '/api/public/testimonial/save', payload: { token: r.token } });
    expect(json.statusCode).toBe(415);
  });

  it('leaves nothing behind when storing fails after the first file', async () => {
    const r = await pendingRequest();
    const real = t.ctx.storage;
    let puts = 0;
    const failing: Storage = {
      ...real,
      put: async (key, body, type) => {
        // Only this submission's files count (the worker may be storing other answers meanwhile).
        if (key.includes(r.id) && ++puts === 2) throw new Error('disk full');
        return real.put(key, body, type);
      },
    };
    t.ctx.storage = failing;
    try {
      const res = await save(r, [
        { questionId: r.q1, clip: clips.webm! },
        { questionId: r.q2, clip: clips.mp4!, name: 'video1.mp4' },
      ]);
      expect(res.statusCode).toBe(500);
      expect(res.json().error).toMatch(/Something went wrong on our side/);
    } finally {
      t.ctx.storage = real;
    }
    expect(puts).toBe(2);
    const [request] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, r.id));
    expect(request?.status).toBe('pending');
    expect(await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, r.id))).toHaveLength(0);
    expect(await t.ctx.db.select().from(consents).where(eq(consents.requestId, r.id))).toHaveLength(0);
    expect(await t.ctx.db.select().from(jobs).where(eq(jobs.requestId, r.id))).toHaveLength(0);
    const dir = path.join(t.config.mediaDir, 'companies', r.me.companyId, 'requests', r.id);
    const leftovers = await readdir(dir, { recursive: true }).catch(() => []);
    expect(leftovers.filter((f) => String(f).includes('.'))).toEqual([]);
    const pendingOf = async () => (await t.ctx.db.select().from(pendingObjects)).filter((p) => p.key.includes(r.id));
    expect(await pendingOf()).toEqual([]);

    // And the customer can simply try again: the committed files are no longer pending.
    const retry = await save(r, [{ questionId: r.q1, clip: clips.webm! }]);
    expect(retry.statusCode).toBe(200);
    expect(await pendingOf()).toEqual([]);
  });
});
