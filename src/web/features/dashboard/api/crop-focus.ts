import { useQuery } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZCropFocusResponse } from '../../../../contract/api/studio.schema.js';
import { apiFetch } from '../../../lib/api-client';

/**
 * The smart crop's proposal for an answer (GET /api/testimonials/response/{id}/crop-focus, issue 31):
 * where its picture moves, as fractions; null when it is still, or (undefined) while it is worked out or
 * when it could not be: the crop editor then starts centred, as before.
 */
export function useCropFocus(responseId: string | null) {
  return useQuery({
    queryKey: ['crop-focus', responseId],
    enabled: Boolean(responseId),
    staleTime: Infinity,
    retry: false,
    queryFn: async () => (await apiFetch(API.studio.cropFocus.path(responseId!), { method: 'GET', schema: ZCropFocusResponse })).focus,
  });
}
