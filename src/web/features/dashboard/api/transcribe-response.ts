import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZTranscribeResponse } from '../../../../contract/api/transcription.schema.js';
import type { TTranscribeResponse } from '../../../../contract/api/transcription.schema.js';
import { apiFetch } from '../../../lib/api-client';

/**
 * POST /api/testimonials/response/{id}/transcribe: the answer's subtitle cues. A stored transcript
 * (the engine's, or the last edited one) comes back at once; otherwise the server queues a job (202
 * with the job's id and an empty transcription), which the review follows with useJob and whose
 * result it reads once ready (transcription-job-status.ts).
 */
export function transcribeResponse(responseId: string, options: { force?: boolean; signal?: AbortSignal } = {}): Promise<TTranscribeResponse> {
  return apiFetch(API.transcription.transcribe.path(responseId), {
    method: API.transcription.transcribe.method,
    ...(options.force ? { body: { force: true } } : {}),
    schema: ZTranscribeResponse,
    signal: options.signal,
  });
}

export const transcriptionKeys = {
  all: ['transcription'] as const,
  response: (responseId: string) => ['transcription', 'response', responseId] as const,
};

/**
 * The review edits a copy of the cues, so the query never refetches on its own while the dialog is
 * open (a refetch would replace the edits), and is dropped as soon as the dialog closes (gcTime 0),
 * so that opening it again reads what the server stored last (the edited cues after a generation).
 * No automatic retry: an engine failure is slow and the person retries from the error state.
 */
export const transcribeResponseQueryOptions = (responseId: string) =>
  queryOptions({
    queryKey: transcriptionKeys.response(responseId),
    queryFn: ({ signal }) => transcribeResponse(responseId, { signal }),
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

/** The cues of one answer while `enabled` (the review dialog is open). */
export function useTranscribeResponse(responseId: string, enabled: boolean) {
  return useQuery({ ...transcribeResponseQueryOptions(responseId), enabled: enabled && Boolean(responseId) });
}
