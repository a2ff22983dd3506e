import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TViewSeriesResponse } from '../../../contract/api/views.schema.js';
import { publicationViewMarks, publicationViews, testimonialResponses, viewSalts } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { completedTestimonial } from '../../test/testimonials.js';
import { BEACON_SCRIPT, BEACON_SCRIPT_HASH, BEACON_SCRIPT_TAG } from './views.beacon.js';
import { isBot, pruneViews, recordBeacon, utcDay, VIEW_DEDUP_MS, viewWritesSettled } from './views.service.js';

type Company = Awaited<ReturnType<typeof signedInCompany>>;

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

describe('view analytics', () => {
  let t: TestApp;
  let address = 0;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  /** A live publication of a paid testimonial's answer (it plays from its upload: no worker here). */
  async function published(me?: Company) {
    me ??= await signedInCompany(t);
    const tm = await completedTestimonial(t, me);
    expect((await me.post(`/api/testimonials/pay/${tm.id}`)).statusCode).toBe(200);
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));
    await t.ctx.db.update(testimonialResponses).set({ videoKey: response!.originalKey }).where(eq(testimonialResponses.id, response!.id));
    const created = await me.post('/api/publications', { testimonialId: tm.id, responseId: response!.id });
    expect(created.statusCode, created.body).toBe(201);
    return { me, tm, pub: created.json<{ id: string; slug: string }>() };
  }

  /** A beacon from its own address (each test its own, so the per-address limits of others do not count). */
  async function beacon(body: unknown, options: { ua?: string; ip?: string; form?: boolean } = {}) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/publications/views',
      remoteAddress: options.ip ?? '198.51.100.1',
      headers: {
        'user-agent': options.ua ?? CHROME,
        'content-type': options.form ? 'application/x-www-form-urlencoded;charset=UTF-8' : 'application/json',
      },
      payload: options.form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body),
    });
    await viewWritesSettled();
    return res;
  }
  const newAddress = () => `198.51.100.${++address}`;
  const series = async (me: Company, url: string) => {
    const res = await me.get(url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<TViewSeriesResponse>();
  };

  it('counts each milestone once per viewer, from a JSON or a form body (as sendBeacon sends it), and answers 204 every time', async () => {
    const { me, tm, pub } = await published();
    const ip = newAddress();
    for (const milestone of ['started', 'p25', 'p50', 'p75', 'p100']) {
      const res = await beacon({ slug: pub.slug, milestone }, { ip, form: milestone !== 'started' });
      expect(res.statusCode, res.body).toBe(204);
      expect(res.body).toBe('');
    }
    // The same viewer again (a reload, a replay, a hammering script): nothing more.
    for (let i = 0; i < 3; i++) expect((await beacon({ slug: pub.slug, milestone: 'started' }, { ip })).statusCode).toBe(204);
    // Another browser at the same address is another viewer; it stopped at half.
    await beacon({ slug: pub.slug, milestone: 'started' }, { ip, ua: SAFARI });
    await beacon({ slug: pub.slug, milestone: 'p25' }, { ip, ua: SAFARI });
    await beacon({ slug: pub.slug, milestone: 'p50' }, { ip, ua: SAFARI });

    const views = await series(me, `/api/publications/${pub.id}/views?days=7`);
    expect(views.days).toHaveLength(7);
    expect(views.days.at(-1)).toEqual({ day: utcDay(new Date()), started: 2, p25: 2, p50: 2, p75: 1, p100: 1, completed: 1 });
    expect(views.days.slice(0, 6).every((d) => d.started === 0)).toBe(true);
    expect(views.totals).toEqual({ started: 2, p25: 2, p50: 2, p75: 1, p100: 1 });
    expect(views.published).toBe(1);

    // The same numbers in the publications list, the testimonial's series and the plays per testimonial.
    const list = (await me.get(`/api/publications?testimonialId=${tm.id}`)).json<{ publications: { id: string; views: number; viewCounts: unknown }[] }>();
    expect(list.publications).toEqual([expect.objectContaining({ id: pub.id, views: 2, viewCounts: { started: 2, p25: 2, p50: 2, p75: 1, p100: 1 } })]);
    expect((await series(me, `/api/testimonials/${tm.id}/views`)).totals.started).toBe(2);
    expect((await series(me, `/api/testimonials/${tm.id}/views`)).days).toHaveLength(30);
    expect((await me.get('/api/publications/plays')).json()).toEqual({ testimonials: [{ testimonialId: tm.id, plays: 2 }] });
  });

  it('counts the same viewer again once its window has passed, and by day (UTC)', async () => {
    const { me, pub } = await published();
    const input = { slug: pub.slug, milestone: 'started' as const, ip: newAddress(), userAgent: CHROME };
    const morning = new Date();
    morning.setUTCHours(0, 5, 0, 0);
    const yesterday = new Date(morning.getTime() - 86_400_000);
    expect(await recordBeacon(t.ctx, { ...input, now: yesterday })).toBe('counted');
    expect(await recordBeacon(t.ctx, { ...input, now: new Date(yesterday.getTime() + 60_000) })).toBe('repeat');
    expect(await recordBeacon(t.ctx, { ...input, now: new Date(yesterday.getTime() + VIEW_DEDUP_MS - 1000) })).toBe('repeat');
    expect(await recordBeacon(t.ctx, { ...input, now: new Date(yesterday.getTime() + VIEW_DEDUP_MS + 1000) })).toBe('counted');
    expect(await recordBeacon(t.ctx, { ...input, now: morning })).toBe('counted');

    const views = await series(me, `/api/publications/${pub.id}/views?days=2`);
    // Today's row exists only when the test runs before midnight's roll-over; yesterday's is there.
    const byDay = Object.fromEntries(views.days.map((d) => [d.day, d.started]));
    if (utcDay(morning) === utcDay(new Date())) {
      expect(byDay).toEqual({ [utcDay(yesterday)]: 2, [utcDay(morning)]: 1 });
    }
    expect(views.totals.started).toBe(3);
    const rows = await t.ctx.db.select().from(publicationViews).where(eq(publicationViews.publicationId, pub.id));
    expect(rows.map((r) => [r.day, r.started]).sort()).toEqual([
      [utcDay(yesterday), 2],
      [utcDay(morning), 1],
    ]);
  });

  it('keeps nothing personal: the marks are hashes that expire and are pruned; the salts go the day after', async () => {
    const { pub } = await published();
    const ip = '203.0.113.77';
    await recordBeacon(t.ctx, { slug: pub.slug, milestone: 'p50', ip, userAgent: CHROME });
    const marks = await t.ctx.db.select().from(publicationViewMarks);
    expect(marks.length).toBeGreaterThan(0);
    for (const m of marks) {
      expect(m.mark).toMatch(/^[\w-]{43}:(started|p25|p50|p75|p100)$/);
      expect(m.mark).not.toContain(ip);
      expect(m.mark).not.toContain(pub.slug);
    }
    // Neither the address nor the browser is anywhere in the tables of views.
    const dump = JSON.stringify([await t.ctx.db.select().from(publicationViews), marks]);
    expect(dump).not.toContain(ip);
    expect(dump).not.toContain('Chrome');
    // A plain hash of the address and browser is not what is kept (a daily random salt is in it).
    const unsalted = createHash('sha256').update(`${ip}\n${CHROME}\n${pub.slug}`).digest('base64url');
    expect(marks.some((m) => m.mark.startsWith(unsalted))).toBe(false);

    const later = new Date(Date.now() + VIEW_DEDUP_MS + 60_000);
    await pruneViews(t.ctx, later);
    expect(await t.ctx.db.select().from(publicationViewMarks)).toEqual([]);
    await pruneViews(t.ctx, new Date(Date.now() + 3 * 86_400_000));
    expect(await t.ctx.db.select().from(viewSalts)).toEqual([]);
  });

  it('does not count a bot, a taken-down or an unknown slug, and answers them the same', async () => {
    const { me, pub } = await published();
    const ip = newAddress();
    for (const ua of ['Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', 'facebookexternalhit/1.1', 'Mozilla/5.0 (compatible; Googlebot/2.1)', CHROME.replace('Chrome/', 'HeadlessChrome/'), 'curl/8.5.0', '']) {
      expect((await beacon({ slug: pub.slug, milestone: 'started' }, { ip, ua })).statusCode, ua).toBe(204);
    }
    expect((await series(me, `/api/publications/${pub.id}/views`)).totals.started).toBe(0);
    expect(isBot(CHROME)).toBe(false);
    expect(isBot(SAFARI)).toBe(false);
    expect(isBot('LinkedInBot/1.0')).toBe(true);
    expect(isBot('Twitterbot/1.0')).toBe(true);

    const unknown = await beacon({ slug: 'AAAAAAAAAAAAAAAAAAAAAA', milestone: 'started' }, { ip });
    expect((await t.app.inject({ method: 'DELETE', url: `/api/publications/${pub.id}`, headers: me.headers })).statusCode).toBe(204);
    const takenDown = await beacon({ slug: pub.slug, milestone: 'started' }, { ip });
    for (const res of [unknown, takenDown]) {
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
    }
    const after = await series(me, `/api/publications/${pub.id}/views`);
    expect(after.totals.started).toBe(0);
    expect(after.published).toBe(0);
  });

  it('refuses an invalid beacon with 400 naming the field, in the error shape of the API', async () => {
    const ip = newAddress();
    const noMilestone = await beacon({ slug: 'AAAAAAAAAAAAAAAAAAAAAA' }, { ip });
    expect(noMilestone.statusCode).toBe(400);
    expect(noMilestone.json()).toMatchObject({ code: 'invalid_data', field: 'milestone', error: expect.any(String) });
    const badMilestone = await beacon({ slug: 'AAAAAAAAAAAAAAAAAAAAAA', milestone: 'p33' }, { ip, form: true });
    expect(badMilestone.statusCode).toBe(400);
    expect(badMilestone.json()).toMatchObject({ code: 'invalid_data', field: 'milestone' });
    const badSlug = await beacon({ slug: '../../etc', milestone: 'started' }, { ip });
    expect(badSlug.statusCode).toBe(400);
    expect(badSlug.json()).toMatchObject({ code: 'invalid_data', field: 'slug' });
    const text = await t.app.inject({ method: 'POST', url: '/api/publications/views', remoteAddress: ip, headers: { 'content-type': 'text/plain' }, payload: 'x' });
    expect(text.statusCode).toBe(415);
  });

  it("keeps each company's views to itself: another company's publication or testimonial is a 404", async () => {
    const { pub, tm } = await published();
    const other = await signedInCompany(t);
    for (const url of [`/api/publications/${pub.id}/views`, `/api/testimonials/${tm.id}/views`]) {
      const res = await other.get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
    }
    expect((await other.get('/api/publications/plays')).json()).toEqual({ testimonials: [] });
    expect((await other.get(`/api/publications/${pub.id}/views?days=91`)).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/api/publications/${pub.id}/views` })).statusCode).toBe(401);
  });

  it('puts the beacon on the share page and the embed, allowed by its hash alone, small', async () => {
    const { pub } = await published();
    for (const url of [`/v/${pub.slug}`, `/embed/${pub.slug}`]) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(BEACON_SCRIPT_TAG);
      expect(page.body.match(/<script/g)).toHaveLength(1);
      expect(page.body).toMatch(new RegExp(`<video [^>]*data-view="${pub.slug}"`));
      const csp = String(page.headers['content-security-policy']);
      const scriptSrc = /script-src ([^;]*)/.exec(csp)![1]!.split(' ');
      expect(scriptSrc).toEqual(["'self'", BEACON_SCRIPT_HASH]);
      expect(csp).toMatch(/connect-src 'self'/);
    }
    // A few hundred bytes.
    expect(Buffer.byteLength(BEACON_SCRIPT)).toBeLessThan(700);
    // The unknown slug's page has no player, and no script.
    const missing = await t.app.inject({ method: 'GET', url: '/v/AAAAAAAAAAAAAAAAAAAAAA' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).not.toContain('<script');
  });
});
