import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TLanguageCode } from '../../../../contract/api/common.js';
import { API } from '../../../../contract/api/paths.js';
import { ZMergeResponse } from '../../../../contract/api/studio.schema.js';
import type { TMergeResponse } from '../../../../contract/api/studio.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { markRenderStarted } from './get-testimonial';

/**
 * POST /api/testimonials/{id}/merge { language }: every answer in order, each after its question card, as one video.
 * Answers at once with the job and its queued state; the work runs in the background and its state is
 * read back through the testimonial detail. language is the interface language (for the e-mail).
 */
export function merge({
  testimonialId,
  language,
}: {
  companyId: string;
  testimonialId: string;
  language: TLanguageCode;
}): Promise<TMergeResponse> {
  return apiFetch(API.studio.merge.path(testimonialId), {
    method: API.studio.merge.method,
    body: { language },
    schema: ZMergeResponse,
  });
}

/** Starts the job, then marks it running in the cached detail (every action disabled) and reads it again. */
export function useMergeMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: merge,
    onSuccess: (result, { companyId, testimonialId }) =>
      markRenderStarted(queryClient, {
        companyId,
        testimonialId,
        target: { kind: 'testimonial' },
        state: result.state,
      }),
  });
}
