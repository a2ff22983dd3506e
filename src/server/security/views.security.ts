/**
 * View analytics (issue 19), attacked: the beacon is public, so anyone can send it. Replayed here: one
 * client hammering it (counted once per window, then refused by the rate limit), one address forging a
 * new browser for every beacon (bounded by the per-address limits), bots (not counted), and an unknown
 * or taken-down slug (the same answer as a live one: no oracle of which slugs exist).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TViewSeriesResponse } from '../../contract/api/views.schema.js';
import { testimonialResponses } from '../db/schema.js';
import { newSlug } from '../modules/publications/publications.service.js';
import { BEACONS_PER_ADDRESS, BEACONS_PER_ADDRESS_AND_SLUG } from '../modules/publications/views.routes.js';
import { viewWritesSettled } from '../modules/publications/views.service.js';
import { signedInCompany } from '../test/accounts.js';
import { createTestApp, type TestApp } from '../test/harness.js';
import { completedTestimonial } from '../test/testimonials.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe('view beacons', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInCompany>>;
  let live: { id: string; slug: string }[];
  let takenDown: { id: string; slug: string };

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
    for (let i = 0; i < 8; i++) live.push(await publish());
    takenDown = await publish();
    expect((await t.app.inject({ method: 'DELETE', url: `/api/publications/${takenDown.id}`, headers: owner.headers })).statusCode).toBe(204);
  });
  afterAll(async () => {
    await t?.close();
  });

  const beacon = (slug: string, options: { ip: string; ua?: string; milestone?: string }) =>
    t.app.inject({
      method: 'POST',
      url: '/api/publications/views',
      remoteAddress: options.ip,
      headers: { 'user-agent': options.ua ?? CHROME, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ slug, milestone: options.milestone ?? 'started' }).toString(),
    });
  const plays = async (id: string) => {
    await viewWritesSettled();
    return (await owner.get(`/api/publications/${id}/views`)).json<TViewSeriesResponse>().totals;
  };

  it('counts a client hammering the beacon once per milestone, and refuses it past the rate limit', async () => {
    const [pub] = live;
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await beacon(pub!.slug, { ip: '192.0.2.10', milestone: i % 2 ? 'p100' : 'started' })).statusCode);
    expect(statuses.slice(0, BEACONS_PER_ADDRESS_AND_SLUG).every((s) => s === 204)).toBe(true);
    expect(statuses.slice(BEACONS_PER_ADDRESS_AND_SLUG).every((s) => s === 429)).toBe(true);
    const refused = await beacon(pub!.slug, { ip: '192.0.2.10' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'rate_limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await plays(pub!.id)).toMatchObject({ started: 1, p100: 1 });
  });

  it('bounds the plays of one address forging a new browser for every beacon', async () => {
    const [, one, ...others] = live;
    // One publication: at most the per-address-and-publication limit.
    for (let i = 0; i < 80; i++) await beacon(one!.slug, { ip: '192.0.2.20', ua: `${CHROME} Forged/${i}` });
    expect((await plays(one!.id)).started).toBe(BEACONS_PER_ADDRESS_AND_SLUG);
    // Many publications, from another address: at most the per-address limit in all.
    const counted = async () => (await Promise.all(others.map((p) => plays(p.id)))).reduce((sum, c) => sum + c.started, 0);
    const before = await counted();
    for (let i = 0; i < 200; i++) await beacon(others[i % others.length]!.slug, { ip: '192.0.2.21', ua: `${CHROME} Forged/${i}` });
    expect(await counted()).toBe(before + BEACONS_PER_ADDRESS);
    // An IPv6 client rotating its address inside its /64 is one client.
    const last = live[7]!;
    const beforeV6 = (await plays(last.id)).started;
    for (let i = 0; i < 40; i++) await beacon(last.slug, { ip: `2001:db8:1:2::${(i + 1).toString(16)}`, ua: `${CHROME} Forged/${i}` });
    expect((await plays(last.id)).started - beforeV6).toBe(BEACONS_PER_ADDRESS_AND_SLUG);
  });

  it('does not count bots, link unfurlers or headless browsers', async () => {
    const pub = live[2]!;
    const before = (await plays(pub.id)).started;
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
    for (const [i, ua] of bots.entries()) expect((await beacon(pub.slug, { ip: `192.0.2.${30 + i}`, ua })).statusCode, ua).toBe(204);
    expect((await plays(pub.id)).started).toBe(before);
  });

  it('answers an unknown or taken-down slug exactly as a live one, and as fast', async () => {
    const pub = live[3]!;
    const answers = await Promise.all([pub.slug, takenDown.slug, newSlug()].map((slug, i) => beacon(slug, { ip: `192.0.2.${60 + i}` })));
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
        const started = process.hrtime.bigint();
        await beacon(kind === 'known' ? live[4 + (i % 3)]!.slug : newSlug(), { ip: `198.18.${i}.${kind === 'known' ? 1 : 2}`, ua: `${CHROME} T/${i}` });
        times[kind].push(Number(process.hrtime.bigint() - started) / 1e6);
        await viewWritesSettled();
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
    const [known, unknown] = [median(times.known), median(times.unknown)];
    expect(Math.abs(known - unknown), `known ${known.toFixed(2)} ms, unknown ${unknown.toFixed(2)} ms`).toBeLessThan(Math.max(2, 0.5 * Math.max(known, unknown)));
  });
});
