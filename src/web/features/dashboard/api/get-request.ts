import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZRequestSafeResponse } from '../../../../contract/api/requests.schema.js';
import type { TRequestSafeResponse } from '../../../../contract/api/requests.schema.js';
import { apiFetch, isApiError } from '../../../lib/api-client';
import { withQuery } from '../../../lib/url';
import { requestsKeys } from './list-requests';

/** GET /api/testimonials/request-safe/{id}?company_id=: the request without media (404 when unknown). */
export function getRequest(companyId: string, id: string, signal?: AbortSignal): Promise<TRequestSafeResponse> {
  return apiFetch(withQuery(API.testimonials.requestSafe.path(id), { company_id: companyId }), {
    method: API.testimonials.requestSafe.method,
    schema: ZRequestSafeResponse,
    signal,
  });
}

export const requestQueryOptions = (companyId: string, id: string) =>
  queryOptions({
    queryKey: requestsKeys.detail(companyId, id),
    queryFn: ({ signal }) => getRequest(companyId, id, signal),
    // A 404 (or a malformed id) will not change on a second try.
    retry: (failureCount, error) => !(isApiError(error) && error.status >= 400 && error.status < 500) && failureCount < 1,
  });

export function useRequest(companyId: string | null | undefined, id: string) {
  return useQuery({ ...requestQueryOptions(companyId ?? '', id), enabled: Boolean(companyId && id) });
}
