import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLICATION_SLUG_PATTERN } from '../../../contract/api/publications.schema.js';
import { jobs, testimonialRequests, testimonialResponses, transcriptions } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { startS3Server, type TestS3Server } from '../../test/s3-server.js';
import { paidTestimonial as paidTestimonialOf } from '../../test/publishing.js';
import { completedTestimonial } from '../../test/testimonials.js';
import { webVtt } from './publications.pages.js';

type Company = Awaited<ReturnType<typeof signedInCompany>>;

describe('publications', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ work: true });
  });
  afterAll(async () => {
    await t.close();
  });

  const paidTestimonial = (me?: Company) => paidTestimonialOf(t, me);
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  const del = (me: Company, id: string) => t.app.inject({ method: 'DELETE', url: `/api/publications/${id}`, headers: me.headers });

  it('publishes an answer as recorded: a share page in its language, an embed, its media with ranges, captions and oEmbed; unpublishing takes them all down', async () => {
    const { me, tm, response } = await paidTestimonial();
    const name = `Zoé <b>"Bold"</b> & Co`;
    await t.ctx.db.update(testimonialRequests).set({ language: 'french', submitterName: name, submitterTitle: 'CEO <i>' }).where(eq(testimonialRequests.id, tm.id));
    await t.ctx.db.insert(transcriptions).values({
      responseId: response.id,
      companyId: me.companyId,
      engine: 'edited',
      language: 'fr',
      segments: [{ start: 0.2, end: 1.5, text: 'Très <bien> & rapide' }],
    });

    const created = await me.post('/api/publications', { testimonialId: tm.id, responseId: response.id });
    expect(created.statusCode, created.body).toBe(201);
    const pub = created.json<{ id: string; slug: string; url: string; embedUrl: string }>();
    expect(pub.slug).toMatch(PUBLICATION_SLUG_PATTERN);
    expect(pub).toEqual({ id: expect.any(String), slug: pub.slug, url: `http://app.test/v/${pub.slug}`, embedUrl: `http://app.test/embed/${pub.slug}` });

    const page = await get(`/v/${pub.slug}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    const html = page.body;
    expect(html).toMatch(/^<!doctype html>\s*<html lang="fr">/);
    expect(html).toContain('Zoé &lt;b&gt;&quot;Bold&quot;&lt;/b&gt; &amp; Co');
    expect(html).not.toContain('<b>"Bold"</b>');
    expect(html).toContain('CEO &lt;i&gt;');
    expect(html).toContain(`<source src="/v/${pub.slug}/video.mp4" type="video/mp4">`);
    expect(html).toMatch(/<video controls playsinline preload="none"[^>]* poster="\/v\/[\w-]+\/poster\.jpg"/);
    expect(html).toContain(`<track kind="captions" src="/v/${pub.slug}/captions.vtt" srclang="fr"`);
    expect(html).toContain('Très &lt;bien&gt; &amp; rapide');
    for (const tag of ['og:title', 'og:description', 'og:image', 'og:video', 'og:video:type']) expect(html).toContain(`property="${tag}"`);
    expect(html).toContain(`<meta property="og:video" content="http://app.test/v/${pub.slug}/video.mp4">`);
    expect(html).toContain('<meta name="twitter:card" content="player">');
    expect(html).toContain(`<meta name="twitter:player" content="http://app.test/embed/${pub.slug}">`);
    expect(html).toContain(`<link rel="alternate" type="application/json+oembed" href="http://app.test/api/oembed?url=${encodeURIComponent(`http://app.test/v/${pub.slug}`)}&amp;format=json"`);
    expect(html).not.toContain('/files/');
    expect(html).not.toContain(response.videoKey!);
    expect(html).not.toContain('companies/');
    // No script but the view beacon (views.beacon.ts, allowed by its hash).
    expect(html.match(/<script/gi)).toHaveLength(1);
    // Far below the issue's 30 KB before the video, even uncompressed.
    expect(Buffer.byteLength(html)).toBeLessThan(10_000);

    // The video with ranges, its poster and its captions, through the publication's routes.
    const whole = await get(`/v/${pub.slug}/video.mp4`);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    const size = whole.rawPayload.length;
    expect(size).toBeGreaterThan(1000);
    const part = await get(`/v/${pub.slug}/video.mp4`, { range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${size}`);
    expect(part.rawPayload).toEqual(whole.rawPayload.subarray(100, 200));
    expect((await get(`/v/${pub.slug}/video.mp4`, { range: `bytes=${size + 10}-` })).statusCode).toBe(416);
    const poster = await get(`/v/${pub.slug}/poster.jpg`);
    expect(poster.statusCode).toBe(200);
    expect(poster.headers['content-type']).toBe('image/jpeg');
    const vtt = await get(`/v/${pub.slug}/captions.vtt`);
    expect(vtt.statusCode).toBe(200);
    expect(vtt.headers['content-type']).toMatch(/^text\/vtt/);
    expect(vtt.body).toBe('WEBVTT\n\n1\n00:00:00.200 --> 00:00:01.500\nTrès &lt;bien&gt; &amp; rapide\n');

    // The embed: the player alone, and the only page any site may frame.
    const embed = await get(`/embed/${pub.slug}`);
    expect(embed.statusCode).toBe(200);
    expect(embed.headers['content-security-policy']).toMatch(/frame-ancestors \*/);
    expect(embed.headers['x-frame-options']).toBeUndefined();
    expect(embed.body).toContain(`<source src="/v/${pub.slug}/video.mp4"`);
    expect(embed.body).not.toContain('/files/');

    const oembed = await get(`/api/oembed?url=${encodeURIComponent(pub.url)}&maxwidth=100`);
    expect(oembed.statusCode, oembed.body).toBe(200);
    const o = oembed.json();
    expect(o).toMatchObject({ version: '1.0', type: 'video', width: 100, title: `${name}, CEO <i>`, provider_name: 'Vouchreel', thumbnail_url: `http://app.test/v/${pub.slug}/poster.jpg` });
    expect(o.html).toMatch(new RegExp(`^<iframe src="http://app.test/embed/${pub.slug}"[^>]* width="100"`));
    expect(o.html).toContain('&lt;b&gt;');
    expect((await get(`/api/oembed?url=${encodeURIComponent(`http://elsewhere.test/v/${pub.slug}`)}`)).statusCode).toBe(400);
    expect((await get(`/api/oembed?url=${encodeURIComponent(pub.embedUrl)}`)).statusCode).toBe(200);

    const list = await me.get(`/api/publications?testimonialId=${tm.id}`);
    expect(list.statusCode).toBe(200);
    expect(list.json().publications).toEqual([
      expect.objectContaining({ id: pub.id, testimonialId: tm.id, responseId: response.id, jobId: null, slug: pub.slug, url: pub.url, views: 0, embedHtml: expect.stringContaining(pub.embedUrl) }),
    ]);

    // Unpublished: everything public about it answers 404 at once.
    expect((await del(me, pub.id)).statusCode).toBe(204);
    for (const url of [`/v/${pub.slug}`, `/embed/${pub.slug}`, `/v/${pub.slug}/video.mp4`, `/v/${pub.slug}/poster.jpg`, `/v/${pub.slug}/captions.vtt`, `/api/oembed?url=${encodeURIComponent(pub.url)}`]) {
      expect((await get(url)).statusCode, url).toBe(404);
    }
    expect((await get(`/v/${pub.slug}`)).body).not.toContain('Zoé');
    expect((await me.get(`/api/publications?testimonialId=${tm.id}`)).json().publications).toEqual([]);
    expect((await del(me, pub.id)).statusCode).toBe(404);
  }, 120_000);

  it('publishes a ready render with its poster and captions on its timeline, and refuses one still being made', async () => {
    const { me, tm, response } = await paidTestimonial();
    await t.ctx.db.insert(transcriptions).values({ responseId: response.id, companyId: me.companyId, engine: 'edited', language: 'en', segments: [{ start: 0.5, end: 1.5, text: 'Great' }] });
    const start = await me.post(`/api/testimonials/response/${response.id}/generate-modified/intro`, { language: 'en' });
    expect(start.statusCode, start.body).toBe(202);
    const { jobId } = start.json();
    const early = await me.post('/api/publications', { testimonialId: tm.id, jobId });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'conflict', error: expect.stringMatching(/still being made/) });
    await expect.poll(async () => (await me.get(`/api/jobs/${jobId}`)).json().phase, { timeout: 90_000, interval: 300 }).toBe('ready');

    const created = await me.post('/api/publications', { testimonialId: tm.id, jobId });
    expect(created.statusCode, created.body).toBe(201);
    const { slug } = created.json();
    const html = (await get(`/v/${slug}`)).body;
    expect(html).toContain('<html lang="en">');
    expect(html).toContain(`<source src="/v/${slug}/video.mp4"`);
    const [job] = await t.ctx.db.select().from(jobs).where(eq(jobs.id, jobId));
    expect(html).not.toContain(job!.outputKey!);
    // A render without burned-in subtitles shows its captions by default.
    expect(html).toMatch(/<track kind="captions"[^>]* default>/);
    const video = await get(`/v/${slug}/video.mp4`, { range: 'bytes=0-' });
    expect(video.statusCode).toBe(206);
    expect((await get(`/v/${slug}/poster.jpg`)).headers['content-type']).toBe('image/jpeg');
    // The intro's card comes first: the answer's words start 3 s later.
    expect((await get(`/v/${slug}/captions.vtt`)).body).toContain('00:00:03.500 --> 00:00:04.500\nGreat');
  }, 180_000);

  it("refuses another company's ids (404), an unpaid testimonial (402) and a video of another testimonial or of another kind", async () => {
    const { me, tm, response } = await paidTestimonial();
    const other = await paidTestimonial();
    // Another company's testimonial, answer or job.
    expect((await other.me.post('/api/publications', { testimonialId: tm.id, responseId: response.id })).statusCode).toBe(404);
    expect((await other.me.post('/api/publications', { testimonialId: other.tm.id, responseId: response.id })).statusCode).toBe(404);
    const [transcode] = await t.ctx.db.select().from(jobs).where(eq(jobs.responseId, response.id));
    expect((await other.me.post('/api/publications', { testimonialId: other.tm.id, jobId: transcode!.id })).statusCode).toBe(404);
    // An answer or a job of another testimonial of the same company; a job that is not a studio render.
    const second = await paidTestimonial(me);
    const wrong = await me.post('/api/publications', { testimonialId: second.tm.id, responseId: response.id });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'invalid_data', field: 'responseId', error: 'This answer belongs to another testimonial.' });
    expect((await me.post('/api/publications', { testimonialId: second.tm.id, jobId: transcode!.id })).json()).toMatchObject({ field: 'jobId', error: 'This video belongs to another testimonial.' });
    const kind = await me.post('/api/publications', { testimonialId: tm.id, jobId: transcode!.id });
    expect(kind.statusCode).toBe(400);
    expect(kind.json().error).toMatch(/Only a video made in the studio/);
    // Both, or neither.
    expect((await me.post('/api/publications', { testimonialId: tm.id, responseId: response.id, jobId: transcode!.id })).statusCode).toBe(400);
    expect((await me.post('/api/publications', { testimonialId: tm.id })).statusCode).toBe(400);
    // Unpaid.
    const unpaid = await completedTestimonial(t, me);
    const [unpaidAnswer] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, unpaid.id));
    const refused = await me.post('/api/publications', { testimonialId: unpaid.id, responseId: unpaidAnswer!.id });
    expect(refused.statusCode).toBe(402);
    expect(refused.json().error).toMatch(/Unlock this testimonial/);
    // Another company cannot take down or list a publication.
    const pub = (await me.post('/api/publications', { testimonialId: tm.id, responseId: response.id })).json();
    expect((await del(other.me, pub.id)).statusCode).toBe(404);
    expect((await other.me.get(`/api/publications?testimonialId=${tm.id}`)).json().publications).toEqual([]);
    expect((await get(`/v/${pub.slug}`)).statusCode).toBe(200);
  }, 180_000);

  it('writes WebVTT that a player reads: times to the millisecond, markup escaped', () => {
    expect(webVtt([{ start: 3661.5, end: 3662.25, text: 'a <b> & c' }])).toBe('WEBVTT\n\n1\n01:01:01.500 --> 01:01:02.250\na &lt;b&gt; &amp; c\n');
  });
});

describe('publications on S3 storage with redirect delivery (decision 157: published media stream from the app)', () => {
  let s3: TestS3Server;
  let t: TestApp;
  beforeAll(async () => {
    s3 = await startS3Server();
    t = await createTestApp({ env: s3.env });
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it('streams the published video from the app, not from a presigned address, and stops at once when it is taken down', async () => {
    const me = await signedInCompany(t);
    const tm = await completedTestimonial(t, me);
    expect((await me.post(`/api/testimonials/pay/${tm.id}`)).statusCode).toBe(200);
    // No worker here: the answer plays from its upload.
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));
    await t.ctx.db.update(testimonialResponses).set({ videoKey: response!.originalKey }).where(eq(testimonialResponses.id, response!.id));
    const pub = (await me.post('/api/publications', { testimonialId: tm.id, responseId: response!.id })).json();

    const page = await t.app.inject({ method: 'GET', url: `/v/${pub.slug}` });
    expect(page.body).toContain(`<source src="/v/${pub.slug}/video.mp4"`);
    expect(page.body).not.toContain(new URL(s3.env.S3_PUBLIC_URL ?? s3.env.S3_ENDPOINT!).host);
    const video = await t.app.inject({ method: 'GET', url: `/v/${pub.slug}/video.mp4` });
    expect(video.statusCode).toBe(200);
    expect(video.headers.location).toBeUndefined();
    expect(video.headers['cache-control']).toBe('private, max-age=60');
    const chunks: Buffer[] = [];
    for await (const chunk of await t.ctx.storage.get(response!.originalKey)) chunks.push(Buffer.from(chunk as Uint8Array));
    const stored = Buffer.concat(chunks);
    expect(video.rawPayload.equals(stored)).toBe(true);

    expect((await t.app.inject({ method: 'DELETE', url: `/api/publications/${pub.id}`, headers: me.headers })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: `/v/${pub.slug}/video.mp4` })).statusCode).toBe(404);
  }, 60_000);
});
