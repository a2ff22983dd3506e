import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZStatsResponse } from '../../../../contract/api/testimonials.schema.js';
import type { TStatsResponse } from '../../../../contract/api/testimonials.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { withQuery } from '../../../lib/url';

/** GET /api/testimonials/stats?company_id=: the overview's numbers and the header's credit balance. */
export function getStats(companyId: string, signal?: AbortSignal): Promise<TStatsResponse> {
  return apiFetch(withQuery(API.testimonials.stats.path, { company_id: companyId }), {
    method: API.testimonials.stats.method,
    schema: ZStatsResponse,
    signal,
  });
}

export const statsKeys = {
  all: ['stats'] as const,
  company: (companyId: string) => ['stats', companyId] as const,
};

export const statsQueryOptions = (companyId: string) =>
  queryOptions({
    queryKey: statsKeys.company(companyId),
    queryFn: ({ signal }) => getStats(companyId, signal),
  });

/** The stats of the signed-in company; idle without a company. */
export function useStats(companyId: string | null | undefined) {
  return useQuery({ ...statsQueryOptions(companyId ?? ''), enabled: Boolean(companyId) });
}
