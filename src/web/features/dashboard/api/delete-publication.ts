import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { API } from '../../../../contract/api/paths.js';
import { apiFetch } from '../../../lib/api-client';
import { publicationKeys } from './list-publications';

/** DELETE /api/publications/{id} → 204: the share page, the embed and the video answer 404 at once. */
export function deletePublication(id: string): Promise<void> {
  return apiFetch(API.publications.remove.path(id), { method: API.publications.remove.method, schema: z.undefined() });
}

/** Unpublishes, then reads the list again before it settles. */
export function useDeletePublicationMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePublication,
    onSettled: () => queryClient.invalidateQueries({ queryKey: publicationKeys.all }),
  });
}
