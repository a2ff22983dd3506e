import { describe, expect, it } from 'vitest';
import { periodFilters, shiftDay } from './funnel-period';

describe('the funnel periods', () => {
  it('ends every period on the company’s today, both days included', () => {
    expect(periodFilters(30, '2026-11-28')).toEqual({});
    expect(periodFilters(7, '2026-11-28')).toEqual({ from: '2026-11-22', to: '2026-11-28' });
    expect(periodFilters(90, '2026-11-28')).toEqual({ from: '2026-08-31', to: '2026-11-28' });
  });

  it('counts calendar days across months, years and a leap day', () => {
    expect(shiftDay('2026-03-01', -1)).toBe('2026-02-28');
    expect(shiftDay('2028-03-01', -1)).toBe('2028-02-29');
    expect(shiftDay('2027-01-03', -6)).toBe('2026-12-28');
    // A change of summer time does not shift the day (dates are counted in UTC).
    expect(shiftDay('2026-10-26', -1)).toBe('2026-10-25');
  });

  it('falls back to the browser’s today before the server has said which day it is', () => {
    const { from, to } = periodFilters(7, undefined);
    expect(to).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(shiftDay(to!, -6)).toBe(from);
  });
});
