import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZSendRequestResponse } from '../../../../contract/api/requests.schema.js';
import type { TSendRequestBody, TSendRequestResponse } from '../../../../contract/api/requests.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { statsKeys } from './get-stats';
import { requestsKeys } from './list-requests';

/** POST /api/testimonials/request: stores the request and e-mails the invitation. */
export function sendRequest(body: TSendRequestBody): Promise<TSendRequestResponse> {
  return apiFetch(API.testimonials.sendRequest.path, {
    method: API.testimonials.sendRequest.method,
    body,
    schema: ZSendRequestResponse,
  });
}

export function useSendRequestMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendRequest,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: requestsKeys.all });
      void queryClient.invalidateQueries({ queryKey: statsKeys.all });
    },
  });
}
