import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZEditQuestionResponse } from '../../../../contract/api/questions.schema.js';
import type { TEditQuestionBody, TEditQuestionResponse, TQuestion } from '../../../../contract/api/questions.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { questionsKeys } from './list-questions';

/** POST /api/questions/edit: the updated question. */
export function editQuestion(body: TEditQuestionBody): Promise<TEditQuestionResponse> {
  return apiFetch(API.questions.edit.path, { method: API.questions.edit.method, body, schema: ZEditQuestionResponse });
}

export function useEditQuestionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: editQuestion,
    onSuccess: (question) => {
      queryClient.setQueryData<TQuestion[]>(questionsKeys.list(question.company_id), (list) =>
        (list ?? []).map((q) => (q.id === question.id ? question : q)),
      );
    },
  });
}
