import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZRequestTimeline } from '../../../../contract/api/funnel.schema.js';
import type { TRequestTimeline } from '../../../../contract/api/funnel.schema.js';
import { API } from '../../../../contract/api/paths.js';
import { apiFetch } from '../../../lib/api-client';
import { funnelKeys } from './get-funnel';

/** GET /api/testimonials/request/{id}/timeline: the request's steps in time order (404 for another company's). */
export function getRequestTimeline(id: string, signal?: AbortSignal): Promise<TRequestTimeline> {
  return apiFetch(API.funnel.timeline.path(id), { method: API.funnel.timeline.method, schema: ZRequestTimeline, signal });
}

export const requestTimelineQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...funnelKeys.all, 'timeline', id] as const,
    queryFn: ({ signal }) => getRequestTimeline(id, signal),
  });

export function useRequestTimeline(id: string) {
  return useQuery({ ...requestTimelineQueryOptions(id), enabled: Boolean(id) });
}
