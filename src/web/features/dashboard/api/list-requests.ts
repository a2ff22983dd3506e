import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZRequestsListResponse } from '../../../../contract/api/requests.schema.js';
import type { TRequestsListResponse } from '../../../../contract/api/requests.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { withQuery } from '../../../lib/url';

/** GET /api/testimonials/requests?company_id=: the company's requests, newest first. */
export function listRequests(companyId: string, signal?: AbortSignal): Promise<TRequestsListResponse> {
  return apiFetch(withQuery(API.testimonials.requests.path, { company_id: companyId }), {
    method: API.testimonials.requests.method,
    schema: ZRequestsListResponse,
    signal,
  });
}

export const requestsKeys = {
  all: ['requests'] as const,
  list: (companyId: string) => ['requests', 'list', companyId] as const,
  detail: (companyId: string, id: string) => ['requests', 'detail', companyId, id] as const,
};

export const requestsQueryOptions = (companyId: string) =>
  queryOptions({
    queryKey: requestsKeys.list(companyId),
    queryFn: ({ signal }) => listRequests(companyId, signal),
  });

export function useRequests(companyId: string | null | undefined) {
  return useQuery({ ...requestsQueryOptions(companyId ?? ''), enabled: Boolean(companyId) });
}
