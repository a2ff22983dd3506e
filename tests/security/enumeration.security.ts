/**
 * Sign-up says when an address has an account (emailExists, as the spec wants), so it can test a list
 * of addresses. These attacks try to sweep a list anyway: from one address, from rotating
 * X-Forwarded-For values behind a trusted proxy, over a day, at one target from many addresses, and by
 * filling the rate-limit store until the client's own counter is pushed out. The limits must not lock
 * the owner out of their own way in (Google sign-up, sign-in, password reset).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { WindowCounters } from '../../src/server/http/rate-limit.js';
import { signGoogleSignupToken } from '../../src/server/modules/auth/auth.service.js';
import { signedInCompany } from '../../src/server/test/accounts.js';
import { createTestApp, type TestApp } from '../../src/server/test/harness.js';

const MINUTE = 60_000;
let seq = 0;
const fresh = (tag: string) => `${tag}.${Date.now()}.${++seq}@sweep.test`;
const signupBody = (email: string) => ({ firstname: 'S', lastname: 'W', email, companyName: `Sweep ${email}`, password: 'sweeper-pass', lang: 'en' });

describe('sweeping addresses through sign-up', () => {
  let t: TestApp;
  let n = 0;
  const ip = () => `10.88.${Math.floor(n / 250)}.${(n++ % 250) + 1}`;

  beforeAll(async () => {
    // Behind one trusted proxy (the socket peer), which appends the client's address to X-Forwarded-For.
    t = await createTestApp({ env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const signup = (email: string, from: { remoteAddress: string; forwardedFor?: string }) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: signupBody(email),
      remoteAddress: from.remoteAddress,
      headers: from.forwardedFor ? { 'x-forwarded-for': from.forwardedFor } : {},
    });

  async function sweep(count: number, from: (i: number) => { remoteAddress: string; forwardedFor?: string }, known: string[] = []) {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) statuses.push((await signup(known[i] ?? fresh('sweep'), from(i))).statusCode);
    return statuses;
  }

  it('refuses a sweep from one address after 10 answers', async () => {
    const known = [(await signedInCompany(t)).email, (await signedInCompany(t)).email];
    const statuses = await sweep(25, () => ({ remoteAddress: '127.0.0.1', forwardedFor: '203.0.113.10' }), known);
    expect(statuses.slice(0, 2)).toEqual([409, 409]);
    expect(statuses.slice(2, 10).every((s) => s === 201)).toBe(true);
    expect(statuses.slice(10)).toEqual(Array(15).fill(429));
    const last = await signup(known[0]!, { remoteAddress: '127.0.0.1', forwardedFor: '203.0.113.10' });
    expect(last.statusCode).toBe(429);
    expect(last.json()).toMatchObject({ code: 'rate_limited', errorKey: 'rateLimited', error: expect.any(String) });
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('refuses a sweep whose X-Forwarded-For rotates: only the address the proxy appended counts', async () => {
    const statuses = await sweep(25, (i) => ({ remoteAddress: '127.0.0.1', forwardedFor: `198.51.${i >> 8}.${i & 255}, 203.0.113.11` }));
    expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true);
    expect(statuses.slice(10)).toEqual(Array(15).fill(429));
  });

  it('keeps one address to 30 sign-up answers a day, however the sweep is spread over 10-minute windows', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const from = () => ({ remoteAddress: '203.0.113.12' });
    const answered: number[] = [];
    for (let round = 0; round < 4; round++) {
      const statuses = await sweep(10, from);
      answered.push(statuses.filter((s) => s !== 429).length);
      vi.setSystemTime(Date.now() + 11 * MINUTE);
    }
    expect(answered).toEqual([10, 10, 10, 0]);
  });

  it('limits repeated attempts at one target address from many addresses, for an hour', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const target = (await signedInCompany(t)).email;
    const statuses: number[] = [];
    // Case and spaces do not make another target.
    const variants = [target, target.toUpperCase(), ` ${target} `];
    for (let i = 0; i < 8; i++) statuses.push((await signup(variants[i % 3]!, { remoteAddress: ip() })).statusCode);
    expect(statuses).toEqual([409, 409, 409, 409, 409, 429, 429, 429]);
    vi.setSystemTime(Date.now() + 30 * MINUTE);
    expect((await signup(target, { remoteAddress: ip() })).statusCode).toBe(429);
    vi.setSystemTime(Date.now() + 31 * MINUTE);
    expect((await signup(target, { remoteAddress: ip() })).statusCode).toBe(409);
  });

  it('never locks the owner out: Google sign-up, sign-in and password reset ignore the per-target count', async () => {
    // An address without an account, flooded by someone else (their attempts fail on a taken company name).
    const owner = fresh('owner');
    const taken = `Taken ${owner}`;
    await signedInCompany(t, { companyName: taken });
    for (let i = 0; i < 8; i++) {
      await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { ...signupBody(owner), companyName: taken }, remoteAddress: ip() });
    }
    expect((await signup(owner, { remoteAddress: ip() })).statusCode).toBe(429);
    // The owner proves the address with Google and signs up: not counted against the address.
    const token = await signGoogleSignupToken(t.ctx, { sub: `g-${owner}`, email: owner, email_verified: true, firstname: 'O', lastname: 'W', picture: null });
    const google = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      remoteAddress: ip(),
      payload: {
        firstname: 'O',
        lastname: 'W',
        email: owner,
        companyName: `Owner ${owner}`,
        lang: 'en',
        fromGoogle: true,
        googleId: `g-${owner}`,
        accessToken: token,
      },
    });
    expect(google.statusCode, google.body).toBe(201);

    // An existing account flooded through sign-up still signs in and resets its password.
    const existing = await signedInCompany(t);
    for (let i = 0; i < 8; i++) await signup(existing.email, { remoteAddress: ip() });
    const signin = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: existing.email, password: 'secret12' },
      remoteAddress: ip(),
    });
    expect(signin.statusCode, signin.body).toBe(200);
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: existing.email, lang: 'en' },
      remoteAddress: ip(),
    });
    expect(forgot.statusCode).toBe(200);
  });
});

describe('pushing a client counter out of the rate-limit store', () => {
  let t: TestApp;

  beforeAll(async () => {
    // The in-memory store of the per-process limits is small here: the sign-up limits must not live in it
    // (they are counted in the database, decision 178), so filling it cannot reset them.
    t = await createTestApp({ app: { rateCounters: new WindowCounters(64) } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps refusing a client past its limit, however many new addresses it names', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: signupBody(fresh('flood')), remoteAddress: '203.0.113.20' });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true);
    expect(statuses.slice(10).filter((s) => s !== 429)).toEqual([]);
    // Counted in the database, none in the in-memory store; a refused call counts no e-mail of the later rule.
    expect(t.app.rateCounters.size).toBe(0);
  });
});
