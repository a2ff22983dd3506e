import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { parseMergedTranscriptions, ZTranscriptionJobStatusResponse } from '../../../../contract/api/transcription.schema.js';
import type { TResponseTranscriptions, TTranscriptionJobStatusResponse } from '../../../../contract/api/transcription.schema.js';
import { apiFetch } from '../../../lib/api-client';

/** Spec §4: a transcription job is checked every 3 s (through useJob). */
export const TRANSCRIPTION_POLL_MS = 3_000;

/**
 * GET /api/testimonials/transcription-job/{jobId}/status: `{ status, merged_url }`, where merged_url
 * is a JSON string of the per-answer transcriptions once the status is done. The job itself is
 * followed through GET /api/jobs/{id} (useJob); this is read once it is ready, for its result.
 */
export function getTranscriptionJobStatus(jobId: string, signal?: AbortSignal): Promise<TTranscriptionJobStatusResponse> {
  return apiFetch(API.transcription.jobStatus.path(jobId), {
    method: API.transcription.jobStatus.method,
    schema: ZTranscriptionJobStatusResponse,
    signal,
  });
}

/** A finished transcription job that gave no usable result. */
export class TranscriptionResultError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TranscriptionResultError';
  }
}

/** The per-answer transcriptions of a finished job, in answer order. */
export async function getTranscriptionResult(jobId: string, signal?: AbortSignal): Promise<TResponseTranscriptions> {
  const status = await getTranscriptionJobStatus(jobId, signal);
  if (status.status === 'error') throw new TranscriptionResultError(status.error ?? 'The transcription failed.');
  if (status.status !== 'done' || status.merged_url === null) throw new TranscriptionResultError('The finished job returned no transcriptions.');
  return [...parseMergedTranscriptions(status.merged_url)].sort((a, b) => a.orderPosition - b.orderPosition);
}

export const transcriptionResultQueryOptions = (jobId: string) =>
  queryOptions({
    queryKey: ['transcription', 'result', jobId] as const,
    queryFn: ({ signal }) => getTranscriptionResult(jobId, signal),
    // A finished job's result does not change; the review edits a copy of it.
    staleTime: Infinity,
    retry: 1,
    refetchOnWindowFocus: false,
  });

/** The result of a transcription job, read once the job is ready (`jobId` null until then). */
export function useTranscriptionResult(jobId: string | null) {
  return useQuery({ ...transcriptionResultQueryOptions(jobId ?? ''), enabled: Boolean(jobId) });
}
