import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_VIDEO_STYLE } from '../../../contract/constants.js';
import { END_CARD_SECONDS, lowerThirdLayout } from '../../../contract/frame-layout.js';
import { companies, testimonialRequests, testimonialResponses } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { completedTestimonial } from '../../test/testimonials.js';
import { videoExtras } from './video-extras.js';

const run = promisify(execFile);

describe('lower-third and end card in the rendered videos (issue 31)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ work: true });
  });
  afterAll(async () => {
    await t.close();
  });

  const fileOf = (url: string) => path.join(t.config.mediaDir, decodeURIComponent(new URL(url).pathname.replace('/files/', '')));
  /** The RGB of one pixel of the frame at `seconds`. */
  async function pixel(file: string, seconds: number, x: number, y: number): Promise<[number, number, number]> {
    const { stdout } = await run('ffmpeg', ['-v', 'error', '-ss', String(seconds), '-i', file, '-frames:v', '1', '-vf', `crop=2:2:${x}:${y}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { encoding: 'buffer' });
    return [stdout[0]!, stdout[1]!, stdout[2]!];
  }
  const near = (a: [number, number, number], b: [number, number, number], d: number) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]) < d;

  it("reads the company's choices and the customer's name and position, the submitter's own first, for the company of the job only", async () => {
    const me = await signedInCompany(t);
    const other = await signedInCompany(t);
    const tm = await completedTestimonial(t, me);
    // Nothing on by default.
    expect(await videoExtras(t.ctx, me.companyId, tm.id)).toEqual({
      lowerThird: null,
      endCard: null,
      subtitleSize: DEFAULT_VIDEO_STYLE.font_size_subtitle,
      subtitleBorder: DEFAULT_VIDEO_STYLE.subtitle_border,
      captionStyle: 'line',
    });
    await me.post('/api/auth/update-settings', { ...DEFAULT_VIDEO_STYLE, lower_third: true, end_card: true, end_card_text: '', end_card_address: '' });
    await t.ctx.db.update(testimonialRequests).set({ customerPosition: 'CTO', submitterName: ' ', submitterTitle: null }).where(eq(testimonialRequests.id, tm.id));
    // An end card with nothing to say is not drawn.
    expect(await videoExtras(t.ctx, me.companyId, tm.id)).toMatchObject({ lowerThird: { name: expect.stringMatching(/^Customer \d+$/), title: 'CTO' }, endCard: null });
    await t.ctx.db.update(testimonialRequests).set({ submitterName: 'Jane Cooper', submitterTitle: 'Head of Sales' }).where(eq(testimonialRequests.id, tm.id));
    await me.post('/api/auth/update-settings', { ...DEFAULT_VIDEO_STYLE, lower_third: true, end_card: true, end_card_text: 'Book a call', end_card_address: '' });
    expect(await videoExtras(t.ctx, me.companyId, tm.id)).toMatchObject({ lowerThird: { name: 'Jane Cooper', title: 'Head of Sales' }, endCard: { text: 'Book a call', address: '' } });
    // Word-by-word captions are told apart: the lower-third keeps above them.
    await me.post('/api/auth/update-settings', { ...DEFAULT_VIDEO_STYLE, caption_style: 'word' });
    expect(await videoExtras(t.ctx, me.companyId, tm.id)).toMatchObject({ captionStyle: 'word' });
    // Another company's job never reads this request's names.
    expect((await videoExtras(t.ctx, other.companyId, tm.id)).lowerThird).toBeNull();
  });

  it('renders the intro with the lower-third on the answer and the end card after it, and without them once turned off', async () => {
    const me = await signedInCompany(t);
    await t.ctx.db.update(companies).set({ credits: 5 }).where(eq(companies.id, me.companyId));
    const style = { ...DEFAULT_VIDEO_STYLE, background_color: '#00a000', lower_third: true, end_card: true, end_card_text: 'Book a call', end_card_address: 'acme.com' };
    expect((await me.post('/api/auth/update-settings', style)).statusCode).toBe(200);
    const tm = await completedTestimonial(t, me);
    await me.post(`/api/testimonials/pay/${tm.id}`);
    const detail = async () => (await me.get(`/api/testimonials/request/${tm.id}?company_id=${me.companyId}`)).json().testimonial;
    await expect.poll(async () => (await detail()).testimonial_responses[0].media?.phase, { timeout: 60_000, interval: 300 }).toBe('ready');
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));

    const render = async () => {
      const start = await me.post(`/api/testimonials/response/${response!.id}/generate-modified/intro`, { language: 'en' });
      expect(start.statusCode, start.body).toBe(202);
      await expect.poll(async () => (await me.get(`/api/jobs/${start.json().jobId}`)).json().phase, { timeout: 90_000, interval: 300 }).toBe('ready');
      return fileOf((await detail()).testimonial_responses[0].modified_video_url);
    };
    const withExtras = await render();
    const answer = await t.ctx.media.probe(fileOf((await detail()).testimonial_responses[0].video_url));
    const info = await t.ctx.media.probe(withExtras);
    expect(Math.abs(info.durationSeconds - (3 + answer.durationSeconds + END_CARD_SECONDS))).toBeLessThan(0.3);
    const { width, height } = info.video!;
    // The lower-third's plate (the card's green) 1.2 s into the answer, at the place the layout gives it.
    const plate = lowerThirdLayout({ width, height, kind: 'answer', name: 'Customer', title: null, face: { font: 'Arial', bold: false }, subtitleSize: DEFAULT_VIDEO_STYLE.font_size_subtitle }).plate;
    const onPlate = await pixel(withExtras, 3 + 1.2, plate.x + 1, plate.y + 1);
    expect(near(onPlate, [0, 160, 0], 90), `the plate's corner is ${onPlate.join(',')}`).toBe(true);
    // The end card: the card's green background, 1.5 s in.
    expect(near(await pixel(withExtras, 3 + answer.durationSeconds + 1.5, 2, 2), [0, 160, 0], 40)).toBe(true);

    await me.post('/api/auth/update-settings', { ...style, lower_third: false, end_card: false });
    const without = await render();
    expect(Math.abs((await t.ctx.media.probe(without)).durationSeconds - (3 + answer.durationSeconds))).toBeLessThan(0.3);
    expect(near(await pixel(without, 3 + 1.2, plate.x + 1, plate.y + 1), [0, 160, 0], 90)).toBe(false);
  }, 240_000);
});
