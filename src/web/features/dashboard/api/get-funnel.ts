import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZFunnel } from '../../../../contract/api/funnel.schema.js';
import type { TFunnel } from '../../../../contract/api/funnel.schema.js';
import { API } from '../../../../contract/api/paths.js';
import { apiFetch } from '../../../lib/api-client';
import { withQuery } from '../../../lib/url';

export interface FunnelFilters {
  /** Both or neither: without them the server shows its last 30 days (the company's today included). */
  from?: string;
  to?: string;
  linkId?: string;
  language?: 'english' | 'french';
}

/** GET /api/funnel?from&to&link_id&language: counts and conversions per step, per link and per language. */
export function getFunnel(filters: FunnelFilters, signal?: AbortSignal): Promise<TFunnel> {
  return apiFetch(
    withQuery(API.funnel.get.path, {
      from: filters.from,
      to: filters.to,
      link_id: filters.linkId,
      language: filters.language,
    }),
    { method: API.funnel.get.method, schema: ZFunnel, signal },
  );
}

export const funnelKeys = {
  all: ['funnel'] as const,
  view: (filters: FunnelFilters) => [...funnelKeys.all, filters] as const,
};

export const funnelQueryOptions = (filters: FunnelFilters) =>
  queryOptions({
    queryKey: funnelKeys.view(filters),
    queryFn: ({ signal }) => getFunnel(filters, signal),
    // A change of period or filter keeps the bars in place until the new counts arrive.
    placeholderData: keepPreviousData,
  });

export function useFunnel(filters: FunnelFilters) {
  return useQuery(funnelQueryOptions(filters));
}
