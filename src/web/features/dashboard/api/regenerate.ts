import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TLanguageCode } from '../../../../contract/api/common.js';
import { API } from '../../../../contract/api/paths.js';
import { ZRegenerateResponse } from '../../../../contract/api/studio.schema.js';
import type { TRegenerateResponse } from '../../../../contract/api/studio.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { markRenderStarted } from './get-testimonial';

/**
 * POST /api/testimonials/response/{id}/regenerate { language }: renders the answer's enhanced version again with the current settings.
 * Answers at once with the job and its queued state; the work runs in the background and its state is
 * read back through the testimonial detail. language is the interface language (for the e-mail).
 */
export function regenerate({
  responseId,
  language,
}: {
  companyId: string;
  testimonialId: string;
  responseId: string;
  language: TLanguageCode;
}): Promise<TRegenerateResponse> {
  return apiFetch(API.studio.regenerate.path(responseId), {
    method: API.studio.regenerate.method,
    body: { language },
    schema: ZRegenerateResponse,
  });
}

/** Starts the job, then marks it running in the cached detail (every action disabled) and reads it again. */
export function useRegenerateMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: regenerate,
    onSuccess: (result, { companyId, testimonialId, responseId }) =>
      markRenderStarted(queryClient, {
        companyId,
        testimonialId,
        target: { kind: 'response', id: responseId },
        state: result.state,
      }),
  });
}
