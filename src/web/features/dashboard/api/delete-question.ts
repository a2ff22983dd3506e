import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { QUESTION_IN_USE_MARKER, ZDeleteQuestionResponse } from '../../../../contract/api/questions.schema.js';
import type { TDeleteQuestionBody, TDeleteQuestionResponse } from '../../../../contract/api/questions.schema.js';
import { apiFetch, isApiError } from '../../../lib/api-client';
import { statsKeys } from './get-stats';

/** POST /api/questions/delete. A question used by a sent request is refused (409, 'being used'). */
export function deleteQuestion(body: TDeleteQuestionBody): Promise<TDeleteQuestionResponse> {
  return apiFetch(API.questions.delete.path, {
    method: API.questions.delete.method,
    body,
    schema: ZDeleteQuestionResponse,
  });
}

/** Whether a failed delete was refused because the question is in use (spec §8). */
export function isQuestionInUseError(error: unknown): boolean {
  if (!isApiError(error)) return false;
  const text = error.message.toLowerCase();
  return text.includes(QUESTION_IN_USE_MARKER) || text.includes('testimonial responses');
}

/** The caller renumbers and reloads (see the questions screen); this only refreshes the stats. */
export function useDeleteQuestionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteQuestion,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: statsKeys.all });
    },
  });
}
