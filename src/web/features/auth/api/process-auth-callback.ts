import { useMutation } from '@tanstack/react-query';
import { ZProcessAuthCallbackResponse } from '../../../../contract/api/auth.schema.js';
import type { TProcessAuthCallbackBody, TProcessAuthCallbackResponse } from '../../../../contract/api/auth.schema.js';
import { API } from '../../../../contract/api/paths.js';
import { apiFetch } from '../../../lib/api-client';

/** POST /api/auth/process-auth-callback: trades the one-time code of /auth/callback for a session or a profile. */
export function processAuthCallback(body: TProcessAuthCallbackBody): Promise<TProcessAuthCallbackResponse> {
  return apiFetch(API.auth.processAuthCallback.path, {
    method: API.auth.processAuthCallback.method,
    body,
    schema: ZProcessAuthCallbackResponse,
    skipRefresh: true,
  });
}

export function useProcessAuthCallbackMutation() {
  return useMutation({ mutationFn: processAuthCallback });
}
