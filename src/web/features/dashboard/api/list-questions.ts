import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZQuestionsListResponse } from '../../../../contract/api/questions.schema.js';
import type { TQuestionsListResponse } from '../../../../contract/api/questions.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { withQuery } from '../../../lib/url';

/** GET /api/questions/list?company_id=&_t=: the company's questions by order_position (`_t` busts caches). */
export function listQuestions(companyId: string, signal?: AbortSignal): Promise<TQuestionsListResponse> {
  return apiFetch(withQuery(API.questions.list.path, { company_id: companyId, _t: Date.now() }), {
    method: API.questions.list.method,
    schema: ZQuestionsListResponse,
    signal,
  });
}

export const questionsKeys = {
  all: ['questions'] as const,
  list: (companyId: string) => ['questions', 'list', companyId] as const,
};

export const questionsQueryOptions = (companyId: string) =>
  queryOptions({
    queryKey: questionsKeys.list(companyId),
    queryFn: ({ signal }) => listQuestions(companyId, signal),
    select: (questions) => [...questions].sort((a, b) => a.order_position - b.order_position),
  });

export function useQuestions(companyId: string | null | undefined) {
  return useQuery({ ...questionsQueryOptions(companyId ?? ''), enabled: Boolean(companyId) });
}
