import { describe, expect, it } from 'vitest';
import { WindowCounters, windowMs } from './rate-limit.js';

describe('rate-limit windows', () => {
  it('reads window lengths', () => {
    expect(windowMs('10 minutes')).toBe(600_000);
    expect(windowMs('1 hour')).toBe(3_600_000);
    expect(windowMs('1 minute')).toBe(60_000);
    expect(windowMs(2500)).toBe(2500);
    expect(() => windowMs('soon')).toThrow(/Unreadable/);
  });

  it('counts hits per key within a fixed window, then starts again', () => {
    const counters = new WindowCounters();
    expect(counters.hit('a', 1000, 0)).toEqual({ count: 1, resetAt: 1000 });
    expect(counters.hit('a', 1000, 500).count).toBe(2);
    expect(counters.hit('b', 1000, 500).count).toBe(1);
    expect(counters.hit('a', 1000, 999).count).toBe(3);
    expect(counters.hit('a', 1000, 1000)).toEqual({ count: 1, resetAt: 2000 });
  });

  it('takes back a hit counted in advance, within its window only and never below zero', () => {
    const counters = new WindowCounters();
    counters.hit('a', 1000, 0);
    counters.hit('a', 1000, 10);
    counters.refund('a', 20);
    expect(counters.peek('a', 30)).toBe(1);
    counters.refund('a', 40);
    counters.refund('a', 50);
    expect(counters.peek('a', 60)).toBe(0);
    expect(counters.hit('a', 1000, 70).count).toBe(1);
    // An ended window is not touched, and a key never counted is not created.
    counters.refund('a', 1000);
    counters.refund('b', 70);
    expect(counters.size).toBe(1);
    expect(counters.hit('a', 1000, 1000)).toEqual({ count: 1, resetAt: 2000 });
  });

  it('stays within its key bound: ended windows go first, then the oldest quarter', () => {
    const counters = new WindowCounters(8);
    for (let i = 0; i < 4; i++) counters.hit(`short${i}`, 10, 0);
    for (let i = 0; i < 4; i++) counters.hit(`long${i}`, 10_000, 0);
    counters.hit('long0', 10_000, 5);
    // Full: the four ended windows make room, the live ones keep their counts.
    counters.hit('new', 10_000, 20);
    expect(counters.size).toBe(5);
    expect(counters.hit('long0', 10_000, 30).count).toBe(3);
    // Full of live windows: the oldest quarter (two keys) goes.
    for (let i = 0; i < 3; i++) counters.hit(`more${i}`, 10_000, 40);
    expect(counters.size).toBe(8);
    counters.hit('last', 10_000, 50);
    expect(counters.size).toBe(7);
    expect(counters.hit('long0', 10_000, 60).count).toBe(1);
  });
});

describe('a window started afresh (the public pages’ penalties)', () => {
  it('replaces whatever the key held, and tells the time left', () => {
    const counters = new WindowCounters();
    counters.hit('k', 60_000, 0);
    counters.hit('k', 60_000, 0);
    expect(counters.remainingMs('k', 10_000)).toBe(50_000);
    const fresh = counters.restart('k', 120_000, 30_000);
    expect(fresh.count).toBe(1);
    expect(counters.remainingMs('k', 30_000)).toBe(120_000);
    expect(counters.remainingMs('k', 150_000)).toBe(0);
    expect(counters.remainingMs('unknown', 0)).toBe(0);
  });
});
