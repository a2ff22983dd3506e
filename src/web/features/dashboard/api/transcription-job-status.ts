import { API } from '../../../../contract/api/paths.js';
import { ZTranscriptionJobStatusResponse } from '../../../../contract/api/transcription.schema.js';
import type { TTranscriptionJobStatusResponse } from '../../../../contract/api/transcription.schema.js';
import { apiFetch } from '../../../lib/api-client';

/**
 * GET /api/testimonials/transcription-job/{jobId}/status: `{ status, merged_url }`, where merged_url
 * is a JSON string of the per-answer transcriptions once the status is done. Polled every 3 s by
 * useTranscriptionJob (spec §4), so it is a plain fetcher rather than a cached query.
 */
export function getTranscriptionJobStatus(jobId: string, signal?: AbortSignal): Promise<TTranscriptionJobStatusResponse> {
  return apiFetch(API.transcription.jobStatus.path(jobId), {
    method: API.transcription.jobStatus.method,
    schema: ZTranscriptionJobStatusResponse,
    signal,
  });
}
