import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TLanguageCode } from '../../../../contract/api/common.js';
import { API } from '../../../../contract/api/paths.js';
import { ZGenerateIntroResponse } from '../../../../contract/api/studio.schema.js';
import type { TGenerateIntroResponse } from '../../../../contract/api/studio.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { markRenderStarted } from './get-testimonial';

/**
 * POST /api/testimonials/response/{id}/generate-modified/intro { language }: renders the intro card (question in the company style) before the answer.
 * Answers at once with the job and its queued state; the work runs in the background and its state is
 * read back through the testimonial detail. language is the interface language (for the e-mail).
 */
export function generateIntro({
  responseId,
  language,
}: {
  companyId: string;
  testimonialId: string;
  responseId: string;
  language: TLanguageCode;
}): Promise<TGenerateIntroResponse> {
  return apiFetch(API.studio.generateIntro.path(responseId), {
    method: API.studio.generateIntro.method,
    body: { language },
    schema: ZGenerateIntroResponse,
  });
}

/** Starts the job, then marks it running in the cached detail (every action disabled) and reads it again. */
export function useGenerateIntroMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generateIntro,
    onSuccess: (result, { companyId, testimonialId, responseId }) =>
      markRenderStarted(queryClient, {
        companyId,
        testimonialId,
        target: { kind: 'response', id: responseId },
        state: result.state,
      }),
  });
}
