import { useMutation } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { LOGO_FIELD, ZUploadLogoResponse } from '../../../../contract/api/settings.schema.js';
import type { TUploadLogoResponse } from '../../../../contract/api/settings.schema.js';
import { apiFetch } from '../../../lib/api-client';

/**
 * POST /api/auth/upload-logo, multipart with the file in field `logo`. Answers at once with a signed
 * address of the file as uploaded (`logo_url`, to show it right away) and the `logo` job that makes it
 * the company's logo (`jobId`, followed with useJob); the stored logo changes once that job is ready.
 */
export function uploadLogo(file: Blob, filename = 'logo'): Promise<TUploadLogoResponse> {
  const form = new FormData();
  form.append(LOGO_FIELD, file, file instanceof File ? file.name : filename);
  return apiFetch(API.settings.uploadLogo.path, {
    method: API.settings.uploadLogo.method,
    body: form,
    schema: ZUploadLogoResponse,
  });
}

/** Uploads the logo. The settings change only once its job is ready (see use-logo-upload.ts). */
export function useUploadLogoMutation() {
  return useMutation({ mutationFn: (file: File) => uploadLogo(file) });
}
