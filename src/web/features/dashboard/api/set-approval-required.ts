import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZApprovalRequiredResponse } from '../../../../contract/api/consent.schema.js';
import type { TApprovalRequiredResponse } from '../../../../contract/api/consent.schema.js';
import { API } from '../../../../contract/api/paths.js';
import { apiFetch } from '../../../lib/api-client';
import { invalidateConsentSubject } from './consent-invalidation';
import type { TConsentSubject } from './consent-invalidation';

/**
 * PUT /api/testimonials/{id}/approval-required: this testimonial's switch. The screen sends a boolean
 * (a switch has two states); the contract also takes null, "follow the company's setting".
 */
export function setApprovalRequired({ testimonialId, required }: { testimonialId: string; required: boolean | null }): Promise<TApprovalRequiredResponse> {
  return apiFetch(API.consent.setApprovalRequired.path(testimonialId), {
    method: API.consent.setApprovalRequired.method,
    body: { required },
    schema: ZApprovalRequiredResponse,
  });
}

/** Sets the switch, then reads the testimonial (its customer_control) and its record again. */
export function useSetApprovalRequiredMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TConsentSubject & { required: boolean | null }) => setApprovalRequired(input),
    onSuccess: (_answer, subject) => invalidateConsentSubject(queryClient, subject),
  });
}
