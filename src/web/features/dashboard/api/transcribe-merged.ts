import { queryOptions } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZTranscribeMergedResponse } from '../../../../contract/api/transcription.schema.js';
import type { TTranscribeMergedResponse } from '../../../../contract/api/transcription.schema.js';
import { apiFetch } from '../../../lib/api-client';

/**
 * POST /api/testimonials/{id}/transcribe-merged-responses: queues the transcription of every answer
 * of a testimonial and answers at once with its job, followed with useJob (jobs/use-job.ts).
 */
export function startMergedTranscription(testimonialId: string, signal?: AbortSignal): Promise<TTranscribeMergedResponse> {
  return apiFetch(API.transcription.transcribeMerged.path(testimonialId), {
    method: API.transcription.transcribeMerged.method,
    schema: ZTranscribeMergedResponse,
    signal,
  });
}

/**
 * The start of the merged review's job, as a query so that it is sent once per opening (and once per
 * retry: `attempt`), never again by itself, and forgotten when the review closes (gcTime 0).
 */
export const mergedTranscriptionQueryOptions = (testimonialId: string, attempt: number) =>
  queryOptions({
    queryKey: ['transcription', 'merged', testimonialId, attempt] as const,
    queryFn: ({ signal }) => startMergedTranscription(testimonialId, signal),
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
