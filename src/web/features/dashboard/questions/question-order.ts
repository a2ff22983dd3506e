import type { TQuestion } from '../../../../contract/api/questions.schema.js';

/** The questions with order_position set to 1..n in their current order. */
export function renumber(questions: readonly TQuestion[]): TQuestion[] {
  return questions.map((question, index) =>
    question.order_position === index + 1 ? question : { ...question, order_position: index + 1 },
  );
}

/** The list with the item at `from` moved to `to` (indexes), renumbered 1..n. */
export function moveQuestion(questions: readonly TQuestion[], from: number, to: number): TQuestion[] {
  if (from === to || from < 0 || to < 0 || from >= questions.length || to >= questions.length) {
    return renumber(questions);
  }
  const next = [...questions];
  const [moved] = next.splice(from, 1);
  if (moved) next.splice(to, 0, moved);
  return renumber(next);
}

export interface TPositionChange {
  id: string;
  old_position: number;
  new_position: number;
}

/**
 * After a delete (spec §4): the remaining questions renumbered 1..n, and one position update for each
 * question whose position changed, in list order.
 */
export function renumberAfterDelete(
  questions: readonly TQuestion[],
  deletedId: string,
): { questions: TQuestion[]; changes: TPositionChange[] } {
  const remaining = [...questions]
    .filter((question) => question.id !== deletedId)
    .sort((a, b) => a.order_position - b.order_position);
  const renumbered = renumber(remaining);
  const changes = remaining.flatMap((question, index) =>
    question.order_position === index + 1
      ? []
      : [{ id: question.id, old_position: question.order_position, new_position: index + 1 }],
  );
  return { questions: renumbered, changes };
}
