import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZMeResponse } from '../../../contract/api/auth.schema.js';
import type { TMeResponse } from '../../../contract/api/auth.schema.js';
import { API } from '../../../contract/api/paths.js';
import { apiFetch } from '../api-client';

/** GET /api/auth/me: the signed-in user (session check at start). */
export function getMe(signal?: AbortSignal): Promise<TMeResponse> {
  return apiFetch(API.auth.me.path, { method: API.auth.me.method, schema: ZMeResponse, signal });
}

export const meQueryOptions = () =>
  queryOptions({
    queryKey: ['auth', 'me'] as const,
    queryFn: ({ signal }) => getMe(signal),
    retry: false,
  });

export function useMe(options: { enabled?: boolean } = {}) {
  return useQuery({ ...meQueryOptions(), enabled: options.enabled ?? true });
}
