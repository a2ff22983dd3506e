import { useMutation } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZSaveTranscriptionResponse } from '../../../../contract/api/transcription.schema.js';
import type { TSaveTranscriptionBody, TSaveTranscriptionResponse } from '../../../../contract/api/transcription.schema.js';
import { apiFetch } from '../../../lib/api-client';

export interface SaveTranscriptionInput {
  responseId: string;
  body: TSaveTranscriptionBody;
}

/**
 * PUT /api/testimonials/response/{id}/transcription: stores the answer's subtitle lines as typed or
 * corrected (decision 167); a line at fault is refused with its reason, and nothing is stored.
 */
export function saveTranscription({ responseId, body }: SaveTranscriptionInput): Promise<TSaveTranscriptionResponse> {
  return apiFetch(API.transcription.save.path(responseId), {
    method: API.transcription.save.method,
    body,
    schema: ZSaveTranscriptionResponse,
  });
}

/** The review puts the stored lines into its transcription query (transcriptionKeys.response). */
export function useSaveTranscriptionMutation() {
  return useMutation({ mutationFn: saveTranscription });
}
