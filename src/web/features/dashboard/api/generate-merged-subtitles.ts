import { useMutation } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZGenerateMergedSubtitlesResponse } from '../../../../contract/api/transcription.schema.js';
import type {
  TGenerateMergedSubtitlesBody,
  TGenerateMergedSubtitlesResponse,
} from '../../../../contract/api/transcription.schema.js';
import { apiFetch } from '../../../lib/api-client';

export interface GenerateMergedSubtitlesInput {
  testimonialId: string;
  body: TGenerateMergedSubtitlesBody;
}

/**
 * POST /api/testimonials/{id}/generate-merged-with-all-subtitles: stores the edited cues of every
 * answer and queues the merged video with each answer's subtitles burned in.
 */
export function generateMergedSubtitles({ testimonialId, body }: GenerateMergedSubtitlesInput): Promise<TGenerateMergedSubtitlesResponse> {
  return apiFetch(API.transcription.generateMergedSubtitles.path(testimonialId), {
    method: API.transcription.generateMergedSubtitles.method,
    body,
    schema: ZGenerateMergedSubtitlesResponse,
  });
}

/** The caller refreshes the testimonial (its onGenerationStarted), which shows the render's state. */
export function useGenerateMergedSubtitlesMutation() {
  return useMutation({ mutationFn: generateMergedSubtitles });
}
