/**
 * The wall (issue 19), attacked: a wall lists only its company's live publications that it chose to
 * show; another company can neither add its own videos to it, nor reorder or hide the owner's, nor read
 * it through the API; a publication taken down leaves the wall at once; no private media address (a
 * storage key, a signed /files address) appears in the wall's HTML; only the wall's embed may be framed;
 * wall slugs cannot be listed by guessing.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TWall } from '../../src/contract/api/wall.schema.js';
import { companies, publications, testimonialResponses, walls } from '../../src/server/db/schema.js';
import { newWallSlug, WALL_RANDOM_LENGTH } from '../../src/server/modules/publications/wall.service.js';
import { signedInCompany } from '../../src/server/test/accounts.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';
import { completedTestimonial } from '../../src/server/test/testimonials.js';

type Company = Awaited<ReturnType<typeof signedInCompany>>;

describe('the wall', () => {
  let t: TestApp;
  let owner: Company;
  let intruder: Company;
  const keys: string[] = [];
  let ownerPubs: { id: string; slug: string }[];
  let intruderPub: { id: string; slug: string };
  let ownerWall: string;
  let intruderWall: string;

  async function publish(me: Company) {
    await t.ctx.db.update(companies).set({ credits: 5 }).where(eq(companies.id, me.companyId));
    const tm = await completedTestimonial(t, me);
    expect((await me.post(`/api/testimonials/pay/${tm.id}`)).statusCode).toBe(200);
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));
    keys.push(response!.originalKey);
    await t.ctx.db.update(testimonialResponses).set({ videoKey: response!.originalKey, posterKey: `${response!.originalKey}.poster.jpg` }).where(eq(testimonialResponses.id, response!.id));
    const res = await me.post('/api/publications', { testimonialId: tm.id, responseId: response!.id });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string; slug: string }>();
  }
  const get = (url: string) => t.app.inject({ method: 'GET', url });
  const put = (me: Company, items: string[]) =>
    t.app.inject({ method: 'PUT', url: '/api/wall', headers: { ...me.headers, 'content-type': 'application/json' }, payload: JSON.stringify({ items }) });
  const slugsOn = async (wall: string) => [...(await get(`/wall/${wall}`)).body.matchAll(/<source src="\/v\/([\w-]+)\/video\.mp4"/g)].map((m) => m[1]);

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInCompany(t);
    intruder = await signedInCompany(t);
    ownerPubs = [await publish(owner), await publish(owner)];
    intruderPub = await publish(intruder);
    ownerWall = (await owner.get('/api/wall')).json<TWall>().slug;
    intruderWall = (await intruder.get('/api/wall')).json<TWall>().slug;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it("lists only its company's live publications, in the API and on the page", async () => {
    expect(ownerWall).not.toBe(intruderWall);
    expect((await slugsOn(ownerWall)).sort()).toEqual(ownerPubs.map((p) => p.slug).sort());
    expect(await slugsOn(intruderWall)).toEqual([intruderPub.slug]);
    const api = (await intruder.get('/api/wall')).json<TWall>();
    expect(api.items.map((i) => i.publicationId)).toEqual([intruderPub.id]);
    expect(JSON.stringify(api)).not.toContain(ownerPubs[0]!.id);
  });

  it("refuses another company's ids in PUT /api/wall, writing nothing", async () => {
    const before = await slugsOn(ownerWall);
    const beforeRows = await t.ctx.db.select().from(publications).where(eq(publications.companyId, owner.companyId));
    // The intruder names the owner's publications (to reorder or hide them) or mixes them with its own.
    for (const items of [[ownerPubs[1]!.id, ownerPubs[0]!.id], [intruderPub.id, ownerPubs[0]!.id], [ownerPubs[0]!.id]]) {
      const res = await put(intruder, items);
      expect(res.statusCode, JSON.stringify(items)).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found', reason: 'wall_item_unavailable' });
    }
    // The owner cannot add the intruder's video to its own wall either.
    expect((await put(owner, [ownerPubs[0]!.id, intruderPub.id])).statusCode).toBe(404);
    expect(await slugsOn(ownerWall)).toEqual(before);
    expect(await slugsOn(intruderWall)).toEqual([intruderPub.slug]);
    const afterRows = await t.ctx.db.select().from(publications).where(eq(publications.companyId, owner.companyId));
    expect(afterRows).toEqual(beforeRows);
    // The intruder's own call only touches its own rows.
    expect((await put(intruder, [])).statusCode).toBe(200);
    expect(await slugsOn(intruderWall)).toEqual([]);
    expect(await slugsOn(ownerWall)).toEqual(before);
  });

  it('drops a publication from the wall the moment it is taken down', async () => {
    const extra = await publish(owner);
    expect(await slugsOn(ownerWall)).toContain(extra.slug);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/publications/${extra.id}`, headers: owner.headers })).statusCode).toBe(204);
    expect(await slugsOn(ownerWall)).not.toContain(extra.slug);
    expect((await get(`/embed/wall/${ownerWall}`)).body).not.toContain(extra.slug);
    expect((await owner.get('/api/wall')).json<TWall>().items.map((i) => i.publicationId)).not.toContain(extra.id);
  });

  it('names no private media address in the wall HTML', async () => {
    for (const url of [`/wall/${ownerWall}`, `/embed/wall/${ownerWall}`]) {
      const body = (await get(url)).body;
      expect(body).toContain(ownerPubs[0]!.slug);
      expect(body).toContain(`poster="/v/${ownerPubs[0]!.slug}/poster.jpg"`);
      expect(body).not.toContain('/files/');
      expect(body).not.toMatch(/[?&](exp|sig|X-Amz-[A-Za-z]+)=/);
      for (const key of keys) expect(body).not.toContain(key);
      expect(body).not.toMatch(/companies\/[0-9a-f-]{36}\//);
      expect(body).not.toContain(t.config.dataDir);
      expect(body).not.toContain(owner.companyId);
    }
  });

  it('lets other sites frame the wall embed only', async () => {
    const embed = await get(`/embed/wall/${ownerWall}`);
    expect(embed.headers['content-security-policy']).toMatch(/(^|;)frame-ancestors \*(;|$)/);
    expect(embed.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(embed.headers['x-frame-options']).toBeUndefined();
    for (const url of [`/wall/${ownerWall}`, '/wall/unknown-aaaaaaaaaa', '/api/wall']) {
      const res = await get(url);
      expect(String(res.headers['content-security-policy']), url).toMatch(/frame-ancestors 'none'/);
      expect(res.headers['x-frame-options'], url).toBeDefined();
    }
  });

  it('cannot be listed by guessing: the readable part gives nothing away without ~52 random bits', async () => {
    expect(36 ** WALL_RANDOM_LENGTH).toBeGreaterThan(2 ** 51);
    const [row] = await t.ctx.db.select().from(walls).where(eq(walls.companyId, owner.companyId));
    const random = row!.slug.slice(-WALL_RANDOM_LENGTH);
    const readable = row!.slug.slice(0, -WALL_RANDOM_LENGTH);
    // The name alone, or the name with a neighbouring random part, is a 404 like any unknown wall.
    const unknown = await get('/wall/unknown-aaaaaaaaaa');
    for (const guess of [readable.replace(/-$/, ''), `${readable}${random.slice(0, -1)}${random.endsWith('a') ? 'b' : 'a'}`]) {
      const res = await get(`/wall/${guess}`);
      expect(res.statusCode, guess).toBe(404);
      expect(res.body).toBe(unknown.body);
    }
    const drawn = Array.from({ length: 3000 }, () => newWallSlug('Acme').slice(-WALL_RANDOM_LENGTH));
    expect(new Set(drawn).size).toBe(drawn.length);
    for (let i = 0; i < WALL_RANDOM_LENGTH; i += 1) expect(new Set(drawn.map((s) => s[i])).size, `position ${i}`).toBe(36);
  });

  it('refuses the wall API without a token', async () => {
    expect((await get('/api/wall')).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PUT', url: '/api/wall', headers: { 'content-type': 'application/json' }, payload: '{"items":[]}' })).statusCode).toBe(401);
  });
});
