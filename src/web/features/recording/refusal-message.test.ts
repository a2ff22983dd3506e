import { describe, expect, it } from 'vitest';
import { refusedQuestionIndex } from './refusal-message';

describe("where 'record again' leads after refused answers", () => {
  const questions = ['q1', 'q2', 'q3'].map((id) => ({ id, text: `Question ${id}` }));
  const refusal = (params: Record<string, string | number>) => ({ status: 400, reason: 'answer_no_sound', params });
  const all = () => true;

  it('opens the question of the answer the server named (1-based, in the order sent)', () => {
    expect(refusedQuestionIndex(refusal({ answer: 1 }), questions, all)).toBe(0);
    expect(refusedQuestionIndex(refusal({ answer: 3 }), questions, all)).toBe(2);
    // Only answered questions are sent: answer 2 of [q1, q3] is q3.
    expect(refusedQuestionIndex(refusal({ answer: 2 }), questions, (id) => id !== 'q2')).toBe(2);
  });

  it('starts at the first question when no answer is named, or one that is not there', () => {
    expect(refusedQuestionIndex(null, questions, all)).toBe(0);
    expect(refusedQuestionIndex(refusal({}), questions, all)).toBe(0);
    expect(refusedQuestionIndex(refusal({ answer: '2' }), questions, all)).toBe(0);
    expect(refusedQuestionIndex(refusal({ answer: 0 }), questions, all)).toBe(0);
    expect(refusedQuestionIndex(refusal({ answer: 9 }), questions, all)).toBe(0);
  });
});
