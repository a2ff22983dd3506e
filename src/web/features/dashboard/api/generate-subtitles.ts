import { useMutation } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZGenerateSubtitlesResponse } from '../../../../contract/api/transcription.schema.js';
import type { TGenerateSubtitlesBody, TGenerateSubtitlesResponse } from '../../../../contract/api/transcription.schema.js';
import { apiFetch } from '../../../lib/api-client';

export interface GenerateSubtitlesInput {
  responseId: string;
  body: TGenerateSubtitlesBody;
}

/**
 * POST /api/testimonials/response/{id}/generate-modified/subtitles: stores the edited cues and queues
 * the burn-in (with the intro when the answer has one). Answers at once with the render job.
 */
export function generateSubtitles({ responseId, body }: GenerateSubtitlesInput): Promise<TGenerateSubtitlesResponse> {
  return apiFetch(API.transcription.generateSubtitles.path(responseId), {
    method: API.transcription.generateSubtitles.method,
    body,
    schema: ZGenerateSubtitlesResponse,
  });
}

/** The caller refreshes the testimonial (its onGenerationStarted), which shows the render's state. */
export function useGenerateSubtitlesMutation() {
  return useMutation({ mutationFn: generateSubtitles });
}
