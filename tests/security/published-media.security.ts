/**
 * Published media on S3 with redirect delivery, attacked (issue 26, item 7): a published video's
 * address redirected to a presigned address of the bucket, which named the storage key (company,
 * request and answer ids) and went on working for 120 s after the video was taken down. Published
 * media now stream through the app in every delivery mode (decision 157): no storage address or key
 * goes out, and a taken-down video is a 404 at the next request.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testimonialResponses } from '../../src/server/db/schema.js';
import { signedInCompany } from '../../src/server/test/accounts.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';
import { startS3Server, type TestS3Server } from '../../src/server/test/s3-server.js';
import { completedTestimonial } from '../../src/server/test/testimonials.js';

describe('published media on S3 with redirect delivery', () => {
  let s3: TestS3Server;
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInCompany>>;
  let key: string;
  let size: number;
  let published: { id: string; slug: string };

  beforeAll(async () => {
    s3 = await startS3Server();
    t = await createTestApp({ env: { ...s3.env, S3_MEDIA_DELIVERY: 'redirect' } });
    expect(t.ctx.storage.driver).toBe('s3');
    expect(t.ctx.storage.presignGet).toBeTypeOf('function');
    owner = await signedInCompany(t);
    const tm = await completedTestimonial(t, owner);
    expect((await owner.post(`/api/testimonials/pay/${tm.id}`)).statusCode).toBe(200);
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));
    key = response!.originalKey;
    size = (await t.ctx.storage.head(key))!.size;
    await t.ctx.db.update(testimonialResponses).set({ videoKey: key, posterKey: key }).where(eq(testimonialResponses.id, response!.id));
    const res = await owner.post('/api/publications', { testimonialId: tm.id, responseId: response!.id });
    expect(res.statusCode, res.body).toBe(201);
    published = res.json();
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  /** Everything an outsider sees of an answer: status line headers and body. */
  const seen = (res: Awaited<ReturnType<typeof get>>) => `${JSON.stringify(res.headers)}\n${res.body}`;

  it('streams the published video and poster from the app, naming neither the bucket nor the storage key', async () => {
    for (const medium of ['video.mp4', 'poster.jpg']) {
      const res = await get(`/v/${published.slug}/${medium}`);
      expect(res.statusCode, medium).toBe(200);
      expect(res.headers.location, medium).toBeUndefined();
      expect(Number(res.headers['content-length']), medium).toBe(size);
      expect(res.rawPayload.length, medium).toBe(size);
      const outside = seen(res);
      expect(outside).not.toContain(key);
      expect(outside).not.toContain(owner.companyId);
      // (The policy names the bucket's origin for the dashboard's private media; nothing else does.)
      expect(res.body).not.toContain(s3.endpoint);
      expect(outside).not.toMatch(/X-Amz-/i);
    }
    // A player's byte ranges are answered here too.
    const range = await get(`/v/${published.slug}/video.mp4`, { range: 'bytes=0-99' });
    expect(range.statusCode).toBe(206);
    expect(range.headers['content-range']).toBe(`bytes 0-99/${size}`);
    expect(range.rawPayload.length).toBe(100);
  });

  it('stops serving the video at the next request once it is taken down', async () => {
    expect((await get(`/v/${published.slug}/video.mp4`, { range: 'bytes=0-9' })).statusCode).toBe(206);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/publications/${published.id}`, headers: owner.headers })).statusCode).toBe(204);
    for (const medium of ['video.mp4', 'poster.jpg']) {
      const res = await get(`/v/${published.slug}/${medium}`, { range: 'bytes=10-99' });
      expect(res.statusCode, medium).toBe(404);
      expect(res.headers.location, medium).toBeUndefined();
    }
  });
});
