import { useMutation } from '@tanstack/react-query';
import { ZForgotPasswordResponse } from '../../../../contract/api/auth.schema.js';
import type { TForgotPasswordBody, TForgotPasswordResponse } from '../../../../contract/api/auth.schema.js';
import { API } from '../../../../contract/api/paths.js';
import { apiFetch } from '../../../lib/api-client';

/** POST /api/auth/forgot-password: the same answer whether the account exists or not. */
export function forgotPassword(body: TForgotPasswordBody): Promise<TForgotPasswordResponse> {
  return apiFetch(API.auth.forgotPassword.path, {
    method: API.auth.forgotPassword.method,
    body,
    schema: ZForgotPasswordResponse,
    skipRefresh: true,
  });
}

export function useForgotPasswordMutation() {
  return useMutation({ mutationFn: forgotPassword });
}
