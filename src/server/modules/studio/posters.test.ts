import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, testimonialRequests, testimonialResponses } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { completedTestimonial } from '../../test/testimonials.js';
import { CARD_SECONDS } from '../../media/render.js';
import { clampPosterTime, POSTER_INTO_ANSWER, posterKeyFor, posterTime, writePoster } from './posters.js';

describe('poster keys and times', () => {
  it('puts the poster beside its video, under the same name', () => {
    expect(posterKeyFor('companies/c/requests/r/answers/a/intro-j1.mp4')).toBe('companies/c/requests/r/answers/a/intro-j1.jpg');
    expect(posterKeyFor('companies/c/requests/r/merged-j2.MP4')).toBe('companies/c/requests/r/merged-j2.jpg');
    expect(posterKeyFor('companies/c/requests/r/odd')).toBe('companies/c/requests/r/odd.jpg');
  });

  it('takes the frame a moment into the answer, past the card, kept inside short clips', () => {
    expect(POSTER_INTO_ANSWER).toBe(1.5);
    // After the 3 s card, 1.5 s into the answer; a bare answer, 1.5 s in.
    expect(posterTime(CARD_SECONDS, 23)).toBe(CARD_SECONDS + 1.5);
    expect(posterTime(0, 20)).toBe(1.5);
    // A short answer: a third of it, never the card nor past the end.
    expect(posterTime(CARD_SECONDS, CARD_SECONDS + 1.2)).toBeCloseTo(CARD_SECONDS + 0.4);
    expect(posterTime(0, 0.6)).toBeCloseTo(0.2);
    expect(posterTime(CARD_SECONDS, 2)).toBe(1);
    expect(posterTime(0, Number.NaN)).toBe(1.5);
    // A chosen moment stays inside the video.
    expect(clampPosterTime(30, 20)).toBeCloseTo(19.9);
    expect(clampPosterTime(-2, 20)).toBe(0);
  });
});

describe('posters of generated videos', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ work: true });
  });
  afterAll(async () => {
    await t.close();
  });

  async function paidTestimonial() {
    const me = await signedInCompany(t);
    await t.ctx.db.update(companies).set({ credits: 5 }).where(eq(companies.id, me.companyId));
    const tm = await completedTestimonial(t, me);
    await me.post(`/api/testimonials/pay/${tm.id}`);
    const detail = async () => (await me.get(`/api/testimonials/request/${tm.id}?company_id=${me.companyId}`)).json().testimonial;
    await expect.poll(async () => (await detail()).testimonial_responses[0].media?.phase, { timeout: 60_000, interval: 300 }).toBe('ready');
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));
    return { me, tm, response: response!, detail };
  }
  /** GET of a signed address through the app, as the browser would. */
  const fetchMedia = (url: string) => t.app.inject({ method: 'GET', url: new URL(url).pathname + new URL(url).search });

  it('writes a JPEG frame beside a rendered video, and the detail serves it for each generated video', async () => {
    const { tm, response, detail } = await paidTestimonial();
    const dir = await mkdtemp(path.join(t.ctx.tmpDir, 'poster-test-'));
    try {
      // A rendered video: a red card for its first second, then the answer, shown green, made by ffmpeg as a render would.
      const output = path.join(dir, 'output.mp4');
      const answer = path.join(dir, 'answer.mp4');
      await pipeline(await t.ctx.storage.get(response.videoKey!), createWriteStream(answer));
      const info = await t.ctx.media.probe(answer);
      const { width, height } = info.video!;
      await t.ctx.media.runFfmpeg(['-y', '-i', answer, '-vf', "drawbox=c=red:t=fill:enable='lt(t,1)',drawbox=c=green:t=fill:enable='gte(t,1)'", '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'copy', output]);
      const base = `companies/${response.companyId}/requests/${tm.id}`;
      const keys = {
        modified: `${base}/answers/${response.id}/intro-${randomUUID()}.mp4`,
        merged: `${base}/merged-${randomUUID()}.mp4`,
        short: `${base}/export-shorts-${randomUUID()}.mp4`,
      };
      for (const key of Object.values(keys)) {
        await t.ctx.storage.put(key, createReadStream(output), 'video/mp4');
        expect(await writePoster(t.ctx, { video: output, key: posterKeyFor(key), answerStart: 1 })).toMatchObject({ key: posterKeyFor(key), seconds: expect.closeTo(1 + 1 / 3, 1) });
      }
      await t.ctx.db.update(testimonialResponses).set({ modifiedKey: keys.modified, shortKey: keys.short }).where(eq(testimonialResponses.id, response.id));
      await t.ctx.db.update(testimonialRequests).set({ mergedKey: keys.merged }).where(eq(testimonialRequests.id, tm.id));

      const d = await detail();
      const answerRow = d.testimonial_responses[0];
      expect(answerRow.modified_poster_url).toContain(encodeURIComponent(path.posix.basename(posterKeyFor(keys.modified))));
      expect(d.merged_poster_url).toContain(path.posix.basename(posterKeyFor(keys.merged)));
      expect(answerRow.short_poster_url).toContain(path.posix.basename(posterKeyFor(keys.short)));
      // No video, no poster.
      expect(answerRow.short_original_poster_url).toBeNull();
      expect(d.merged_subtitles_poster_url).toBeNull();
      expect(d.short_poster_url).toBeNull();

      for (const url of [answerRow.modified_poster_url, d.merged_poster_url, answerRow.short_poster_url]) {
        const res = await fetchMedia(url);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toMatch(/^image\/jpeg/);
        expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
      }
      // The frame is taken in the answer, never the card: green, at the video's own size.
      const jpeg = path.join(dir, 'served.jpg');
      await writeFile(jpeg, (await fetchMedia(answerRow.modified_poster_url)).rawPayload);
      expect((await t.ctx.media.probe(jpeg)).video).toMatchObject({ width, height });
      const pixel = path.join(dir, 'pixel.rgb');
      await t.ctx.media.runFfmpeg(['-y', '-i', jpeg, '-vf', 'scale=1:1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', pixel]);
      const [r, g, b] = await readFile(pixel);
      expect(r).toBeLessThan(60);
      expect(g).toBeGreaterThan(100);
      expect(b).toBeLessThan(60);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  // Passes once the render functions call writePoster after writing output.mp4 (issue 17, the lead's insert).
  it('gives the enhanced answer rendered by the studio a poster, served through the API', async () => {
    const { me, response, detail } = await paidTestimonial();
    const start = await me.post(`/api/testimonials/response/${response.id}/generate-modified/intro`, { language: 'en' });
    expect(start.statusCode, start.body).toBe(202);
    await expect.poll(async () => (await me.get(`/api/jobs/${start.json().jobId}`)).json().phase, { timeout: 90_000, interval: 300 }).toBe('ready');
    const answerRow = (await detail()).testimonial_responses[0];
    expect(answerRow.modified_video_url).toBeTruthy();
    const poster = await fetchMedia(answerRow.modified_poster_url);
    expect(poster.statusCode).toBe(200);
    expect(poster.headers['content-type']).toMatch(/^image\/jpeg/);

    // The poster is the customer's answer, not the intro card (issue 27, item 12): its 8×8 thumbnail is far
    // from the card's (a frame inside the card) and close to a frame of the answer past the card.
    const dir = await mkdtemp(path.join(t.ctx.tmpDir, 'poster-card-'));
    try {
      const video = path.join(dir, 'intro.mp4');
      await writeFile(video, (await fetchMedia(answerRow.modified_video_url)).rawPayload);
      const jpeg = path.join(dir, 'poster.jpg');
      await writeFile(jpeg, poster.rawPayload);
      const thumb = async (input: string, at?: number) => {
        const out = path.join(dir, `${Math.random().toString(36).slice(2)}.rgb`);
        await t.ctx.media.runFfmpeg(['-y', ...(at === undefined ? [] : ['-ss', String(at)]), '-i', input, '-frames:v', '1', '-vf', 'scale=8:8', '-f', 'rawvideo', '-pix_fmt', 'rgb24', out]);
        return [...(await readFile(out))];
      };
      const distance = (a: number[], b: number[]) => a.reduce((sum, v, i) => sum + Math.abs(v - b[i]!), 0) / a.length;
      const posterThumb = await thumb(jpeg);
      expect(distance(posterThumb, await thumb(video, 1.5))).toBeGreaterThan(25);
      expect(distance(posterThumb, await thumb(video, 3.6))).toBeLessThan(12);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
