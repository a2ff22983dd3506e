import { describe, expect, it } from 'vitest';
import { creditForm } from './credits';
import { formatDate } from './format';

describe('formatDate', () => {
  it('writes DD/MM/YYYY in local time, with leading zeros', () => {
    expect(formatDate(new Date(2025, 0, 5, 10, 30))).toBe('05/01/2025');
    expect(formatDate(new Date(2024, 11, 31, 23, 59))).toBe('31/12/2024');
  });

  it('reads ISO strings and timestamps', () => {
    const date = new Date(2026, 6, 14, 12);
    expect(formatDate(date.toISOString())).toBe('14/07/2026');
    expect(formatDate(date.getTime())).toBe('14/07/2026');
  });

  it('gives an empty string for an unreadable date', () => {
    expect(formatDate('not a date')).toBe('');
  });
});

describe('creditForm', () => {
  it('is singular at 1 or less and plural above', () => {
    expect(creditForm(0)).toBe('singular');
    expect(creditForm(1)).toBe('singular');
    expect(creditForm(2)).toBe('plural');
    expect(creditForm(150)).toBe('plural');
  });
});
