import { useMutation } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZTrimResponse, type TTrimBody, type TTrimResponse } from '../../../../contract/api/trim.schema.js';
import { apiFetch } from '../../../lib/api-client';

/**
 * PUT /api/testimonials/response/{id}/trim (issue 31, decision 201): the part of the answer every output
 * uses; a trim outside the answer or shorter than 1 s is refused with its reason, and nothing is stored.
 */
export function setTrim({ responseId, body }: { responseId: string; body: TTrimBody }): Promise<TTrimResponse> {
  return apiFetch(API.studio.trim.path(responseId), { method: API.studio.trim.method, body, schema: ZTrimResponse });
}

export function useSetTrimMutation() {
  return useMutation({ mutationFn: setTrim });
}
