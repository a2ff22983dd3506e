import { describe, expect, it } from 'vitest';
import { wordErrorRate, wordErrors, words } from './word-error-rate.js';

describe('word error rate', () => {
  it('splits words without case or punctuation, keeping contractions whole', () => {
    expect(words("I don't know, really — it's GREAT! Twenty-one.")).toEqual(['i', "don't", 'know', 'really', "it's", 'great', 'twenty', 'one']);
    expect(words(' "Quoted" ... ')).toEqual(['quoted']);
  });

  it('counts nothing wrong in a perfect transcript, whatever its case and punctuation', () => {
    expect(wordErrors('I found the team very responsive.', 'i found the team very responsive')).toEqual({ errors: 0, words: 6 });
  });

  it('counts a substitution, a deletion and an insertion as one error each', () => {
    expect(wordErrors('the product saved us hours', 'the product shaved us hours').errors).toBe(1);
    expect(wordErrors('the product saved us hours', 'the product us hours').errors).toBe(1);
    expect(wordErrors('the product saved us hours', 'the product saved us many hours').errors).toBe(1);
    // "saved us" heard as "say yes": two substitutions, not a deletion and insertions.
    expect(wordErrors('the product saved us hours every week', 'the product say yes hours every week')).toEqual({ errors: 2, words: 7 });
  });

  it('is the minimum edit count (classic cases)', () => {
    expect(wordErrors('a b c d', 'b c d e').errors).toBe(2); // a deleted, e inserted
    expect(wordErrors('a b c', '').errors).toBe(3);
    expect(wordErrors('a b', 'x y z w').errors).toBe(4);
  });

  it('pools several transcripts as total errors over total words said, and can exceed 1', () => {
    const rate = wordErrorRate([
      { reference: 'one two three four', hypothesis: 'one two three four' },
      { reference: 'five six three four', hypothesis: 'five sticks' },
    ]);
    expect(rate).toBeCloseTo(3 / 8);
    expect(wordErrorRate([{ reference: 'yes', hypothesis: 'yes yes yes' }])).toBe(2);
  });

  it('refuses a reference without words (the rate would be meaningless)', () => {
    expect(() => wordErrorRate([{ reference: ' ... ', hypothesis: 'hello' }])).toThrow(/no words/);
  });
});
