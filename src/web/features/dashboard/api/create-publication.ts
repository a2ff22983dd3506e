import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZCreatePublicationResponse } from '../../../../contract/api/publications.schema.js';
import type { TCreatePublicationBody, TCreatePublicationResponse } from '../../../../contract/api/publications.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { publicationKeys } from './list-publications';

/**
 * POST /api/publications { testimonialId, jobId | responseId } → 201 { id, slug, url, embedUrl }: a ready
 * render (its job) or an answer as recorded (its response) gets a share page and an embed. Another
 * company's ids are 404, an unpaid testimonial 402, a render not ready 409.
 */
export function createPublication(body: TCreatePublicationBody): Promise<TCreatePublicationResponse> {
  return apiFetch(API.publications.create.path, {
    method: API.publications.create.method,
    body,
    schema: ZCreatePublicationResponse,
  });
}

/** Publishes, then reads the list again before it settles (the dialog shows the list's snippet). */
export function useCreatePublicationMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPublication,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: publicationKeys.all }),
  });
}
