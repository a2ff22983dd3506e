import { useMutation } from '@tanstack/react-query';
import { ZSignoutResponse } from '../../../contract/api/auth.schema.js';
import type { TSignoutResponse } from '../../../contract/api/auth.schema.js';
import { API } from '../../../contract/api/paths.js';
import { apiFetch } from '../api-client';

/**
 * POST /api/auth/signout: revokes the refresh family sent in x-refresh-token. No body. It is never
 * refreshed (an expired access token does not matter: the refresh token identifies the session).
 */
export function signout(): Promise<TSignoutResponse> {
  return apiFetch(API.auth.signout.path, {
    method: API.auth.signout.method,
    schema: ZSignoutResponse,
    skipRefresh: true,
  });
}

export function useSignoutMutation() {
  return useMutation({ mutationFn: signout });
}
