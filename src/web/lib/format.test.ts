import { describe, expect, it } from 'vitest';
import { creditForm } from './credits';
import { endsSentence, formatDate, formatDuration } from './format';

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

describe('formatDuration', () => {
  it("cuts to whole seconds and writes m:ss, as Chromium's player shows a video's length", () => {
    // The reported disagreements: the card said 00:10 and 00:38 where the player said 0:09 and 0:37.
    expect(formatDuration(9.6)).toBe('0:09');
    expect(formatDuration(37.54)).toBe('0:37');
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(59.999)).toBe('0:59');
    expect(formatDuration(75)).toBe('1:15');
    expect(formatDuration(600)).toBe('10:00');
    expect(formatDuration(3725.9)).toBe('1:02:05');
  });

  it('writes nothing for an unknown length', () => {
    expect(formatDuration(Number.NaN)).toBe('');
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe('');
    expect(formatDuration(-1)).toBe('');
  });
});

describe('endsSentence', () => {
  it('sees a question, an exclamation, a full stop or an ellipsis at the end, before closing quotes', () => {
    for (const text of ['What did you like?', 'Tell us about it.', 'Wow!', 'And then…', 'Qu’avez-vous aimé ?', 'He said “yes.”', 'Il a dit « oui ! » ', 'Why (really?)']) {
      expect(endsSentence(text), text).toBe(true);
    }
  });

  it('sees an unfinished sentence', () => {
    for (const text of ['Your name', 'What you liked:', 'Vos impressions', '', 'Rating: 5/5']) expect(endsSentence(text), text).toBe(false);
  });
});
