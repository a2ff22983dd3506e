/**
 * Every format, several at once (issue 31, decision 199): an answer's enhanced version exported in the four
 * frames by one call, rendered by the worker in one ffmpeg run; each output is checked with ffprobe (its
 * exact size, H.264 High and AAC, faststart, sound in sync within a frame, −14 LUFS ± 1) and listed in the
 * detail's exports as an export of its own; the card of the 1:1 and 4:5 frames is read back with OCR inside
 * their safe areas. The original is exported in two formats at once too, its sound copied. The body is
 * validated (each format once, known formats, crops) and another company's answer is not found.
 */
import { execFile } from 'node:child_process';
import { open, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_PLATFORM_SPECS, type TExportPlatform } from '../../../contract/api/studio.schema.js';
import { safeArea } from '../../../contract/frame-layout.js';
import { companies, jobs, testimonialResponses, videoStyleSettings } from '../../db/schema.js';
import { CARD_SECONDS, exportFrame } from '../../media/render.js';
import { signedInCompany } from '../../test/accounts.js';
import { avDrift, loudness } from '../../test/av.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { boxInside, grabFrame, matchReading, readWords, unionBox } from '../../test/ocr.js';
import { completedTestimonial } from '../../test/testimonials.js';
import { defaultStyleRow } from '../settings/default-style.js';

const run = promisify(execFile);
const QUESTION = 'What changed for your team after the first month with us?';

async function until<T>(read: () => Promise<T>, what: string, timeoutMs = 60_000): Promise<T> {
  const ends = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > ends) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/** The H.264 profile and the audio codec of a file, from ffprobe. */
async function codecs(file: string): Promise<{ profile: string; audio: string }> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,profile', '-of', 'json', file]);
  const streams = JSON.parse(stdout).streams as { codec_type: string; codec_name: string; profile?: string }[];
  const video = streams.find((s) => s.codec_type === 'video');
  const audio = streams.find((s) => s.codec_type === 'audio');
  return { profile: `${video?.codec_name} ${video?.profile}`, audio: audio?.codec_name ?? 'none' };
}

/** Whether the file's index (moov) comes before its media (mdat): a player can start before it has it all. */
async function faststart(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const names: string[] = [];
    let at = 0;
    const header = Buffer.alloc(16);
    while (names.length < 8) {
      const { bytesRead } = await handle.read(header, 0, 16, at);
      if (bytesRead < 8) break;
      let size = header.readUInt32BE(0);
      names.push(header.toString('latin1', 4, 8));
      if (size === 1) size = Number(header.readBigUInt64BE(8));
      if (size < 8) break;
      at += size;
    }
    return names.includes('moov') && names.indexOf('moov') < names.indexOf('mdat');
  } finally {
    await handle.close();
  }
}

describe('every format, several at once', () => {
  let t: TestApp;
  let me: Awaited<ReturnType<typeof signedInCompany>>;
  let responseId: string;
  let requestId: string;
  const job = async (id: string) => (await me.get(`/api/jobs/${id}`)).json();
  const fileOf = (url: string) => path.join(t.config.mediaDir, decodeURIComponent(new URL(url).pathname.replace('/files/', '')));
  const exportsOfAnswer = async () =>
    (await me.get(`/api/testimonials/request/${requestId}?company_id=${me.companyId}`)).json().testimonial.testimonial_responses[0].exports as {
      id: string;
      platform: TExportPlatform;
      videoType: string;
      video_url: string;
    }[];

  beforeAll(async () => {
    t = await createTestApp({ work: true });
    me = await signedInCompany(t);
    await t.ctx.db.update(companies).set({ credits: 2 }).where(eq(companies.id, me.companyId));
    const tm = await completedTestimonial(t, me);
    requestId = tm.id;
    await me.post(`/api/testimonials/pay/${tm.id}`);
    await until(async () => (await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id)))[0]?.videoKey, 'the transcode');
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));
    responseId = response!.id;
    // A 2 s 640 × 360 answer with a steady tone, the question, the default theme without the logo.
    const clip = path.join(os.tmpdir(), `vr-formats-answer-${process.pid}.mp4`);
    await run('ffmpeg', [
      '-v', 'error', '-y', '-f', 'lavfi', '-i', 'gradients=s=640x360:c0=0x8fa3b8:c1=0xd9cbb5:d=2:r=30', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=2',
      '-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', clip,
    ]);
    const answerKey = `companies/${me.companyId}/requests/${tm.id}/answers/${responseId}/formats-answer.mp4`;
    await t.ctx.storage.put(answerKey, await readFile(clip), 'video/mp4');
    await t.ctx.db.update(testimonialResponses).set({ videoKey: answerKey, width: 640, height: 360, durationSeconds: 2, questionText: QUESTION }).where(eq(testimonialResponses.id, responseId));
    await t.ctx.db.update(videoStyleSettings).set({ ...defaultStyleRow(me.companyId), showLogoInVideos: false }).where(eq(videoStyleSettings.companyId, me.companyId));
    const intro = await me.post(`/api/testimonials/response/${responseId}/generate-modified/intro`, { language: 'en' });
    expect(intro.statusCode, intro.body).toBe(202);
    await until(async () => (await job(intro.json().jobId)).phase === 'ready', 'the intro');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const centred = (platform: TExportPlatform) => {
    // The largest area of the format's ratio, centred on the 640 × 360 answer.
    const ratio = EXPORT_PLATFORM_SPECS[platform].ratio / (640 / 360);
    return ratio < 1 ? { x: (1 - ratio) / 2, y: 0, width: ratio, height: 1 } : { x: 0, y: (1 - 1 / ratio) / 2, width: 1, height: 1 / ratio };
  };

  it('refuses a format asked twice, an unknown format and a crop outside the frame, with a human message', async () => {
    const base = { platform: 'square', videoType: 'modified', cropArea: centred('square'), language: 'en' };
    const twice = await me.post(`/api/testimonials/response/${responseId}/export-v2`, { ...base, platforms: [{ platform: 'square', cropArea: centred('square') }] });
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toMatchObject({ code: 'invalid_data', field: 'platforms', error: expect.stringMatching(/once/) });
    const unknown = await me.post(`/api/testimonials/response/${responseId}/export-v2`, { ...base, platforms: [{ platform: 'tiktok', cropArea: centred('square') }] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatch(/Unsupported platform: tiktok/);
    const outside = await me.post(`/api/testimonials/response/${responseId}/export-v2`, { ...base, platforms: [{ platform: 'portrait', cropArea: { x: 0.8, y: 0, width: 0.5, height: 1 } }] });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().error).toMatch(/must fit inside the frame/);
    const other = await signedInCompany(t, { companyName: 'Another company' });
    const foreign = await other.post(`/api/testimonials/response/${responseId}/export-v2`, { ...base, platforms: [{ platform: 'portrait', cropArea: centred('portrait') }] });
    expect(foreign.statusCode).toBe(404);
    expect(await t.ctx.db.select().from(jobs).where(and(eq(jobs.requestId, requestId), eq(jobs.kind, 'export')))).toEqual([]);
  });

  it('renders the four frames in one run, each of its exact size, H.264 High + AAC, faststart, in sync, at −14 LUFS, listed as four exports', async () => {
    const platforms = (['portrait', 'shorts', 'linkedin'] as const).map((platform) => ({ platform, cropArea: centred(platform) }));
    const exp = await me.post(`/api/testimonials/response/${responseId}/export-v2`, { platform: 'square', videoType: 'modified', cropArea: centred('square'), language: 'en', platforms });
    expect(exp.statusCode, exp.body).toBe(200);
    await expect.poll(async () => (await job(exp.json().jobId)).phase, { timeout: 90_000, interval: 300 }).toBe('ready');
    const listed = await exportsOfAnswer();
    expect(listed.map((e) => e.platform)).toEqual(['shorts', 'linkedin', 'square', 'portrait']);
    expect(listed.find((e) => e.platform === 'square')!.id).toBe(exp.json().jobId);
    expect(new Set(listed.map((e) => e.id)).size).toBe(4);
    for (const e of listed) {
      const file = fileOf(e.video_url);
      const frame = exportFrame(e.platform);
      const info = await t.ctx.media.probe(file);
      expect(info.video, e.platform).toMatchObject({ width: frame.width, height: frame.height });
      expect(Math.abs(info.durationSeconds - (CARD_SECONDS + 2)), e.platform).toBeLessThan(0.3);
      expect(await codecs(file), e.platform).toEqual({ profile: 'h264 High', audio: 'aac' });
      expect(await faststart(file), e.platform).toBe(true);
      const drift = await avDrift(file);
      expect(drift.start, e.platform).toBeLessThan(1 / 30);
      expect(drift.end, e.platform).toBeLessThan(1 / 30);
      const { integrated } = await loudness(file);
      expect(Math.abs(integrated + 14), `${e.platform}: ${integrated} LUFS`).toBeLessThanOrEqual(1);
    }
    // The card of the feed formats: the whole question, inside each frame's safe area.
    for (const platform of ['square', 'portrait'] as const) {
      const file = fileOf(listed.find((e) => e.platform === platform)!.video_url);
      const frame = exportFrame(platform);
      const words = await readWords(await grabFrame(file, 1, `formats-${platform}-card`));
      const read = words.map((w) => w.text).join(' ');
      expect(matchReading(QUESTION, read).ratio, read).toBeGreaterThanOrEqual(0.9);
      const text = unionBox(words.map((w) => w.box))!;
      const safe = safeArea(frame.width, frame.height, frame.kind);
      expect(boxInside(text, safe), JSON.stringify({ text, safe })).toBe(true);
    }
  }, 120_000);

  it('exports the original in two formats from one decode, each cropped to its size, the sound copied', async () => {
    const exp = await me.post(`/api/testimonials/response/${responseId}/export-v2`, {
      platform: 'portrait',
      videoType: 'original',
      cropArea: centred('portrait'),
      language: 'en',
      platforms: [{ platform: 'square', cropArea: centred('square') }],
    });
    expect(exp.statusCode, exp.body).toBe(200);
    await expect.poll(async () => (await job(exp.json().jobId)).phase, { timeout: 60_000, interval: 300 }).toBe('ready');
    const originals = (await exportsOfAnswer()).filter((e) => e.videoType === 'original');
    expect(originals.map((e) => e.platform)).toEqual(['square', 'portrait']);
    for (const e of originals) {
      const file = fileOf(e.video_url);
      expect((await t.ctx.media.probe(file)).video).toMatchObject({ width: exportFrame(e.platform).width, height: exportFrame(e.platform).height });
      expect((await codecs(file)).audio).toBe('aac');
      expect(Math.abs((await t.ctx.media.probe(file)).durationSeconds - 2)).toBeLessThan(0.2);
    }
    const [row] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, responseId));
    expect(row!.shortOriginalKey).toContain('export-portrait-');
  }, 60_000);

  it('proposes the crop around where the picture moves (smart crop), nothing on a still picture, and not for another company', async () => {
    const moving = path.join(os.tmpdir(), `vr-formats-moving-${process.pid}.mp4`);
    // A grey still frame, a white square moving to and fro in its lower right (centre near 0.77, 0.69).
    await run('ffmpeg', [
      '-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x808080:s=640x360:r=30:d=2', '-f', 'lavfi', '-i', 'color=c=white:s=60x60:r=30:d=2',
      '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=2',
      '-filter_complex', '[0:v][1:v]overlay=x=460+40*sin(t*6):y=200', '-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', moving,
    ]);
    const still = path.join(os.tmpdir(), `vr-formats-still-${process.pid}.mp4`);
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x808080:s=640x360:r=30:d=2', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=2', '-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', still]);
    const use = async (file: string, name: string) => {
      const key = `companies/${me.companyId}/requests/${requestId}/answers/${responseId}/${name}.mp4`;
      await t.ctx.storage.put(key, await readFile(file), 'video/mp4');
      await t.ctx.db.update(testimonialResponses).set({ videoKey: key }).where(eq(testimonialResponses.id, responseId));
    };
    await use(moving, 'moving');
    const found = await me.get(`/api/testimonials/response/${responseId}/crop-focus`);
    expect(found.statusCode, found.body).toBe(200);
    const { focus } = found.json();
    expect(focus.x).toBeGreaterThan(0.72);
    expect(focus.x).toBeLessThan(0.82);
    expect(focus.y).toBeGreaterThan(0.62);
    expect(focus.y).toBeLessThan(0.76);
    const other = await signedInCompany(t, { companyName: 'Third company' });
    const foreign = await other.get(`/api/testimonials/response/${responseId}/crop-focus`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'not_found', error: expect.any(String) });
    expect((await me.get('/api/testimonials/response/not-an-id/crop-focus')).statusCode).toBe(400);
    await use(still, 'still');
    expect((await me.get(`/api/testimonials/response/${responseId}/crop-focus`)).json()).toEqual({ focus: null });
  }, 30_000);
});
