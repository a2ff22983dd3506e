import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZAddQuestionResponse } from '../../../../contract/api/questions.schema.js';
import type { TAddQuestionBody, TAddQuestionResponse, TQuestion } from '../../../../contract/api/questions.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { statsKeys } from './get-stats';
import { questionsKeys } from './list-questions';

/** POST /api/questions/add: the new question (order_position is count + 1). */
export function addQuestion(body: TAddQuestionBody): Promise<TAddQuestionResponse> {
  return apiFetch(API.questions.add.path, { method: API.questions.add.method, body, schema: ZAddQuestionResponse });
}

/** Appends the new question from the response (spec §4), then refreshes the stats. */
export function useAddQuestionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addQuestion,
    onSuccess: (question) => {
      queryClient.setQueryData<TQuestion[]>(questionsKeys.list(question.company_id), (list) => [
        ...(list ?? []).filter((q) => q.id !== question.id),
        question,
      ]);
      void queryClient.invalidateQueries({ queryKey: statsKeys.all });
    },
  });
}
