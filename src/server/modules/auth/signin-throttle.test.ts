import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { addressGroup, SharedLimits } from '../../http/rate-limit.js';
import { resetDatabase, workerDatabase } from '../../test/database.js';
import { ACCOUNT_FAILURE_CEILING, PAIR_FREE_FAILURES, SigninThrottle, SigninWait } from './signin-throttle.js';

describe('address groups', () => {
  it('counts an IPv4 address alone and an IPv6 address by its /64', () => {
    expect(addressGroup('203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroup('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroup('2001:db8:0:1::1')).toBe('2001:db8:0:1::/64');
    expect(addressGroup('2001:0db8:0000:0001:ffff:1:2:3')).toBe('2001:db8:0:1::/64');
    expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
    expect(addressGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});

/** The throttle counts in the database (decision 178): these run on PGlite and on PostgreSQL. */
describe('sign-in throttle', () => {
  let database: Database;
  let shared: SharedLimits;
  const caught = async (attempt: Promise<unknown>) => attempt.then(() => undefined, (error: unknown) => error);
  const fail = async (throttle: SigninThrottle, ip: string, email: string) => {
    await throttle.begin(ip, email);
    await throttle.passwordWrong(email);
  };

  beforeAll(async () => {
    database = await workerDatabase();
  });
  beforeEach(async () => {
    await resetDatabase(database);
    shared = new SharedLimits(database);
  });
  afterAll(() => shared.stop());

  it('slows one address at one account without touching another address', async () => {
    const throttle = new SigninThrottle(shared);
    for (let i = 0; i < PAIR_FREE_FAILURES; i++) await fail(throttle, '198.51.100.1', 'owner@x.test');
    const wait = await caught(throttle.begin('198.51.100.1', 'OWNER@x.test '));
    expect(wait).toBeInstanceOf(SigninWait);
    expect(wait).toMatchObject({ status: 429, code: 'rate_limited', errorKey: 'rateLimited', retryAfterSeconds: 1 });
    await expect(throttle.begin('198.51.100.2', 'owner@x.test')).resolves.toBeUndefined();
    await expect(throttle.begin('198.51.100.1', 'other@x.test')).resolves.toBeUndefined();
  });

  it('doubles the wait after each further failure, up to fifteen minutes', async () => {
    const throttle = new SigninThrottle(shared);
    const ip = '198.51.100.3';
    for (let i = 0; i < PAIR_FREE_FAILURES; i++) await fail(throttle, ip, 'owner@x.test');
    // Once the wait has passed, the next attempt is let through and counted; each one waits twice as long.
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      const wait = (await caught(throttle.begin(ip, 'owner@x.test'))) as SigninWait;
      waits.push(wait.retryAfterSeconds);
      await throttle.begin(ip, 'owner@x.test', Date.now() + wait.retryAfterSeconds * 1000);
      await throttle.passwordWrong('owner@x.test');
    }
    expect(waits.slice(0, 6)).toEqual([1, 2, 4, 8, 16, 32]);
    expect(waits.at(-1)).toBe(15 * 60);
  });

  it('forgets a pair once its password is right, and refunds an attempt that decided nothing', async () => {
    const throttle = new SigninThrottle(shared);
    for (let i = 0; i < PAIR_FREE_FAILURES; i++) await fail(throttle, '198.51.100.4', 'owner@x.test');
    await throttle.passwordRight('198.51.100.4', 'owner@x.test');
    for (let i = 0; i < PAIR_FREE_FAILURES; i++) await fail(throttle, '198.51.100.4', 'owner@x.test');
    await expect(caught(throttle.begin('198.51.100.4', 'owner@x.test'))).resolves.toBeInstanceOf(SigninWait);

    for (let i = 0; i < PAIR_FREE_FAILURES - 1; i++) await fail(throttle, '198.51.100.5', 'owner@x.test');
    // Ten attempts the database could not judge: none of them is a guess.
    for (let i = 0; i < 10; i++) {
      await throttle.begin('198.51.100.5', 'owner@x.test');
      await throttle.undecided('198.51.100.5', 'owner@x.test');
    }
    await expect(throttle.begin('198.51.100.5', 'owner@x.test')).resolves.toBeUndefined();
  });

  it('gives each address one free try at an account past its ceiling, never none', async () => {
    const throttle = new SigninThrottle(shared);
    for (let i = 0; i < ACCOUNT_FAILURE_CEILING; i++) await throttle.passwordWrong('owner@x.test');
    await fail(throttle, '198.51.100.9', 'owner@x.test');
    const wait = await caught(throttle.begin('198.51.100.9', 'owner@x.test'));
    expect(wait).toBeInstanceOf(SigninWait);
    expect(wait).toMatchObject({ retryAfterSeconds: 1 });
    await expect(throttle.begin('198.51.100.10', 'owner@x.test')).resolves.toBeUndefined();
  });

  it('counts a burst of parallel attempts one by one', async () => {
    const throttle = new SigninThrottle(shared);
    const outcomes = await Promise.all(Array.from({ length: 12 }, () => caught(throttle.begin('198.51.100.11', 'owner@x.test'))));
    expect(outcomes.filter((o) => o === undefined)).toHaveLength(PAIR_FREE_FAILURES);
    expect(outcomes.filter((o) => o instanceof SigninWait)).toHaveLength(12 - PAIR_FREE_FAILURES);
  });

  it('shares its counts between throttles on one database, as API processes do', async () => {
    // Two stores stand for two processes: what one counted, the other sees.
    const one = new SigninThrottle(shared);
    const two = new SigninThrottle(new SharedLimits(database));
    for (let i = 0; i < PAIR_FREE_FAILURES; i++) await fail(i % 2 ? one : two, '198.51.100.12', 'owner@x.test');
    await expect(caught(one.begin('198.51.100.12', 'owner@x.test'))).resolves.toBeInstanceOf(SigninWait);
    await expect(caught(two.begin('198.51.100.12', 'owner@x.test'))).resolves.toBeInstanceOf(SigninWait);
  });
});
