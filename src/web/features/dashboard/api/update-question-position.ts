import { useMutation } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZUpdateQuestionPositionResponse } from '../../../../contract/api/questions.schema.js';
import type {
  TUpdateQuestionPositionBody,
  TUpdateQuestionPositionResponse,
} from '../../../../contract/api/questions.schema.js';
import { apiFetch } from '../../../lib/api-client';

/** POST /api/questions/update-position: the server shifts the others so positions stay 1..n. */
export function updateQuestionPosition(body: TUpdateQuestionPositionBody): Promise<TUpdateQuestionPositionResponse> {
  return apiFetch(API.questions.updatePosition.path, {
    method: API.questions.updatePosition.method,
    body,
    schema: ZUpdateQuestionPositionResponse,
  });
}

/** The screen applies the new order at once and reloads the list itself on failure (spec §4). */
export function useUpdateQuestionPositionMutation() {
  return useMutation({ mutationFn: updateQuestionPosition });
}
