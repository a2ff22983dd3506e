import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZDeleteMediaResponse } from '../../../../contract/api/consent.schema.js';
import type { TDeleteMediaResponse } from '../../../../contract/api/consent.schema.js';
import { API } from '../../../../contract/api/paths.js';
import { apiFetch } from '../../../lib/api-client';
import { invalidateConsentSubject } from './consent-invalidation';
import type { TConsentSubject } from './consent-invalidation';

/**
 * POST /api/testimonials/{id}/delete-media: the company deletes a withdrawn testimonial's videos now,
 * before the retention period. Refused: media_delete_not_withdrawn, media_deleted (already done).
 */
export function deleteMedia(testimonialId: string): Promise<TDeleteMediaResponse> {
  return apiFetch(API.consent.deleteMedia.path(testimonialId), { method: API.consent.deleteMedia.method, schema: ZDeleteMediaResponse });
}

/** Deletes the media, then reads the testimonial and its record again. */
export function useDeleteMediaMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ testimonialId }: TConsentSubject) => deleteMedia(testimonialId),
    onSuccess: (_answer, subject) => invalidateConsentSubject(queryClient, subject),
  });
}
