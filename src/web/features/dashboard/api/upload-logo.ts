import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { LOGO_FIELD, ZUploadLogoResponse } from '../../../../contract/api/settings.schema.js';
import type { TGetSettingsResponse, TUploadLogoResponse } from '../../../../contract/api/settings.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { settingsKeys } from './get-settings';

/** POST /api/auth/upload-logo, multipart with the file in field `logo`: stores it at once, answers logo_url. */
export function uploadLogo(file: Blob, filename = 'logo'): Promise<TUploadLogoResponse> {
  const form = new FormData();
  form.append(LOGO_FIELD, file, file instanceof File ? file.name : filename);
  return apiFetch(API.settings.uploadLogo.path, {
    method: API.settings.uploadLogo.method,
    body: form,
    schema: ZUploadLogoResponse,
  });
}

/** Uploads the logo; the stored settings now carry its address. */
export function useUploadLogoMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => uploadLogo(file),
    onSuccess: ({ logo_url }) => {
      queryClient.setQueryData<TGetSettingsResponse>(settingsKeys.style(), (settings) =>
        settings ? { ...settings, logo_url, company_logo_url: logo_url } : settings,
      );
    },
  });
}
