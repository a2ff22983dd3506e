import { API } from '../../../../contract/api/paths.js';
import { ZTranscribeMergedResponse } from '../../../../contract/api/transcription.schema.js';
import type { TTranscribeMergedResponse } from '../../../../contract/api/transcription.schema.js';
import { apiFetch } from '../../../lib/api-client';

/**
 * POST /api/testimonials/{id}/transcribe-merged-responses: queues the transcription of every answer
 * of a testimonial and answers at once with the job to poll (see transcription-job-status.ts).
 */
export function startMergedTranscription(testimonialId: string, signal?: AbortSignal): Promise<TTranscribeMergedResponse> {
  return apiFetch(API.transcription.transcribeMerged.path(testimonialId), {
    method: API.transcription.transcribeMerged.method,
    schema: ZTranscribeMergedResponse,
    signal,
  });
}
