import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { ZActivityPage, type TActivityEventType, type TActivityPage } from '../../../../contract/api/activity.schema.js';
import { API } from '../../../../contract/api/paths.js';
import { apiFetch } from '../../../lib/api-client';

export interface ActivityFilters {
  /** Event types (none: every type). */
  types: readonly TActivityEventType[];
  /** A member's user id. */
  actor?: string | undefined;
  /** Only what happened from this moment (ISO 8601). */
  from?: string | undefined;
}

/** GET /api/activity: one page of the company's activity, newest first (`cursor`: the previous page's `nextCursor`). */
export function listActivity(filters: ActivityFilters, cursor: string | null, signal?: AbortSignal): Promise<TActivityPage> {
  const search = new URLSearchParams();
  if (filters.types.length) search.set('type', filters.types.join(','));
  if (filters.actor) search.set('actor', filters.actor);
  if (filters.from) search.set('from', filters.from);
  if (cursor) search.set('cursor', cursor);
  const query = search.toString();
  return apiFetch(query ? `${API.activity.list.path}?${query}` : API.activity.list.path, {
    method: API.activity.list.method,
    schema: ZActivityPage,
    signal,
  });
}

export const activityKeys = {
  all: ['activity'] as const,
  list: (filters: ActivityFilters) => ['activity', 'list', [...filters.types], filters.actor ?? null, filters.from ?? null] as const,
};

export const activityQueryOptions = (filters: ActivityFilters) =>
  infiniteQueryOptions({
    queryKey: activityKeys.list(filters),
    queryFn: ({ pageParam, signal }) => listActivity(filters, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

/** The log with "load more": each page follows the previous one's cursor. */
export function useActivity(filters: ActivityFilters) {
  return useInfiniteQuery(activityQueryOptions(filters));
}
