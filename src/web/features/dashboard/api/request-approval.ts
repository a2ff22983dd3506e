import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZApproval } from '../../../../contract/api/consent.schema.js';
import type { TApproval, TRequestApprovalBody } from '../../../../contract/api/consent.schema.js';
import { API } from '../../../../contract/api/paths.js';
import { apiFetch } from '../../../lib/api-client';
import { invalidateConsentSubject } from './consent-invalidation';
import type { TConsentSubject } from './consent-invalidation';

/**
 * POST /api/testimonials/{id}/approvals → 201 with the approval: the customer is e-mailed the video
 * (`jobId`, a ready render, or `responseId`, an answer as recorded) to approve it or ask for changes.
 * Refused with a reason: approval_no_email, consent_withdrawn, answer_removed.
 */
export function requestApproval({ testimonialId, body }: { testimonialId: string; body: TRequestApprovalBody }): Promise<TApproval> {
  return apiFetch(API.consent.requestApproval.path(testimonialId), { method: API.consent.requestApproval.method, body, schema: ZApproval });
}

/** Asks for an approval, then reads the testimonial (its approvals) and its record again. */
export function useRequestApprovalMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TConsentSubject & { body: TRequestApprovalBody }) => requestApproval(input),
    onSuccess: (_approval, subject) => invalidateConsentSubject(queryClient, subject),
  });
}
