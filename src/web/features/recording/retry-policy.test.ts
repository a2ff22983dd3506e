import { describe, expect, it } from 'vitest';
import { isRetryableStatus, parseRetryAfter, retryDelayMs } from './retry-policy';

describe('upload retry policy', () => {
  it('doubles the delay from 1 s and caps it at 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((n) => retryDelayMs(n))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
  });

  it('honours Retry-After within the cap', () => {
    expect(retryDelayMs(1, 5)).toBe(5000);
    expect(retryDelayMs(4, 2)).toBe(8000);
    expect(retryDelayMs(1, 600)).toBe(30000);
    expect(parseRetryAfter('12')).toBe(12);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT')).toBeNull();
    expect(parseRetryAfter(null)).toBeNull();
  });

  it('retries network failures, timeouts, rate limits and server errors, never other refusals', () => {
    for (const status of [0, 408, 429, 500, 502, 503, 504]) expect(isRetryableStatus(status), String(status)).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 410, 413, 415, 422]) expect(isRetryableStatus(status), String(status)).toBe(false);
  });
});
