import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TLanguageCode } from '../../../../contract/api/common.js';
import { API } from '../../../../contract/api/paths.js';
import { ZRegenerateMergedResponse } from '../../../../contract/api/studio.schema.js';
import type { TRegenerateMergedResponse } from '../../../../contract/api/studio.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { markRenderStarted } from './get-testimonial';

/**
 * POST /api/testimonials/{id}/regenerate-merged { language }: renders the merged video again with the current settings.
 * Answers at once with the job and its queued state; the work runs in the background and its state is
 * read back through the testimonial detail. language is the interface language (for the e-mail).
 */
export function regenerateMerged({
  testimonialId,
  language,
}: {
  companyId: string;
  testimonialId: string;
  language: TLanguageCode;
}): Promise<TRegenerateMergedResponse> {
  return apiFetch(API.studio.regenerateMerged.path(testimonialId), {
    method: API.studio.regenerateMerged.method,
    body: { language },
    schema: ZRegenerateMergedResponse,
  });
}

/** Starts the job, then marks it running in the cached detail (every action disabled) and reads it again. */
export function useRegenerateMergedMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: regenerateMerged,
    onSuccess: (result, { companyId, testimonialId }) =>
      markRenderStarted(queryClient, {
        companyId,
        testimonialId,
        target: { kind: 'testimonial' },
        state: result.state,
      }),
  });
}
