import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZSetPosterResponse } from '../../../../contract/api/publications.schema.js';
import type { TSetPosterResponse } from '../../../../contract/api/publications.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { publicationKeys } from './list-publications';

/**
 * PUT /api/publications/{id}/poster { seconds } → 200 { posterSeconds, durationSeconds }: the moment of
 * the published video shown as its poster (null: the automatic frame). A moment past the video's end is
 * refused (400, reason poster_outside_video).
 */
export function setPublicationPoster(id: string, seconds: number | null): Promise<TSetPosterResponse> {
  return apiFetch(API.publications.poster.path(id), { method: API.publications.poster.method, body: { seconds }, schema: ZSetPosterResponse });
}

/** Sets the poster, then reads the list again before it settles. */
export function useSetPublicationPosterMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, seconds }: { id: string; seconds: number | null }) => setPublicationPoster(id, seconds),
    onSettled: () => queryClient.invalidateQueries({ queryKey: publicationKeys.all }),
  });
}
