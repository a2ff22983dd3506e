import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TViewSeriesResponse } from '../../../contract/api/views.schema.js';
import { publicationViewMarks, publicationViews, testimonialResponses, viewSalts } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { completedTestimonial } from '../../test/testimonials.js';
import { WindowCounters } from '../../http/rate-limit.js';
import { BEACON_SCRIPT, BEACON_SCRIPT_HASH, BEACON_SCRIPT_TAG } from './views.beacon.js';
import { inBackground, isBot, pruneViews, recordBeacon, utcDay, VIEW_CEILING_PER_MINUTE, viewWritesSettled } from './views.service.js';
import { mintViewToken, readViewToken, VIEW_TOKEN_TTL_MS, viewTokenKey } from './views.token.js';

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
  /** The view tokens of a page as a visitor fetches it (each player's `data-view-token`). */
  const tokensOf = async (url: string, ip = newAddress()) => {
    const page = await t.app.inject({ method: 'GET', url, remoteAddress: ip, headers: { 'user-agent': CHROME } });
    expect(page.statusCode, url).toBe(200);
    return [...page.body.matchAll(/data-view="([\w-]+)" data-view-token="([\w-]+)"/g)].map((m) => ({ slug: m[1]!, token: m[2]! }));
  };
  /** The token of the share page's player, as one visit gets it. */
  const tokenOf = async (slug: string) => (await tokensOf(`/v/${slug}`))[0]!.token;
  const key = () => viewTokenKey(t.ctx.secrets.jwt);
  const series = async (me: Company, url: string) => {
    const res = await me.get(url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<TViewSeriesResponse>();
  };

  it('counts each milestone once per page view (its token), from a JSON or a form body (as sendBeacon sends it), and answers 204 every time', async () => {
    const { me, tm, pub } = await published();
    const ip = newAddress();
    const token = await tokenOf(pub.slug);
    for (const milestone of ['started', 'p25', 'p50', 'p75', 'p100']) {
      const res = await beacon({ slug: pub.slug, milestone, token }, { ip, form: milestone !== 'started' });
      expect(res.statusCode, res.body).toBe(204);
      expect(res.body).toBe('');
    }
    // The same page view again (a replay, a hammering script, another browser with the same token): nothing more.
    for (let i = 0; i < 3; i++) expect((await beacon({ slug: pub.slug, milestone: 'started', token }, { ip })).statusCode).toBe(204);
    await beacon({ slug: pub.slug, milestone: 'p100', token }, { ip, ua: SAFARI });
    // Another page view at the same address, same browser, is another view; it stopped at half.
    const again = await tokenOf(pub.slug);
    await beacon({ slug: pub.slug, milestone: 'started', token: again }, { ip });
    await beacon({ slug: pub.slug, milestone: 'p25', token: again }, { ip });
    await beacon({ slug: pub.slug, milestone: 'p50', token: again }, { ip });

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

  it('counts a token once for its life, not after it expired, and by day (UTC)', async () => {
    const { me, pub } = await published();
    const ceiling = new WindowCounters();
    const morning = new Date();
    morning.setUTCHours(0, 5, 0, 0);
    const yesterday = new Date(morning.getTime() - 86_400_000);
    const at = (token: string, now: Date) => recordBeacon(t.ctx, { slug: pub.slug, milestone: 'started', token, ip: newAddress(), userAgent: CHROME, ceiling, now });
    const first = mintViewToken(key(), pub.slug, yesterday.getTime());
    expect(await at(first, yesterday)).toBe('counted');
    expect(await at(first, new Date(yesterday.getTime() + 60_000))).toBe('out-of-turn');
    expect(await at(first, new Date(yesterday.getTime() + VIEW_TOKEN_TTL_MS - 1000))).toBe('out-of-turn');
    // Past its life the token is refused before anything is looked up, even once its mark is pruned.
    await pruneViews(t.ctx, new Date(yesterday.getTime() + VIEW_TOKEN_TTL_MS + 1000));
    expect(await at(first, new Date(yesterday.getTime() + VIEW_TOKEN_TTL_MS + 1000))).toBe('no-token');
    expect(await at(mintViewToken(key(), pub.slug, yesterday.getTime() + 3_600_000), new Date(yesterday.getTime() + 3_600_000))).toBe('counted');
    // A token issued just before midnight counts once across it (its marks are salted with its own day's salt).
    const lateToken = mintViewToken(key(), pub.slug, morning.getTime() - 10 * 60_000);
    expect(await at(lateToken, morning)).toBe('counted');
    expect(await at(lateToken, new Date(morning.getTime() + 60_000))).toBe('out-of-turn');

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

  it('keeps nothing personal: the marks are hashes that expire with their token and are pruned; the salts go the day after', async () => {
    const { pub } = await published();
    const ip = '203.0.113.77';
    const token = await tokenOf(pub.slug);
    const nonce = readViewToken(key(), pub.slug, token)!.nonce;
    expect(await recordBeacon(t.ctx, { slug: pub.slug, milestone: 'started', token, ip, userAgent: CHROME, ceiling: new WindowCounters() })).toBe('counted');
    const marks = await t.ctx.db.select().from(publicationViewMarks);
    expect(marks.length).toBeGreaterThan(0);
    for (const m of marks) {
      expect(m.mark).toMatch(/^[\w-]{43}:(started|p25|p50|p75|p100)$/);
      expect(m.mark).not.toContain(ip);
      expect(m.mark).not.toContain(pub.slug);
      expect(m.mark).not.toContain(nonce);
    }
    // Neither the address, the browser nor the token is anywhere in the tables of views.
    const dump = JSON.stringify([await t.ctx.db.select().from(publicationViews), marks]);
    for (const secret of [ip, 'Chrome', token, nonce]) expect(dump).not.toContain(secret);
    // A plain hash of the nonce is not what is kept (a daily random salt is in it).
    const unsalted = createHash('sha256').update(`${nonce}\n${pub.slug}`).digest('base64url');
    expect(marks.some((m) => m.mark.startsWith(unsalted))).toBe(false);
    // A mark lives as long as its token, no longer.
    const mine = marks.filter((m) => m.expiresAt.getTime() <= Date.now() + VIEW_TOKEN_TTL_MS);
    expect(mine.length).toBeGreaterThan(0);

    const later = new Date(Date.now() + VIEW_TOKEN_TTL_MS + 60_000);
    await pruneViews(t.ctx, later);
    expect(await t.ctx.db.select().from(publicationViewMarks)).toEqual([]);
    await pruneViews(t.ctx, new Date(Date.now() + 3 * 86_400_000));
    expect(await t.ctx.db.select().from(viewSalts)).toEqual([]);
  });

  it('counts the milestones in order: each only after the one before it, for the same token', async () => {
    const { me, pub } = await published();
    const ceiling = new WindowCounters();
    const ip = newAddress();
    const send = (token: string, milestone: 'started' | 'p25' | 'p50' | 'p75' | 'p100') =>
      recordBeacon(t.ctx, { slug: pub.slug, milestone, token, ip, userAgent: CHROME, ceiling });
    const token = await tokenOf(pub.slug);
    expect(await send(token, 'p100')).toBe('out-of-turn');
    expect(await send(token, 'p25')).toBe('out-of-turn');
    expect(await send(token, 'started')).toBe('counted');
    expect(await send(token, 'p50')).toBe('out-of-turn');
    expect(await send(token, 'p25')).toBe('counted');
    expect(await send(token, 'p50')).toBe('counted');
    expect(await send(token, 'p100')).toBe('out-of-turn');
    // Another page view's started does not open the later milestones of this one, nor the reverse.
    const other = await tokenOf(pub.slug);
    expect(await send(other, 'p25')).toBe('out-of-turn');
    expect((await series(me, `/api/publications/${pub.id}/views`)).totals).toEqual({ started: 1, p25: 1, p50: 1, p75: 0, p100: 0 });
  });

  it('counts a whole play sent at once (a player reaching the end) in order, beacons of one token written one after the other', async () => {
    const { me, pub } = await published();
    const ip = newAddress();
    const token = await tokenOf(pub.slug);
    const send = (milestone: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/publications/views',
        remoteAddress: ip,
        headers: { 'user-agent': CHROME, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ slug: pub.slug, milestone, token }).toString(),
      });
    const answers = await Promise.all(['started', 'p25', 'p50', 'p75', 'p100'].map(send));
    expect(answers.map((a) => a.statusCode)).toEqual([204, 204, 204, 204, 204]);
    await viewWritesSettled();
    expect((await series(me, `/api/publications/${pub.id}/views`)).totals).toEqual({ started: 1, p25: 1, p50: 1, p75: 1, p100: 1 });
  });

  it('writes the beacons of one viewer one after the other, in the order they came, and those of others alongside', async () => {
    const order: string[] = [];
    const slow = (name: string, ms: number) => async () => {
      order.push(`${name} began`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      order.push(`${name} ended`);
    };
    inBackground(t.ctx, slow('a1', 40), 'viewer-a');
    inBackground(t.ctx, slow('a2', 1), 'viewer-a');
    inBackground(t.ctx, slow('b1', 1), 'viewer-b');
    await viewWritesSettled();
    // a2 waited for a1; b1 did not wait for anyone.
    expect(order.indexOf('a2 began')).toBeGreaterThan(order.indexOf('a1 ended'));
    expect(order.indexOf('b1 ended')).toBeLessThan(order.indexOf('a1 ended'));
  });

  it('counts at most the ceiling per address, publication, milestone and minute, and gives the ceiling back for what did not count', async () => {
    const { pub } = await published();
    const ceiling = new WindowCounters();
    const ip = newAddress();
    const now = new Date();
    const send = (token: string, milestone: 'started' | 'p25', at = now, from = ip) =>
      recordBeacon(t.ctx, { slug: pub.slug, milestone, token, ip: from, userAgent: CHROME, ceiling, now: at });
    const tokens = Array.from({ length: VIEW_CEILING_PER_MINUTE + 3 }, () => mintViewToken(key(), pub.slug, now.getTime()));
    // A p25 out of turn does not use up the ceiling.
    for (const token of tokens) expect(await send(token, 'p25')).toBe('out-of-turn');
    const outcomes = await Promise.all(tokens.map((token) => send(token, 'started')));
    expect(outcomes.filter((o) => o === 'counted')).toHaveLength(VIEW_CEILING_PER_MINUTE);
    expect(outcomes.filter((o) => o === 'ceiling')).toHaveLength(3);
    // Another address, or the next minute, has a ceiling of its own.
    expect(await send(mintViewToken(key(), pub.slug, now.getTime()), 'started', now, newAddress())).toBe('counted');
    expect(await send(mintViewToken(key(), pub.slug, now.getTime()), 'started', new Date(now.getTime() + 61_000))).toBe('counted');
    // The viewers past the ceiling had no started counted: their p25 does not count either.
    const refused = tokens.filter((_, i) => outcomes[i] === 'ceiling');
    for (const token of refused) expect(await send(token, 'p25', new Date(now.getTime() + 61_000))).toBe('out-of-turn');
  });

  it('does not count a bot, a taken-down or an unknown slug, and answers them the same', async () => {
    const { me, pub } = await published();
    const ip = newAddress();
    const token = await tokenOf(pub.slug);
    for (const ua of ['Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', 'facebookexternalhit/1.1', 'Mozilla/5.0 (compatible; Googlebot/2.1)', CHROME.replace('Chrome/', 'HeadlessChrome/'), 'curl/8.5.0', '']) {
      expect((await beacon({ slug: pub.slug, milestone: 'started', token }, { ip, ua })).statusCode, ua).toBe(204);
    }
    expect((await series(me, `/api/publications/${pub.id}/views`)).totals.started).toBe(0);
    expect(isBot(CHROME)).toBe(false);
    expect(isBot(SAFARI)).toBe(false);
    expect(isBot('LinkedInBot/1.0')).toBe(true);
    expect(isBot('Twitterbot/1.0')).toBe(true);

    const unknownSlug = 'AAAAAAAAAAAAAAAAAAAAAA';
    const unknown = await beacon({ slug: unknownSlug, milestone: 'started', token: mintViewToken(key(), unknownSlug) }, { ip });
    expect((await t.app.inject({ method: 'DELETE', url: `/api/publications/${pub.id}`, headers: me.headers })).statusCode).toBe(204);
    const takenDown = await beacon({ slug: pub.slug, milestone: 'started', token }, { ip });
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
    const longToken = await beacon({ slug: 'AAAAAAAAAAAAAAAAAAAAAA', milestone: 'started', token: 'x'.repeat(101) }, { ip });
    expect(longToken.statusCode).toBe(400);
    expect(longToken.json()).toMatchObject({ code: 'invalid_data', field: 'token' });
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

  it('puts the beacon on the share page and the embed, allowed by its hash alone, small, with a fresh token for this publication on each visit', async () => {
    const { pub } = await published();
    const seen = new Set<string>();
    for (const url of [`/v/${pub.slug}`, `/embed/${pub.slug}`, `/v/${pub.slug}`]) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(BEACON_SCRIPT_TAG.value);
      expect(page.body.match(/<script/g)).toHaveLength(1);
      expect(page.body).toMatch(new RegExp(`<video [^>]*data-view="${pub.slug}" data-view-token="[\\w-]{43}"`));
      const csp = String(page.headers['content-security-policy']);
      const scriptSrc = /script-src ([^;]*)/.exec(csp)![1]!.split(' ');
      expect(scriptSrc).toEqual(["'self'", BEACON_SCRIPT_HASH]);
      expect(csp).toMatch(/connect-src 'self'/);
      const token = /data-view-token="([\w-]+)"/.exec(page.body)![1]!;
      expect(seen.has(token)).toBe(false);
      seen.add(token);
      // Signed by this server for this publication, for two hours; for no other slug.
      const read = readViewToken(key(), pub.slug, token)!;
      expect(read).not.toBeNull();
      expect(read.expiresAt.getTime() - read.issuedAt.getTime()).toBe(VIEW_TOKEN_TTL_MS);
      expect(Math.abs(read.issuedAt.getTime() - Date.now())).toBeLessThan(5000);
      expect(readViewToken(key(), 'AAAAAAAAAAAAAAAAAAAAAA', token)).toBeNull();
    }
    // The script sends the player's token with its slug and milestone; a few hundred bytes.
    expect(BEACON_SCRIPT).toContain('token:v.dataset.viewToken');
    expect(Buffer.byteLength(BEACON_SCRIPT)).toBeLessThan(700);
    // The unknown slug's page has no player, and no script.
    const missing = await t.app.inject({ method: 'GET', url: '/v/AAAAAAAAAAAAAAAAAAAAAA' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).not.toContain('<script');
  });

  it('puts a token of its own publication on every player of the wall and its embed', async () => {
    const { me, tm, pub } = await published();
    // A second publication of the same answer: two cards.
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));
    const second = await me.post('/api/publications', { testimonialId: tm.id, responseId: response!.id });
    expect(second.statusCode, second.body).toBe(201);
    const one = { pub };
    const two = { pub: second.json<{ slug: string }>() };
    const { slug } = (await me.get('/api/wall')).json<{ slug: string }>();
    for (const url of [`/wall/${slug}`, `/embed/wall/${slug}`]) {
      const players = await tokensOf(url);
      expect(players.map((p) => p.slug).sort(), url).toEqual([one.pub.slug, two.pub.slug].sort());
      for (const p of players) {
        expect(readViewToken(key(), p.slug, p.token), url).not.toBeNull();
        expect(readViewToken(key(), p.slug === one.pub.slug ? two.pub.slug : one.pub.slug, p.token)).toBeNull();
      }
    }
  });
});

describe('view tokens', () => {
  const key = viewTokenKey('a-server-secret-of-at-least-thirty-two-characters');
  const slug = 'Q2xhaXJlRHVib2lzLXZpZGVv';

  it('reads back only what this key signed for this slug, while it lives', () => {
    const now = Date.UTC(2026, 10, 27, 12);
    const token = mintViewToken(key, slug, now);
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(readViewToken(key, slug, token, now)).toMatchObject({ issuedAt: new Date(Math.floor(now / 1000) * 1000), expiresAt: new Date(Math.floor(now / 1000) * 1000 + VIEW_TOKEN_TTL_MS) });
    expect(readViewToken(key, slug, token, now + VIEW_TOKEN_TTL_MS - 1000)).not.toBeNull();
    // Expired, or issued too far ahead of this clock.
    expect(readViewToken(key, slug, token, now + VIEW_TOKEN_TTL_MS)).toBeNull();
    expect(readViewToken(key, slug, token, now - 5 * 60_000)).toBeNull();
    // Another slug, another key, the server secret itself as the key.
    expect(readViewToken(key, `${slug}x`, token, now)).toBeNull();
    expect(readViewToken(viewTokenKey('another-server-secret-of-at-least-32-chars'), slug, token, now)).toBeNull();
    expect(readViewToken(Buffer.from('a-server-secret-of-at-least-thirty-two-characters'), slug, token, now)).toBeNull();
    // Any changed character, a later time written in by hand, garbage, nothing.
    const bytes = Buffer.from(token, 'base64url');
    for (const i of [0, 3, 4, 15, 16, 31]) {
      const forged = Buffer.from(bytes);
      forged[i]! ^= 1;
      expect(readViewToken(key, slug, forged.toString('base64url'), now), `byte ${i}`).toBeNull();
    }
    for (const bad of [undefined, '', 'undefined', token.slice(1), `${token}A`, '!'.repeat(43)]) expect(readViewToken(key, slug, bad, now)).toBeNull();
    // Each token has its own nonce.
    expect(readViewToken(key, slug, mintViewToken(key, slug, now), now)!.nonce).not.toBe(readViewToken(key, slug, token, now)!.nonce);
  });
});
