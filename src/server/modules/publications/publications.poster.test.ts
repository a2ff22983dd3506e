import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TPublication } from '../../../contract/api/publications.schema.js';
import type { TWall } from '../../../contract/api/wall.schema.js';
import { publications } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { paidTestimonial } from '../../test/publishing.js';
import { clock } from '../../../contract/clock.js';
import { durationBadge } from './publications.pages.js';
import { publishedDuration } from './publications.service.js';

describe('publication posters and lengths (issue 27, item 12)', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await createTestApp({ work: true });
    await mkdir(t.ctx.tmpDir, { recursive: true });
    dir = await mkdtemp(path.join(t.ctx.tmpDir, 'pub-poster-test-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    await t.close();
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });
  /** The mean RGB of a JPEG served at `url`. */
  async function meanColour(url: string): Promise<number[]> {
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/jpeg/);
    const jpeg = path.join(dir, `${Math.random().toString(36).slice(2)}.jpg`);
    await writeFile(jpeg, res.rawPayload);
    const pixel = `${jpeg}.rgb`;
    await t.ctx.media.runFfmpeg(['-y', '-i', jpeg, '-vf', 'scale=1:1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', pixel]);
    return [...(await readFile(pixel))];
  }

  it('formats lengths as badges show them, and finds a published length from its answers', () => {
    expect(clock(42.4)).toBe('0:42');
    expect(clock(59.6)).toBe('1:00');
    expect(clock(3725)).toBe('1:02:05');
    expect(String(durationBadge(null, 'en'))).toBe('');
    expect(String(durationBadge(42, 'fr'))).toBe('<span class="len"><span class="sr">Durée </span>0:42</span>');
    const parts = [
      { responseId: 'a', offset: 3 },
      { responseId: 'b', offset: 3 + 20 + 3 },
    ];
    expect(publishedDuration(parts, [{ id: 'a', durationSeconds: 20 }, { id: 'b', durationSeconds: 12.5 }])).toBe(38.5);
    expect(publishedDuration(parts, [{ id: 'a', durationSeconds: 20 }, { id: 'b', durationSeconds: null }])).toBeNull();
  });

  it('lets the company choose its poster moment, checked against the video, served on its public pages at once, with the length badge', async () => {
    const { me, tm, response } = await paidTestimonial(t);
    // A recorded answer whose picture turns from red to blue at 1 s: which half a poster shows says where it was taken.
    const video = path.join(dir, 'answer.mp4');
    await t.ctx.media.runFfmpeg([
      '-y', '-f', 'lavfi', '-i', 'color=c=red:s=320x240:r=30:d=2.4', '-f', 'lavfi', '-i', 'sine=f=440:d=2.4',
      '-vf', "drawbox=c=blue:t=fill:enable='gte(t,1)'", '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', video,
    ]);
    await t.ctx.storage.put(response.videoKey!, createReadStream(video), 'video/mp4');

    const created = await me.post('/api/publications', { testimonialId: tm.id, responseId: response.id });
    expect(created.statusCode, created.body).toBe(201);
    const { id, slug } = created.json<{ id: string; slug: string }>();
    const listed = (await me.get(`/api/publications?testimonialId=${tm.id}`)).json<{ publications: TPublication[] }>().publications[0]!;
    expect(listed.durationSeconds).toBeGreaterThan(1);
    expect(listed.posterSeconds).toBeNull();

    // The length shows on the share page, the embed and the wall before the video plays.
    const badge = `<span class="len"><span class="sr">Length </span>${clock(listed.durationSeconds!)}</span>`;
    expect((await get(`/v/${slug}`)).body).toContain(badge);
    expect((await get(`/embed/${slug}`)).body).toContain(badge);
    const wall = (await me.get('/api/wall')).json<TWall>();
    expect((await get(`/wall/${wall.slug}`)).body).toContain(badge);

    // A moment in the red half, then one in the blue half: the public poster follows at once.
    const early = await me.put(`/api/publications/${id}/poster`, { seconds: 0.4 });
    expect(early.statusCode, early.body).toBe(200);
    expect(early.json()).toMatchObject({ posterSeconds: 0.4, durationSeconds: expect.closeTo(2.4, 1) });
    const [r1, , b1] = await meanColour(`/v/${slug}/poster.jpg`);
    expect(r1).toBeGreaterThan(180);
    expect(b1).toBeLessThan(80);
    const [first] = await t.ctx.db.select().from(publications).where(eq(publications.id, id));
    expect(first!.posterKey).toMatch(new RegExp(`^companies/${me.companyId}/publications/${id}/poster-`));

    const late = await me.put(`/api/publications/${id}/poster`, { seconds: 1.8 });
    expect(late.statusCode, late.body).toBe(200);
    const [r2, , b2] = await meanColour(`/v/${slug}/poster.jpg`);
    expect(b2).toBeGreaterThan(180);
    expect(r2).toBeLessThan(80);
    // The previous chosen poster is gone; the answer's own poster is left alone.
    expect(await t.ctx.storage.head(first!.posterKey!)).toBeNull();
    expect(await t.ctx.storage.head(response.posterKey!)).not.toBeNull();
    expect((await me.get(`/api/publications?testimonialId=${tm.id}`)).json<{ publications: TPublication[] }>().publications[0]!.posterSeconds).toBe(1.8);

    // Back to the automatic frame: a third into this short answer (0.8 s of 2.4 s), red again.
    const auto = await me.put(`/api/publications/${id}/poster`, { seconds: null });
    expect(auto.json()).toMatchObject({ posterSeconds: null });
    expect((await meanColour(`/v/${slug}/poster.jpg`))[0]).toBeGreaterThan(180);

    // A moment past the end, a negative or missing one: refused, naming the field, nothing changed.
    const [before] = await t.ctx.db.select().from(publications).where(eq(publications.id, id));
    const past = await me.put(`/api/publications/${id}/poster`, { seconds: 9 });
    expect(past.statusCode).toBe(400);
    expect(past.json()).toMatchObject({ code: 'invalid_data', field: 'seconds', reason: 'poster_outside_video', params: { duration: '0:02' } });
    for (const body of [{ seconds: -1 }, { seconds: 'soon' }, {}]) {
      const bad = await me.put(`/api/publications/${id}/poster`, body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json().field).toBe('seconds');
    }
    const [after] = await t.ctx.db.select().from(publications).where(eq(publications.id, id));
    expect(after).toEqual(before);

    // Another company's publication is not found, and is left as it was; unpublished, it is gone too.
    const other = await signedInCompany(t);
    expect((await other.put(`/api/publications/${id}/poster`, { seconds: 0.4 })).statusCode).toBe(404);
    expect((await t.ctx.db.select().from(publications).where(eq(publications.id, id)))[0]).toEqual(before);
    expect((await t.app.inject({ method: 'PUT', url: `/api/publications/${id}/poster`, payload: { seconds: 0.4 } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/publications/${id}`, headers: me.headers })).statusCode).toBe(204);
    expect((await me.put(`/api/publications/${id}/poster`, { seconds: 0.4 })).statusCode).toBe(404);
  }, 120_000);
});
