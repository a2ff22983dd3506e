import { useMutation } from '@tanstack/react-query';
import { ZSignupResponse } from '../../../../contract/api/auth.schema.js';
import type { TSignupBody, TSignupResponse } from '../../../../contract/api/auth.schema.js';
import { API } from '../../../../contract/api/paths.js';
import { apiFetch } from '../../../lib/api-client';

/** POST /api/auth/signup: `{ user }` for an e-mail sign-up, `{ user, token, refreshToken }` for Google. */
export function signup(body: TSignupBody): Promise<TSignupResponse> {
  return apiFetch(API.auth.signup.path, {
    method: API.auth.signup.method,
    body,
    schema: ZSignupResponse,
    skipRefresh: true,
  });
}

export function useSignupMutation() {
  return useMutation({ mutationFn: signup });
}
