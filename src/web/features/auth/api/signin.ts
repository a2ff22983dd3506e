import { useMutation } from '@tanstack/react-query';
import { ZSigninResponse } from '../../../../contract/api/auth.schema.js';
import type { TSigninBody, TSigninResponse } from '../../../../contract/api/auth.schema.js';
import { API } from '../../../../contract/api/paths.js';
import { apiFetch } from '../../../lib/api-client';

/** POST /api/auth/signin. A 401 here means wrong credentials, so it is never refreshed. */
export function signin(body: TSigninBody): Promise<TSigninResponse> {
  return apiFetch(API.auth.signin.path, {
    method: API.auth.signin.method,
    body,
    schema: ZSigninResponse,
    skipRefresh: true,
  });
}

export function useSigninMutation() {
  return useMutation({ mutationFn: signin });
}
