import { useMutation } from '@tanstack/react-query';
import { ZResendConfirmationResponse } from '../../../../contract/api/auth.schema.js';
import type { TResendConfirmationBody, TResendConfirmationResponse } from '../../../../contract/api/auth.schema.js';
import { API } from '../../../../contract/api/paths.js';
import { apiFetch } from '../../../lib/api-client';

/** POST /api/auth/resend-confirmation: a new link when the account exists and is unconfirmed. */
export function resendConfirmation(body: TResendConfirmationBody): Promise<TResendConfirmationResponse> {
  return apiFetch(API.auth.resendConfirmation.path, {
    method: API.auth.resendConfirmation.method,
    body,
    schema: ZResendConfirmationResponse,
    skipRefresh: true,
  });
}

export function useResendConfirmationMutation() {
  return useMutation({ mutationFn: resendConfirmation });
}
