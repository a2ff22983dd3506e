/**
 * Forged client addresses (issue 15, item 6). With `TRUST_PROXY=true` every X-Forwarded-For entry was
 * believed, so `X-Forwarded-For: <anything>, <real>` gave each request a new address: every per-address
 * limit vanished and the consent record's address could be chosen. Behind one load balancer
 * (`TRUST_PROXY=1`) only the entry that balancer appended counts; unset, the header counts for nothing.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { consents, testimonialRequests } from '../../src/server/db/schema.js';
import { signedInCompany } from '../../src/server/test/accounts.js';
import { makeClip, multipart } from '../../src/server/test/clips.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';

const forged = () => `${1 + (randomBytes(1)[0]! % 223)}.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0]! % 250)}`;
let n = 0;

async function signUps(t: TestApp, count: number, headers: () => Record<string, string>, remoteAddress: string) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    n += 1;
    const id = `${process.pid}-${n}-${randomBytes(3).toString('hex')}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      remoteAddress,
      headers: headers(),
      payload: { firstname: 'Mass', lastname: 'Signup', email: `mass-${id}@spam.test`, companyName: `Spam ${id}`, password: 'secret12', lang: 'en' },
    });
    statuses.push(res.statusCode);
  }
  return statuses;
}

/** A customer's answer saved through the public call, with the given headers; returns the consent's address. */
async function answerFrom(t: TestApp, headers: Record<string, string>, remoteAddress: string) {
  const me = await signedInCompany(t);
  const q = (await me.post('/api/questions/add', { company_id: me.companyId, text: 'How was it?', order_position: 1 })).json();
  const { testimonial } = (
    await me.post('/api/testimonials/request', { customer_email: `c${++n}@client.test`, customer_name: 'Customer', question_ids: [q.id], language: 'english' })
  ).json();
  const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, testimonial.id));
  const clip = await readFile(await makeClip({ format: 'webm', seconds: 1, tone: 440 }));
  const form = multipart([
    { name: 'testimonialId', value: testimonial.id },
    { name: 'token', value: row!.token },
    { name: 'questionIds[0]', value: q.id },
    { name: 'bgColors[0]', value: '#000000' },
    { name: 'name', value: 'Customer' },
    { name: 'consentVersion', value: 'image-rights-v1' },
    { name: 'videos', filename: 'video0.webm', content: clip, type: 'video/webm' },
  ]);
  const res = await t.app.inject({ method: 'POST', url: '/api/public/testimonial/save', remoteAddress, ...form, headers: { ...form.headers, ...headers } });
  expect(res.statusCode, res.body).toBe(200);
  const [consent] = await t.ctx.db.select().from(consents).where(eq(consents.requestId, testimonial.id));
  return consent!.ip;
}

describe('behind one load balancer (TRUST_PROXY=1)', () => {
  let t: TestApp;
  const balancer = '10.200.0.1';
  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps one client on one address whatever it writes before the balancer’s entry: the sign-up limit holds', async () => {
    const real = '203.0.113.7';
    const statuses = await signUps(t, 25, () => ({ 'x-forwarded-for': `${forged()}, ${forged()}, ${real}` }), balancer);
    const first = statuses.indexOf(429);
    expect(first, statuses.join(' ')).toBeGreaterThan(0);
    expect(statuses.slice(first).every((s) => s === 429), statuses.join(' ')).toBe(true);
    // The limit is the client's, not the balancer's: another client behind it is served.
    expect(await signUps(t, 1, () => ({ 'x-forwarded-for': '198.51.100.9' }), balancer)).toEqual([201]);
  });

  it('records the real address in the consent, not the forged one', async () => {
    expect(await answerFrom(t, { 'x-forwarded-for': '1.2.3.4, 203.0.113.50' }, balancer)).toBe('203.0.113.50');
  });

  it('counts an IPv6 client by its /64: rotating addresses inside it does not reset the sign-up limit', async () => {
    const inside = () => `2001:db8:77:1:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::${randomBytes(1)[0]! + 1}`;
    const statuses = await signUps(t, 25, () => ({ 'x-forwarded-for': inside() }), balancer);
    const first = statuses.indexOf(429);
    expect(first, statuses.join(' ')).toBeGreaterThan(0);
    expect(statuses.slice(first).every((s) => s === 429), statuses.join(' ')).toBe(true);
    // Another /64 is another client.
    expect(await signUps(t, 1, () => ({ 'x-forwarded-for': '2001:db8:77:2::1' }), balancer)).toEqual([201]);
  });
});

describe('behind listed proxies (TRUST_PROXY=10.200.0.0/16)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '10.200.0.0/16' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('believes only the listed proxies: a client connecting directly cannot rotate its address', async () => {
    const statuses = await signUps(t, 25, () => ({ 'x-forwarded-for': `${forged()}, ${forged()}` }), '203.0.113.90');
    expect(statuses.includes(429), statuses.join(' ')).toBe(true);
    expect(await answerFrom(t, { 'x-forwarded-for': '1.2.3.4, 203.0.113.91, 10.200.3.4' }, '10.200.0.1')).toBe('203.0.113.91');
  });
});

describe('without TRUST_PROXY', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('ignores X-Forwarded-For: the limit and the consent use the connection’s address', async () => {
    const client = '203.0.113.80';
    const statuses = await signUps(t, 25, () => ({ 'x-forwarded-for': forged() }), client);
    expect(statuses.includes(429), statuses.join(' ')).toBe(true);
    expect(await answerFrom(t, { 'x-forwarded-for': '1.2.3.4' }, '203.0.113.81')).toBe('203.0.113.81');
  });
});

describe('TRUST_PROXY=true (every hop believed)', () => {
  it('is refused at start with a message naming the hop count or the proxy list to give instead', () => {
    for (const value of ['true', 'TRUE', 'yes']) {
      expect(() => loadConfig({ NODE_ENV: 'test', TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY/);
    }
    expect(() => loadConfig({ NODE_ENV: 'test', TRUST_PROXY: 'true' })).toThrow(/`1` behind one load balancer/);
  });
});
