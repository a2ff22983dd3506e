/**
 * View analytics (issues 19 and 26), attacked: the beacon is public, so anyone can send it. A view counts
 * only with the signed token of a page we served for that publication (decision 155), in order, at most
 * VIEW_CEILING_PER_MINUTE times per address, publication, milestone and minute. Replayed here: the three
 * attacks of issue 26 (a new user agent for each beacon; three addresses counting dozens of plays in a
 * third of a second; a cross-site page with no video counting a full play, and p100 without a start),
 * then tokens forged, expired or of another publication, a foreign Origin, scripted inflation with a
 * fresh page for every play, one client hammering the beacon (the rate limit), bots, and an unknown or
 * taken-down slug (the same answer as a live one: no oracle of which slugs exist).
 */
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TViewCounts, TViewSeriesResponse } from '../../src/contract/api/views.schema.js';
import { testimonialResponses } from '../../src/server/db/schema.js';
import { newSlug } from '../../src/server/modules/publications/publications.service.js';
import { BEACONS_PER_ADDRESS_AND_SLUG } from '../../src/server/modules/publications/views.routes.js';
import { VIEW_CEILING_PER_MINUTE, viewWritesSettled } from '../../src/server/modules/publications/views.service.js';
import { mintViewToken, VIEW_TOKEN_TTL_MS, viewTokenKey } from '../../src/server/modules/publications/views.token.js';
import { signedInCompany } from '../../src/server/test/accounts.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';
import { completedTestimonial } from '../../src/server/test/testimonials.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const MILESTONES = ['started', 'p25', 'p50', 'p75', 'p100'] as const;
/** The app's own origin in the test harness (APP_URL). */
const APP_ORIGIN = 'http://app.test';

describe('view beacons', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInCompany>>;
  let live: { id: string; slug: string }[];
  let takenDown: { id: string; slug: string };
  let next = 0;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInCompany(t);
    const tm = await completedTestimonial(t, owner);
    expect((await owner.post(`/api/testimonials/pay/${tm.id}`)).statusCode).toBe(200);
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, tm.id));
    await t.ctx.db.update(testimonialResponses).set({ videoKey: response!.originalKey }).where(eq(testimonialResponses.id, response!.id));
    const publish = async () => {
      const res = await owner.post('/api/publications', { testimonialId: tm.id, responseId: response!.id });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ id: string; slug: string }>();
    };
    live = [];
    for (let i = 0; i < 16; i++) live.push(await publish());
    takenDown = await publish();
    expect((await t.app.inject({ method: 'DELETE', url: `/api/publications/${takenDown.id}`, headers: owner.headers })).statusCode).toBe(204);
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A publication of its own for each test, so that the counts and ceilings of one do not reach another. */
  const fresh = () => live[next++]!;

  const beacon = (slug: string, options: { ip: string; ua?: string; milestone?: string; token?: string; origin?: string }) =>
    t.app.inject({
      method: 'POST',
      url: '/api/publications/views',
      remoteAddress: options.ip,
      headers: {
        'user-agent': options.ua ?? CHROME,
        'content-type': 'application/x-www-form-urlencoded',
        ...(options.origin ? { origin: options.origin } : {}),
      },
      payload: new URLSearchParams({ slug, milestone: options.milestone ?? 'started', ...(options.token !== undefined ? { token: options.token } : {}) }).toString(),
    });
  /** What a visitor's browser gets: the share page (or the embed), with its player's token. */
  const visit = async (slug: string, ip: string, embed = false) => {
    const page = await t.app.inject({ method: 'GET', url: `/${embed ? 'embed' : 'v'}/${slug}`, remoteAddress: ip, headers: { 'user-agent': CHROME } });
    expect(page.statusCode).toBe(200);
    return /data-view-token="([\w-]+)"/.exec(page.body)![1]!;
  };
  const counts = async (id: string): Promise<TViewCounts> => {
    await viewWritesSettled();
    return (await owner.get(`/api/publications/${id}/views`)).json<TViewSeriesResponse>().totals;
  };
  const ZERO = { started: 0, p25: 0, p50: 0, p75: 0, p100: 0 };

  it('issue 26, attack 1: 25 beacons with a new user agent each, on the token of one page, count one view', async () => {
    const pub = fresh();
    const ip = '192.0.2.10';
    const token = await visit(pub.slug, ip);
    // All at once, as the attack sent them (in 0.4 s), a new browser for each.
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => beacon(pub.slug, { ip: `192.0.2.${11 + (i % 5)}`, ua: `${CHROME} Forged/${i}`, token })));
    expect(answers.every((a) => a.statusCode === 204)).toBe(true);
    expect(await counts(pub.id)).toEqual({ ...ZERO, started: 1 });
    // Each milestone once more, each from a new browser: once each, in order.
    for (const [i, milestone] of MILESTONES.entries()) {
      for (let j = 0; j < 3; j++) await beacon(pub.slug, { ip, ua: `${CHROME} Again/${i}.${j}`, token, milestone });
    }
    expect(await counts(pub.id)).toEqual({ started: 1, p25: 1, p50: 1, p75: 1, p100: 1 });
  });

  it('issue 26, attack 2: three addresses sending plays as fast as they can count at most the ceiling each', async () => {
    const pub = fresh();
    const addresses = ['192.0.2.20', '192.0.2.21', '192.0.2.22'];
    // The attack counted 45 plays and 15 completions in 0.34 s. Replayed with a fresh page (token) for
    // every play, the attacker's best: 20 tokens per address, a `started` of each at once (20 beacons,
    // under the per-address rate limit, so that only the ceiling can stop them).
    const tokens = await Promise.all(addresses.map((ip) => Promise.all(Array.from({ length: 20 }, () => visit(pub.slug, ip)))));
    const answers = await Promise.all(addresses.flatMap((ip, a) => tokens[a]!.map((token) => beacon(pub.slug, { ip, token }))));
    expect(answers.every((r) => r.statusCode === 204)).toBe(true);
    const after = await counts(pub.id);
    expect(after.started).toBe(3 * VIEW_CEILING_PER_MINUTE);
    // Then whole plays, all at once, four per address on another publication (20 beacons an address, the
    // per-address rate limit's share of one publication): whatever order they arrive in, no milestone
    // passes the ceiling and none counts for a viewer whose start did not (the funnel holds).
    const other = fresh();
    const plays = await Promise.all(addresses.map((ip) => Promise.all(Array.from({ length: 4 }, () => visit(other.slug, ip)))));
    const sent = await Promise.all(
      addresses.flatMap((ip, a) => plays[a]!.flatMap((token) => MILESTONES.map((milestone) => beacon(other.slug, { ip, token, milestone })))),
    );
    expect(sent.every((r) => r.statusCode === 204)).toBe(true);
    const played = await counts(other.id);
    for (const milestone of MILESTONES) expect(played[milestone], milestone).toBeLessThanOrEqual(3 * VIEW_CEILING_PER_MINUTE);
    expect(played.p100).toBeLessThanOrEqual(played.p75);
    expect(played.p75).toBeLessThanOrEqual(played.p50);
    expect(played.p50).toBeLessThanOrEqual(played.p25);
    expect(played.p25).toBeLessThanOrEqual(played.started);
    expect(played.started).toBe(12);
  });

  it('issue 26, attack 3: a cross-site page with no video counts nothing, nor does p100 without a start', async () => {
    const pub = fresh();
    // The page of another site, which never fetched ours: refused by its Origin, with or without a token.
    for (const milestone of MILESTONES) {
      const refused = await beacon(pub.slug, { ip: '192.0.2.30', milestone, origin: 'https://attacker.example' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'no_permission', error: expect.any(String) });
    }
    // The same from a script that sends no Origin: answered as always, counted never (no token).
    for (const milestone of MILESTONES) expect((await beacon(pub.slug, { ip: '192.0.2.31', milestone })).statusCode).toBe(204);
    expect(await counts(pub.id)).toEqual(ZERO);
    // With a real token from the page, but a p100 that no start came before: nothing.
    const token = await visit(pub.slug, '192.0.2.32');
    expect((await beacon(pub.slug, { ip: '192.0.2.32', milestone: 'p100', token })).statusCode).toBe(204);
    expect(await counts(pub.id)).toEqual(ZERO);
  });

  it('counts nothing without a token, with a forged, expired or future one, or with the token of another publication', async () => {
    const pub = fresh();
    const other = live[0]!;
    const ip = '192.0.2.40';
    const key = viewTokenKey(t.ctx.secrets.jwt);
    const real = await visit(pub.slug, ip);
    const flipped = Buffer.from(real, 'base64url');
    flipped[20]! ^= 1;
    const bad = [
      undefined,
      '',
      'undefined',
      flipped.toString('base64url'),
      // Signed with the server secret itself, not the key derived from it.
      mintViewToken(Buffer.from(t.ctx.secrets.jwt), pub.slug),
      mintViewToken(key, pub.slug, Date.now() - VIEW_TOKEN_TTL_MS - 1000),
      mintViewToken(key, pub.slug, Date.now() + 10 * 60_000),
      await visit(other.slug, ip),
      await visit(other.slug, ip, true),
    ];
    for (const [i, token] of bad.entries()) {
      const res = await beacon(pub.slug, { ip, token });
      expect(res.statusCode, `token ${i}`).toBe(204);
    }
    expect(await counts(pub.id)).toEqual(ZERO);
    // The real one, from the embed as from the share page, counts.
    expect((await beacon(pub.slug, { ip, token: real })).statusCode).toBe(204);
    expect((await beacon(pub.slug, { ip, token: await visit(pub.slug, ip, true) })).statusCode).toBe(204);
    expect((await counts(pub.id)).started).toBe(2);
  });

  it('counts the milestones only in order', async () => {
    const pub = fresh();
    const ip = '192.0.2.50';
    const token = await visit(pub.slug, ip);
    for (const milestone of ['p50', 'p25', 'p75', 'p100']) await beacon(pub.slug, { ip, token, milestone });
    expect(await counts(pub.id)).toEqual(ZERO);
    await beacon(pub.slug, { ip, token, milestone: 'started' });
    // A skipped quarter stops the rest.
    for (const milestone of ['p50', 'p75', 'p100']) await beacon(pub.slug, { ip, token, milestone });
    expect(await counts(pub.id)).toEqual({ ...ZERO, started: 1 });
    for (const milestone of ['p25', 'p50', 'p75', 'p100']) await beacon(pub.slug, { ip, token, milestone });
    expect(await counts(pub.id)).toEqual({ started: 1, p25: 1, p50: 1, p75: 1, p100: 1 });
  });

  it("refuses a beacon with a foreign Origin (403), and accepts our own origin's and none", async () => {
    const pub = fresh();
    const ip = '192.0.2.60';
    for (const origin of ['https://attacker.example', 'null', 'http://app.test.attacker.example', 'https://app.test', 'http://app.test:8080']) {
      const res = await beacon(pub.slug, { ip, origin, token: await visit(pub.slug, ip) });
      expect(res.statusCode, origin).toBe(403);
      expect(res.json()).toMatchObject({ code: 'no_permission', error: expect.any(String) });
    }
    expect(await counts(pub.id)).toEqual(ZERO);
    expect((await beacon(pub.slug, { ip, origin: APP_ORIGIN, token: await visit(pub.slug, ip) })).statusCode).toBe(204);
    expect((await beacon(pub.slug, { ip, token: await visit(pub.slug, ip) })).statusCode).toBe(204);
    expect((await counts(pub.id)).started).toBe(2);
  });

  it('bounds scripted inflation: a fresh page for every play adds at most the ceiling per address and minute', async () => {
    const pub = fresh();
    const ip = '192.0.2.70';
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    // Minute 1: 10 page fetches and 10 plays started at once from one address.
    const send = async (n: number) => {
      const tokens = await Promise.all(Array.from({ length: n }, () => visit(pub.slug, ip)));
      return Promise.all(tokens.map((token) => beacon(pub.slug, { ip, token })));
    };
    expect((await send(10)).every((r) => r.statusCode === 204)).toBe(true);
    expect((await counts(pub.id)).started).toBe(VIEW_CEILING_PER_MINUTE);
    // Still within the minute: nothing more.
    vi.setSystemTime(start + 50_000);
    await send(2);
    expect((await counts(pub.id)).started).toBe(VIEW_CEILING_PER_MINUTE);
    // The next minute: the ceiling again, no more; and the per-address rate limit of 10 minutes (20
    // beacons of one publication, decision 144) stands behind it.
    vi.setSystemTime(start + 61_000);
    expect((await send(BEACONS_PER_ADDRESS_AND_SLUG - 12)).every((r) => r.statusCode === 204)).toBe(true);
    expect((await counts(pub.id)).started).toBe(2 * VIEW_CEILING_PER_MINUTE);
    vi.setSystemTime(start + 130_000);
    expect((await send(3)).map((r) => r.statusCode)).toEqual([429, 429, 429]);
    expect((await counts(pub.id)).started).toBe(2 * VIEW_CEILING_PER_MINUTE);
  });

  it('counts an IPv6 client rotating its address inside its /64 as one address', async () => {
    const pub = fresh();
    const tokens = await Promise.all(Array.from({ length: 15 }, (_, i) => visit(pub.slug, `2001:db8:1:2::${(i + 1).toString(16)}`)));
    await Promise.all(tokens.map((token, i) => beacon(pub.slug, { ip: `2001:db8:1:2::${(i + 100).toString(16)}`, token })));
    expect((await counts(pub.id)).started).toBe(VIEW_CEILING_PER_MINUTE);
  });

  it('refuses a client hammering the beacon past the rate limit, having counted it once per milestone', async () => {
    const pub = fresh();
    const ip = '192.0.2.80';
    const token = await visit(pub.slug, ip);
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await beacon(pub.slug, { ip, token, milestone: i % 2 ? 'p25' : 'started' })).statusCode);
    expect(statuses.slice(0, BEACONS_PER_ADDRESS_AND_SLUG).every((s) => s === 204)).toBe(true);
    expect(statuses.slice(BEACONS_PER_ADDRESS_AND_SLUG).every((s) => s === 429)).toBe(true);
    const refused = await beacon(pub.slug, { ip, token });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'rate_limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await counts(pub.id)).toMatchObject({ started: 1, p25: 1 });
  });

  it('does not count bots, link unfurlers or headless browsers, even with the token of a page they fetched', async () => {
    const pub = fresh();
    const bots = [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
      'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
      'Twitterbot/1.0',
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko; Google Page Speed Insights) Chrome/131 Safari/537.36',
      CHROME.replace('Chrome/', 'HeadlessChrome/'),
      'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
      'python-requests/2.32.3',
      '',
    ];
    for (const [i, ua] of bots.entries()) {
      const ip = `192.0.2.${90 + i}`;
      expect((await beacon(pub.slug, { ip, ua, token: await visit(pub.slug, ip) })).statusCode, ua).toBe(204);
    }
    expect(await counts(pub.id)).toEqual(ZERO);
  });

  it('answers an unknown or taken-down slug exactly as a live one, and as fast', async () => {
    const pub = fresh();
    const key = viewTokenKey(t.ctx.secrets.jwt);
    // Each with a token that verifies, so that every one of them goes as far as the database.
    const answers = await Promise.all(
      [pub.slug, takenDown.slug, newSlug()].map((slug, i) => beacon(slug, { ip: `192.0.2.${120 + i}`, token: mintViewToken(key, slug) })),
    );
    const shape = (res: (typeof answers)[number]) => ({
      status: res.statusCode,
      body: res.body,
      headers: Object.keys(res.headers)
        .filter((h) => !['date', 'x-request-id'].includes(h))
        .sort()
        .map((h) => `${h}: ${h === 'content-length' ? res.headers[h] : typeof res.headers[h]}`),
    });
    expect(shape(answers[1]!)).toEqual(shape(answers[0]!));
    expect(shape(answers[2]!)).toEqual(shape(answers[0]!));
    expect(answers[0]!.statusCode).toBe(204);

    // The answer leaves before the slug is even looked up: its time cannot tell the two apart.
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const times: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
    for (let i = 0; i < 20; i++) {
      // In turn first and second, each after the last beacon's write and the database's own work after it.
      for (const kind of i % 2 ? (['unknown', 'known'] as const) : (['known', 'unknown'] as const)) {
        const slug = kind === 'known' ? live[next + (i % 2)]!.slug : newSlug();
        const started = process.hrtime.bigint();
        await beacon(slug, { ip: `198.18.${i}.${kind === 'known' ? 1 : 2}`, ua: `${CHROME} T/${i}`, token: mintViewToken(key, slug) });
        times[kind].push(Number(process.hrtime.bigint() - started) / 1e6);
        await viewWritesSettled();
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
    const [known, unknown] = [median(times.known), median(times.unknown)];
    expect(Math.abs(known - unknown), `known ${known.toFixed(2)} ms, unknown ${unknown.toFixed(2)} ms`).toBeLessThan(Math.max(2, 0.5 * Math.max(known, unknown)));
  });
});
