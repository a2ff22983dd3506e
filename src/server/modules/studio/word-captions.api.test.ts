import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_VIDEO_STYLE } from '../../../contract/constants.js';
import { companies, testimonialResponses, transcriptions } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { completedTestimonial } from '../../test/testimonials.js';

/**
 * The company's caption style reaches the render (issue 31): with 'word' and an orange card, the
 * subtitled answer shows the spoken word in orange while a cue plays; with 'line', nothing orange is drawn.
 * The cues sent with the render are stored with words re-timed on the server.
 */
const run = promisify(execFile);

describe('word-by-word captions from the settings to the subtitled answer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ work: true });
  });
  afterAll(async () => {
    await t.close();
  });
  const ORANGE = (r: number, g: number, b: number) => r > 180 && g > 50 && g < 160 && b < 90;
  const fileOf = (url: string) => path.join(t.config.mediaDir, decodeURIComponent(new URL(url).pathname.replace('/files/', '')));

  /**
   * The pixels drawn orange over the answer at that time (orange in the output and far from the answer's
   * pixel: the test clip, a test pattern, has orange of its own): how many, and their mean x.
   */
  async function lit(video: string, answer: string, seconds: number): Promise<{ count: number; x: number }> {
    const [out, src] = await Promise.all([rgbFrame(video, seconds), rgbFrame(answer, seconds)]);
    let [count, sum] = [0, 0];
    for (let y = 0; y < out.height; y++) {
      for (let x = 0; x < out.width; x++) {
        const i = (y * out.width + x) * 3;
        const drawn = Math.abs(out.rgb[i]! - src.rgb[i]!) + Math.abs(out.rgb[i + 1]! - src.rgb[i + 1]!) + Math.abs(out.rgb[i + 2]! - src.rgb[i + 2]!) > 150;
        if (!drawn || !ORANGE(out.rgb[i]!, out.rgb[i + 1]!, out.rgb[i + 2]!)) continue;
        count += 1;
        sum += x;
      }
    }
    return { count, x: count ? sum / count : 0 };
  }
  async function rgbFrame(file: string, seconds: number) {
    const probe = await t.ctx.media.probe(file);
    const { stdout } = await run('ffmpeg', ['-v', 'error', '-ss', String(seconds), '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
    return { width: probe.video!.width, height: probe.video!.height, rgb: stdout };
  }

  async function subtitled(captionStyle: 'line' | 'word') {
    const me = await signedInCompany(t);
    await t.ctx.db.update(companies).set({ credits: 1 }).where(eq(companies.id, me.companyId));
    // At the largest subtitle size: the test clips are 160 × 120.
    const settings = await me.post('/api/auth/update-settings', { ...DEFAULT_VIDEO_STYLE, background_color: '#ff6600', font_size_subtitle: 48, caption_style: captionStyle });
    expect(settings.statusCode, settings.body).toBe(200);
    const tm = await completedTestimonial(t, me);
    await me.post(`/api/testimonials/pay/${tm.id}`);
    await expect.poll(async () => (await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id)))[0]?.videoKey, { timeout: 60_000 }).toBeTruthy();
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));
    const detail = async () => (await me.get(`/api/testimonials/request/${tm.id}?company_id=${me.companyId}`)).json().testimonial;
    const cues = [{ start: 0.2, end: 1.8, text: 'Quick friendly team', words: [{ start: 0, end: 50, text: 'ignored' }] }];
    const res = await me.post(`/api/testimonials/response/${response!.id}/generate-modified/subtitles`, { transcription: cues, language: 'en' });
    expect(res.statusCode, res.body).toBe(202);
    await expect.poll(async () => (await detail()).testimonial_responses[0].has_subtitles, { timeout: 90_000, interval: 500 }).toBe(true);
    const [stored] = await t.ctx.db.select().from(transcriptions).where(eq(transcriptions.responseId, response!.id));
    const d = await detail();
    return { video: fileOf(d.testimonial_responses[0].modified_video_url), answer: fileOf(d.testimonial_responses[0].video_url), stored: stored!.segments };
  }

  it("draws the spoken word in the company's colour only with the word style, and stores words re-timed by characters", async () => {
    const word = await subtitled('word');
    expect(word.stored[0]!.words!.map((w) => w.text)).toEqual(['Quick', 'friendly', 'team']);
    expect(word.stored[0]!.words![0]!.start).toBe(0.2);
    expect(word.stored[0]!.words![2]!.end).toBe(1.8);
    // "Quick" is lit at first (0.2 s → about 0.6 s), then "team" at the end: the orange moves right.
    const first = await lit(word.video, word.answer, 0.35);
    const last = await lit(word.video, word.answer, 1.6);
    expect(first.count).toBeGreaterThan(40);
    expect(last.count).toBeGreaterThan(40);
    expect(last.x).toBeGreaterThan(first.x + 40);
    const line = await subtitled('line');
    // Line subtitles are white: at most a few stray pixels of the pattern's own orange (measured: 18 and 0).
    for (const at of [0.35, 1.6]) expect((await lit(line.video, line.answer, at)).count).toBeLessThan(30);
  }, 300_000);
});
