import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZUpdateSettingsResponse } from '../../../../contract/api/settings.schema.js';
import type { TUpdateSettingsBody, TUpdateSettingsResponse } from '../../../../contract/api/settings.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { settingsKeys } from './get-settings';

/** POST /api/auth/update-settings: the style fields (everything but company_logo_url); answers the saved settings. */
export function updateSettings(body: TUpdateSettingsBody): Promise<TUpdateSettingsResponse> {
  return apiFetch(API.settings.update.path, {
    method: API.settings.update.method,
    body,
    schema: ZUpdateSettingsResponse,
  });
}

/** Saves the style and keeps the answer as the settings now in force. */
export function useUpdateSettingsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSettings,
    onSuccess: (settings) => {
      queryClient.setQueryData(settingsKeys.style(), settings);
    },
  });
}
