import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { parseMergedTranscriptions, ZTranscribeResponse } from '../../../../contract/api/transcription.schema.js';
import type { TTranscribeResponse, TTranscription, TTranscriptionJobStatusResponse } from '../../../../contract/api/transcription.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { MAX_CONSECUTIVE_FAILURES, POLL_INTERVAL_MS } from '../transcription/use-transcription-job';
import { getTranscriptionJobStatus } from './transcription-job-status';

/** A transcription job that ended without cues (its error, or too many failed checks). */
export class TranscriptionJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TranscriptionJobError';
  }
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const abort = () => {
      clearTimeout(timer);
      reject(new DOMException('Aborted', 'AbortError'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    if (signal?.aborted) abort();
    else signal?.addEventListener('abort', abort, { once: true });
  });
}

/**
 * Follows the worker's job for one answer through GET transcription-job/{jobId}/status, as the merged
 * review does (spec §4): a check every 3 s, given up after more than 5 consecutive failed checks. Once
 * done, merged_url holds this one answer.
 */
export async function followTranscriptionJob(responseId: string, jobId: string, signal?: AbortSignal): Promise<TTranscription> {
  let failures = 0;
  for (;;) {
    await pause(POLL_INTERVAL_MS, signal);
    let status: TTranscriptionJobStatusResponse;
    try {
      status = await getTranscriptionJobStatus(jobId, signal);
      failures = 0;
    } catch (error) {
      if (signal?.aborted) throw error;
      failures += 1;
      console.warn('A transcription status check failed; checking again in 3 s.', error);
      if (failures > MAX_CONSECUTIVE_FAILURES) throw new TranscriptionJobError('Transcription timeout. Please try again.');
      continue;
    }
    if (status.status === 'error') throw new TranscriptionJobError(status.error ?? 'Transcription failed. Please try again.');
    if (status.status !== 'done') continue;
    const item = status.merged_url ? parseMergedTranscriptions(status.merged_url).find((entry) => entry.responseId === responseId) : undefined;
    if (!item) throw new TranscriptionJobError('The finished job returned no transcription for this answer.');
    if (item.error) throw new TranscriptionJobError(item.error);
    return item.transcription;
  }
}

/**
 * POST /api/testimonials/response/{id}/transcribe: the answer's subtitle cues. A stored transcript
 * (the engine's, or the last edited one) comes back at once; otherwise the server queues a job for its
 * worker (202 with the job's id), followed here until it is done, which can take 10 s or more.
 */
export async function transcribeResponse(
  responseId: string,
  options: { force?: boolean; signal?: AbortSignal } = {},
): Promise<TTranscribeResponse> {
  const answer = await apiFetch(API.transcription.transcribe.path(responseId), {
    method: API.transcription.transcribe.method,
    ...(options.force ? { body: { force: true } } : {}),
    schema: ZTranscribeResponse,
    signal: options.signal,
  });
  if (!answer.jobId) return answer;
  return { transcription: await followTranscriptionJob(responseId, answer.jobId, options.signal) };
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
