/**
 * Exports composed for their format (issue 17), read back as a viewer would: a 9:16 and a 16:9 export of
 * an answer's enhanced version (a 283-character question, the logo on, subtitles) are made through the
 * API and the worker; tesseract reads the card and a subtitle frame of each. The whole question and the
 * whole subtitle line must be there, inside the frame's safe area, and the logo (found by its colour)
 * must not touch the text.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TExportPlatform } from '../../../contract/api/studio.schema.js';
import { DEFAULT_VIDEO_STYLE } from '../../../contract/constants.js';
import { fitCuesToFrame, safeArea, type Box } from '../../../contract/frame-layout.js';
import { companies, testimonialResponses, videoStyleSettings } from '../../db/schema.js';
import { CARD_SECONDS, exportFrame } from '../../media/render.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { boxesIntersect, boxInside, colourBox, grabFrame, matchReading, readWords, unionBox, type Word } from '../../test/ocr.js';
import { completedTestimonial, settleDraft } from '../../test/testimonials.js';
import { defaultStyleRow } from '../settings/default-style.js';

const run = promisify(execFile);
const QUESTION =
  'We would love to hear the whole story: how did you first hear about our bakery, what made you choose our breakfasts, catering and birthday cakes over the others in town, and how did the team handle your last-minute changes on the day? Would you recommend us to a friend, and to whom?';
const CUE = 'Honestly, the team made everything easy for us.';
const CUE_TIMED = { start: 0.1, end: 1.9, text: CUE };
/** The logo: a block of pure magenta, a colour found nowhere else in these frames. */
const isLogo = (r: number, g: number, b: number) => r > 200 && g < 70 && b > 200;

/** Waits until `read` gives a truthy value (expect.poll works only inside a test). */
async function until<T>(read: () => Promise<T>, what: string, timeoutMs = 60_000): Promise<T> {
  const ends = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > ends) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

describe('exports composed for their format', () => {
  let t: TestApp;
  let me: Awaited<ReturnType<typeof signedInCompany>>;
  let responseId: string;
  let requestId: string;
  /** The export jobs made, in order. */
  const made: { platform: TExportPlatform; jobId: string }[] = [];
  const job = async (id: string) => (await me.get(`/api/jobs/${id}`)).json();
  const fileOf = (url: string) => path.join(t.config.mediaDir, decodeURIComponent(new URL(url).pathname.replace('/files/', '')));

  beforeAll(async () => {
    t = await createTestApp({ work: true });
    me = await signedInCompany(t);
    await t.ctx.db.update(companies).set({ credits: 2 }).where(eq(companies.id, me.companyId));
    const tm = await completedTestimonial(t, me);
    requestId = tm.id;
    await me.post(`/api/testimonials/pay/${tm.id}`);
    await until(async () => (await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id)))[0]?.videoKey, 'the transcode');
    await settleDraft(t, tm.id);
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));
    responseId = response!.id;

    // A calm 640 × 480 answer (so that the reading of its frames is the subtitles' alone), the long
    // question, and a magenta logo shown in the videos, in the default theme.
    const clip = path.join(os.tmpdir(), `vr-export-answer-${process.pid}.mp4`);
    await run('ffmpeg', [
      '-v', 'error', '-y', '-f', 'lavfi', '-i', 'gradients=s=640x480:c0=0x8fa3b8:c1=0xd9cbb5:d=2:r=30', '-f', 'lavfi', '-i', 'sine=frequency=300:sample_rate=48000:duration=2',
      '-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', clip,
    ]);
    const logo = path.join(os.tmpdir(), `vr-export-logo-${process.pid}.png`);
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0xff00ff:s=300x100', '-frames:v', '1', logo]);
    const answerKey = `companies/${me.companyId}/requests/${tm.id}/answers/${responseId}/calm-answer.mp4`;
    const logoKey = `companies/${me.companyId}/logo/magenta.png`;
    await t.ctx.storage.put(answerKey, await readFile(clip), 'video/mp4');
    await t.ctx.storage.put(logoKey, await readFile(logo), 'image/png');
    await t.ctx.db.update(testimonialResponses).set({ videoKey: answerKey, width: 640, height: 480, questionText: QUESTION }).where(eq(testimonialResponses.id, responseId));
    await t.ctx.db.update(companies).set({ logoKey }).where(eq(companies.id, me.companyId));
    await t.ctx.db.update(videoStyleSettings).set({ ...defaultStyleRow(me.companyId), showLogoInVideos: true }).where(eq(videoStyleSettings.companyId, me.companyId));

    // The enhanced version: the intro, then the subtitles (the answer keeps its intro).
    const intro = await me.post(`/api/testimonials/response/${responseId}/generate-modified/intro`, { language: 'en' });
    expect(intro.statusCode, intro.body).toBe(202);
    await until(async () => (await job(intro.json().jobId)).phase === 'ready', 'the intro');
    const subs = await me.post(`/api/testimonials/response/${responseId}/generate-modified/subtitles`, { transcription: [CUE_TIMED], language: 'en' });
    expect(subs.statusCode, subs.body).toBe(202);
    await until(async () => (await job(subs.json().jobId)).phase === 'ready', 'the subtitles');
    const [enhanced] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, responseId));
    expect(enhanced).toMatchObject({ introGenerated: true, hasSubtitles: true });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  async function exported(platform: TExportPlatform, cropArea: Box): Promise<string> {
    const exp = await me.post(`/api/testimonials/response/${responseId}/export-v2`, { platform, videoType: 'modified', cropArea, language: 'en' });
    expect(exp.statusCode, exp.body).toBe(200);
    await expect.poll(async () => (await job(exp.json().jobId)).phase, { timeout: 60_000, interval: 300 }).toBe('ready');
    made.push({ platform, jobId: exp.json().jobId });
    return fileOf((await job(exp.json().jobId)).outputUrl);
  }

  const full = (words: Word[]) => words.map((w) => ({ text: w.text, box: { x: w.box.x * 2, y: w.box.y * 2, width: w.box.width * 2, height: w.box.height * 2 } }));

  async function expectComposed(video: string, platform: TExportPlatform) {
    const frame = exportFrame(platform);
    const info = await t.ctx.media.probe(video);
    expect(info.video).toMatchObject({ width: frame.width, height: frame.height });
    expect(Math.abs(info.durationSeconds - (CARD_SECONDS + 2))).toBeLessThan(0.3);
    const safe = safeArea(frame.width, frame.height, frame.kind);

    const card = await grabFrame(video, 1, `export-${platform}-card`);
    // Read at half size (twice as fast; the text is large), boxes brought back to the frame's pixels.
    const cardWords = full(await readWords(await grabFrame(video, 1, `export-${platform}-card-half`, { zoom: 0.5 })));
    const reading = matchReading(QUESTION, cardWords.map((w) => w.text).join(' '));
    expect(reading.ratio, cardWords.map((w) => w.text).join(' ')).toBeGreaterThanOrEqual(0.9);
    expect(reading.tailFound, cardWords.map((w) => w.text).join(' ')).toBe(true);
    const text = unionBox(cardWords.map((w) => w.box))!;
    expect(boxInside(text, safe), JSON.stringify({ text, safe })).toBe(true);
    const logo = await colourBox(card, isLogo);
    expect(logo).not.toBeNull();
    expect(boxInside(logo!, safe, 2)).toBe(true);
    expect(boxesIntersect(logo!, text), JSON.stringify({ logo, text })).toBe(false);

    // The subtitles' white, read alone (the answer's picture is lighter grey and beige). A cue longer than
    // two lines on the frame shows in parts (fitCuesToFrame): each part is read whole, in its own time.
    const d = DEFAULT_VIDEO_STYLE;
    const parts = fitCuesToFrame([CUE_TIMED], { ...frame, size: d.font_size_subtitle, border: d.subtitle_border, face: { font: d.font_style_subtitle, bold: d.font_bold_subtitle } });
    expect(parts.map((p) => p.text).join(' ')).toBe(CUE);
    if (platform === 'shorts') expect(parts.length).toBeGreaterThan(1);
    for (const [i, part] of parts.entries()) {
      const at = CARD_SECONDS + (part.start + part.end) / 2;
      const subtitleWords = full(await readWords(await grabFrame(video, at, `export-${platform}-subtitle-${i}`, { light: 235, zoom: 0.5 })));
      const line = matchReading(part.text, subtitleWords.map((w) => w.text).join(' '));
      expect(line.ratio, subtitleWords.map((w) => w.text).join(' ')).toBe(1);
      const drawn = unionBox(subtitleWords.map((w) => w.box))!;
      expect(boxInside(drawn, safe), JSON.stringify({ drawn, safe })).toBe(true);
    }
    expect(await colourBox(await grabFrame(video, CARD_SECONDS + 1, `export-${platform}-answer`), isLogo)).toBeNull();
  }

  it('lays out a 9:16 export anew: the whole question on a vertical card, the subtitles above the platforms’ caption zone', async () => {
    const video = await exported('shorts', { x: (1 - 270 / 640) / 2, y: 0, width: 270 / 640, height: 1 });
    await expectComposed(video, 'shorts');
  }, 60_000);

  it('lays out a 16:9 export anew: the logo and the bottom subtitle line whole inside the frame', async () => {
    const video = await exported('linkedin', { x: 0, y: 0.125, width: 1, height: 0.75 });
    await expectComposed(video, 'linkedin');
  }, 60_000);

  it('keeps the 9:16 export on the answer beside the 16:9 one made after it (decision 161)', async () => {
    expect(made.map((m) => m.platform)).toEqual(['shorts', 'linkedin']);
    const detail = (await me.get(`/api/testimonials/request/${requestId}?company_id=${me.companyId}`)).json().testimonial;
    const listed = detail.testimonial_responses[0].exports as { id: string; platform: string; videoType: string; video_url: string }[];
    expect(listed.map((e) => [e.platform, e.videoType, e.id])).toEqual(made.map((m) => [m.platform, 'modified', m.jobId]));
    for (const e of listed) expect((await t.ctx.media.probe(fileOf(e.video_url))).video).toMatchObject({ width: exportFrame(e.platform as TExportPlatform).width });
  });
});
