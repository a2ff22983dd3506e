import { describe, expect, it } from 'vitest';
import { addressGroup, FailureBackoff, WindowCounters } from '../../http/rate-limit.js';
import { ACCOUNT_FAILURE_CEILING, PAIR_FREE_FAILURES, SigninThrottle, SigninWait } from './signin-throttle.js';

describe('failure backoff', () => {
  const policy = { baseMs: 1000, maxMs: 8000, forgetMs: 60_000 };

  it('lets the free failures through, then doubles the wait after each further one up to the longest', () => {
    const backoff = new FailureBackoff(policy);
    for (let i = 0; i < 3; i++) {
      expect(backoff.waitMs('k', 3, 0)).toBe(0);
      backoff.failed('k', 0);
    }
    expect(backoff.waitMs('k', 3, 0)).toBe(1000);
    expect(backoff.waitMs('k', 3, 600)).toBe(400);
    backoff.failed('k', 1000);
    expect(backoff.waitMs('k', 3, 1000)).toBe(2000);
    for (let i = 0; i < 5; i++) backoff.failed('k', 1000);
    expect(backoff.waitMs('k', 3, 1000)).toBe(8000);
    // With fewer free failures (an account under attack) the same history waits at once.
    expect(new FailureBackoff(policy).waitMs('other', 1, 0)).toBe(0);
  });

  it('forgets a key on success, after a quiet while, and refunds an attempt that decided nothing', () => {
    const backoff = new FailureBackoff(policy);
    backoff.failed('a', 0);
    backoff.succeeded('a');
    expect(backoff.size).toBe(0);
    backoff.failed('b', 0);
    expect(backoff.waitMs('b', 0, 60_001)).toBe(0);
    expect(backoff.size).toBe(0);
    backoff.failed('c', 0);
    backoff.failed('c', 0);
    backoff.refund('c');
    expect(backoff.waitMs('c', 1, 0)).toBe(1000);
  });

  it('stays bounded in keys, dropping the least recently failed first', () => {
    const backoff = new FailureBackoff(policy, 4);
    for (const key of ['a', 'b', 'c', 'd']) backoff.failed(key, 0);
    backoff.failed('a', 1);
    backoff.failed('e', 2);
    expect(backoff.size).toBeLessThanOrEqual(4);
    expect(backoff.waitMs('a', 1, 2)).toBeGreaterThan(0);
    expect(backoff.waitMs('b', 0, 2)).toBe(0);
  });
});

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

describe('sign-in throttle', () => {
  it('slows one address at one account without touching another address', () => {
    const throttle = new SigninThrottle(new WindowCounters());
    for (let i = 0; i < PAIR_FREE_FAILURES; i++) {
      throttle.begin('198.51.100.1', 'owner@x.test', 0);
      throttle.passwordWrong('owner@x.test', 0);
    }
    expect(() => throttle.begin('198.51.100.1', 'OWNER@x.test ', 0)).toThrow(SigninWait);
    expect(() => throttle.begin('198.51.100.2', 'owner@x.test', 0)).not.toThrow();
    expect(() => throttle.begin('198.51.100.1', 'other@x.test', 0)).not.toThrow();
  });

  it('gives each address one free try at an account past its ceiling, never none', () => {
    const throttle = new SigninThrottle(new WindowCounters());
    for (let i = 0; i < ACCOUNT_FAILURE_CEILING; i++) throttle.passwordWrong('owner@x.test', 0);
    expect(() => throttle.begin('198.51.100.9', 'owner@x.test', 0)).not.toThrow();
    throttle.passwordWrong('owner@x.test', 0);
    const wait = (() => {
      try {
        throttle.begin('198.51.100.9', 'owner@x.test', 0);
      } catch (error) {
        return error;
      }
    })();
    expect(wait).toBeInstanceOf(SigninWait);
    expect(wait).toMatchObject({ status: 429, code: 'rate_limited', errorKey: 'rateLimited', retryAfterSeconds: 1 });
  });
});
