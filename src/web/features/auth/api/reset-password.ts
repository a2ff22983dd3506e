import { useMutation } from '@tanstack/react-query';
import { ZResetPasswordResponse } from '../../../../contract/api/auth.schema.js';
import type { TResetPasswordBody, TResetPasswordResponse } from '../../../../contract/api/auth.schema.js';
import { API } from '../../../../contract/api/paths.js';
import { apiFetch } from '../../../lib/api-client';

/** POST /api/auth/reset-password with the token of the e-mailed link. */
export function resetPassword(body: TResetPasswordBody): Promise<TResetPasswordResponse> {
  return apiFetch(API.auth.resetPassword.path, {
    method: API.auth.resetPassword.method,
    body,
    schema: ZResetPasswordResponse,
    skipRefresh: true,
  });
}

export function useResetPasswordMutation() {
  return useMutation({ mutationFn: resetPassword });
}
