import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZAppConfigResponse } from '../../../contract/api/app-config.schema.js';
import type { TAppConfigResponse } from '../../../contract/api/app-config.schema.js';
import { API } from '../../../contract/api/paths.js';
import { apiFetch } from '../api-client';

/** GET /api/public/app-config: brand, support address, and whether Google sign-in is offered. */
export function getAppConfig(signal?: AbortSignal): Promise<TAppConfigResponse> {
  return apiFetch(API.public.appConfig.path, {
    method: API.public.appConfig.method,
    schema: ZAppConfigResponse,
    signal,
  });
}

export const appConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['public', 'app-config'] as const,
    queryFn: ({ signal }) => getAppConfig(signal),
    staleTime: 5 * 60_000,
  });

export function useAppConfig() {
  return useQuery(appConfigQueryOptions());
}

/** Google buttons show only once the server said Google is configured (hidden while loading or on error). */
export function useGoogleEnabled(): boolean {
  const { data } = useAppConfig();
  return data?.googleEnabled === true;
}

/** Whether this installation sells credits; unknown (loading, error) counts as yes, and the server decides. */
export function usePurchasesAvailable(): boolean {
  const { data } = useAppConfig();
  return data?.payments !== 'disabled';
}
