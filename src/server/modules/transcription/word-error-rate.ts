/**
 * Word error rate: the fewest word substitutions, deletions and insertions that turn what the engine
 * heard into what was said, over the number of words said. Words are compared without case or
 * punctuation ("Team," is "team"; "don't" stays one word). 0 is a perfect transcript; it can exceed 1
 * when the engine adds many words.
 */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'\s-]/gu, ' ')
    .replace(/(^|\s)['-]+|['-]+(?=\s|$)/g, ' ')
    .split(/[\s-]+/)
    .filter(Boolean);
}

/** The edit counts between what was said (`reference`) and what was heard (`hypothesis`). */
export function wordErrors(reference: string, hypothesis: string): { errors: number; words: number } {
  const ref = words(reference);
  const hyp = words(hypothesis);
  // One row of the Levenshtein table at a time, over words.
  let previous = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const row = [i];
    for (let j = 1; j <= hyp.length; j++) {
      const substitution = previous[j - 1]! + (ref[i - 1] === hyp[j - 1] ? 0 : 1);
      row.push(Math.min(substitution, previous[j]! + 1, row[j - 1]! + 1));
    }
    previous = row;
  }
  return { errors: previous[hyp.length]!, words: ref.length };
}

/** The word error rate of one transcript, or of several pooled (total errors over total words said). */
export function wordErrorRate(pairs: readonly { reference: string; hypothesis: string }[]): number {
  let errors = 0;
  let total = 0;
  for (const p of pairs) {
    const e = wordErrors(p.reference, p.hypothesis);
    errors += e.errors;
    total += e.words;
  }
  if (total === 0) throw new Error('word error rate: the reference has no words');
  return errors / total;
}
