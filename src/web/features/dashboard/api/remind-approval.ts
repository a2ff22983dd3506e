import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZApproval } from '../../../../contract/api/consent.schema.js';
import type { TApproval } from '../../../../contract/api/consent.schema.js';
import { API } from '../../../../contract/api/paths.js';
import { apiFetch } from '../../../lib/api-client';
import { invalidateConsentSubject } from './consent-invalidation';
import type { TConsentSubject } from './consent-invalidation';

/**
 * POST /api/approvals/{id}/remind → the approval, e-mailed again. At most once per 24 hours
 * (approval_reminder_too_soon, with `hours`); approval_already_decided once the customer answered.
 */
export function remindApproval(approvalId: string): Promise<TApproval> {
  return apiFetch(API.consent.remindApproval.path(approvalId), { method: API.consent.remindApproval.method, schema: ZApproval });
}

/** Reminds the customer of an approval, then reads the testimonial and its record again. */
export function useRemindApprovalMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ approvalId }: TConsentSubject & { approvalId: string }) => remindApproval(approvalId),
    onSuccess: (_approval, subject) => invalidateConsentSubject(queryClient, subject),
  });
}
