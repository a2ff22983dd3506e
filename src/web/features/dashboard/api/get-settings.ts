import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZGetSettingsResponse } from '../../../../contract/api/settings.schema.js';
import type { TGetSettingsResponse } from '../../../../contract/api/settings.schema.js';
import { apiFetch } from '../../../lib/api-client';

/** GET /api/auth/settings: the company's video style (fonts, colours, logo, border, background). */
export function getSettings(signal?: AbortSignal): Promise<TGetSettingsResponse> {
  return apiFetch(API.settings.get.path, {
    method: API.settings.get.method,
    schema: ZGetSettingsResponse,
    signal,
  });
}

export const settingsKeys = {
  all: ['settings'] as const,
  style: () => ['settings', 'style'] as const,
};

export const settingsQueryOptions = () =>
  queryOptions({
    queryKey: settingsKeys.style(),
    queryFn: ({ signal }) => getSettings(signal),
  });

export function useSettings() {
  return useQuery(settingsQueryOptions());
}
