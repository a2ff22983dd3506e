import { describe, expect, it } from 'vitest';
import type { TQuestion } from '../../../../contract/api/questions.schema.js';
import { moveQuestion, renumber, renumberAfterDelete } from './question-order';

const COMPANY = '1e2d3c4b-5a69-4877-8a9b-0c1d2e3f4a5b';
const q = (id: string, order_position: number): TQuestion => ({ id, text: `Question ${id}`, text_en: `Question ${id}`, text_fr: null, order_position, company_id: COMPANY });

describe('question order', () => {
  it('renumbers 1..n in list order', () => {
    expect(renumber([q('a', 4), q('b', 2), q('c', 9)]).map((x) => [x.id, x.order_position])).toEqual([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
  });

  it('moves an item down and up', () => {
    const list = [q('a', 1), q('b', 2), q('c', 3)];
    expect(moveQuestion(list, 0, 2).map((x) => `${x.id}${x.order_position}`)).toEqual(['b1', 'c2', 'a3']);
    expect(moveQuestion(list, 2, 0).map((x) => `${x.id}${x.order_position}`)).toEqual(['c1', 'a2', 'b3']);
    expect(moveQuestion(list, 1, 1).map((x) => x.id)).toEqual(['a', 'b', 'c']);
    expect(moveQuestion(list, 0, 7).map((x) => x.id)).toEqual(['a', 'b', 'c']);
  });

  it('renumbers after a delete and lists only the positions that changed', () => {
    const list = [q('a', 1), q('b', 2), q('c', 3), q('d', 4)];
    const { questions, changes } = renumberAfterDelete(list, 'b');
    expect(questions.map((x) => `${x.id}${x.order_position}`)).toEqual(['a1', 'c2', 'd3']);
    expect(changes).toEqual([
      { id: 'c', old_position: 3, new_position: 2 },
      { id: 'd', old_position: 4, new_position: 3 },
    ]);
  });

  it('needs no update when the last question goes, and sorts an unsorted list first', () => {
    expect(renumberAfterDelete([q('a', 1), q('b', 2)], 'b').changes).toEqual([]);
    const { questions, changes } = renumberAfterDelete([q('c', 3), q('a', 1), q('b', 2)], 'a');
    expect(questions.map((x) => x.id)).toEqual(['b', 'c']);
    expect(changes).toEqual([
      { id: 'b', old_position: 2, new_position: 1 },
      { id: 'c', old_position: 3, new_position: 2 },
    ]);
  });
});
