import { describe, expect, it } from 'vitest';
import { addCueAt, joinWithNext, lineAt, removeCue, showingAt, splitCue, withCueTime } from './cue-edits';

const two = [
  { start: 0.5, end: 2, text: 'Bonjour à tous' },
  { start: 3, end: 5, text: 'Merci beaucoup pour tout' },
];

describe('editing subtitle lines while listening', () => {
  it('adds a line at the player time, before the next line and within the answer', () => {
    expect(addCueAt([], 1.2345, 10)).toEqual({ cues: [{ start: 1.235, end: 3.235, text: '' }], index: 0 });
    const between = addCueAt(two, 2.2, 10);
    expect(between.index).toBe(1);
    expect(between.cues[1]).toEqual({ start: 2.2, end: 3, text: '' });
    // A line still showing is ended where the new one starts.
    const inside = addCueAt(two, 1, 10);
    expect(inside.cues.slice(0, 2)).toEqual([{ start: 0.5, end: 1, text: 'Bonjour à tous' }, { start: 1, end: 3, text: '' }]);
    expect(addCueAt([], 9.5, 10).cues[0]).toEqual({ start: 9.5, end: 10, text: '' });
    expect(addCueAt([], 12, 10).cues[0]!.end).toBeLessThanOrEqual(10);
  });

  it('splits at the player time when inside the line, sharing the words, else in the middle', () => {
    expect(splitCue(two, 1, 3.5)).toEqual([two[0], { start: 3, end: 3.5, text: 'Merci' }, { start: 3.5, end: 5, text: 'beaucoup pour tout' }]);
    expect(splitCue(two, 0, null)).toEqual([{ start: 0.5, end: 1.25, text: 'Bonjour à' }, { start: 1.25, end: 2, text: 'tous' }, two[1]]);
  });

  it('joins a line with the next, sets times, removes, and finds the current line', () => {
    expect(joinWithNext(two, 0)).toEqual([{ start: 0.5, end: 5, text: 'Bonjour à tous Merci beaucoup pour tout' }]);
    expect(joinWithNext(two, 1)).toBe(two);
    expect(withCueTime(two, 0, 'end', 2.71828)[0]).toEqual({ start: 0.5, end: 2.718, text: 'Bonjour à tous' });
    expect(removeCue(two, 0)).toEqual([two[1]]);
    expect([lineAt(two, 0), lineAt(two, 1), lineAt(two, 2.5), lineAt(two, 9), lineAt([], 1)]).toEqual([0, 0, 0, 1, -1]);
    expect([showingAt(two, 1), showingAt(two, 2.5)]).toEqual([0, -1]);
  });
});
