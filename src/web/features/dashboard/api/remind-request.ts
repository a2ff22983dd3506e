import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZRemindResponse } from '../../../../contract/api/requests.schema.js';
import type { TRemindResponse, TRequestsListResponse, TRequestSafeResponse } from '../../../../contract/api/requests.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { requestsKeys } from './list-requests';

/**
 * POST /api/testimonials/request/{id}/remind. Refused (409) for a completed or expired request and
 * (429) within 24 h of the last reminder, each with a message in `error`.
 */
export function remindRequest({ id, companyId }: { id: string; companyId: string }): Promise<TRemindResponse> {
  return apiFetch(API.testimonials.remind.path(id), {
    method: API.testimonials.remind.method,
    body: { company_id: companyId },
    schema: ZRemindResponse,
  });
}

/** On success last_reminder_sent becomes 'now' in the list and the detail (spec §4). */
export function useRemindRequestMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: remindRequest,
    onSuccess: (_result, { id, companyId }) => {
      const now = new Date().toISOString();
      queryClient.setQueryData<TRequestsListResponse>(requestsKeys.list(companyId), (list) =>
        list?.map((request) => (request.id === id ? { ...request, last_reminder_sent: now } : request)),
      );
      queryClient.setQueryData<TRequestSafeResponse>(requestsKeys.detail(companyId, id), (detail) =>
        detail ? { testimonial: { ...detail.testimonial, last_reminder_sent: now } } : detail,
      );
    },
  });
}
