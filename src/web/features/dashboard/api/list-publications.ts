import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZListPublicationsResponse } from '../../../../contract/api/publications.schema.js';
import type { TListPublicationsResponse } from '../../../../contract/api/publications.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { withQuery } from '../../../lib/url';

/**
 * GET /api/publications?testimonialId=: the company's live publications of one testimonial (issue 19),
 * newest first, each with its share page, its embed, a copyable `<iframe>` snippet and its views.
 */
export function listPublications(testimonialId: string, signal?: AbortSignal): Promise<TListPublicationsResponse> {
  return apiFetch(withQuery(API.publications.list.path, { testimonialId }), {
    method: API.publications.list.method,
    schema: ZListPublicationsResponse,
    signal,
  });
}

export const publicationKeys = {
  all: ['publications'] as const,
  testimonial: (testimonialId: string) => ['publications', 'testimonial', testimonialId] as const,
};

export const publicationsQueryOptions = (testimonialId: string) =>
  queryOptions({
    queryKey: publicationKeys.testimonial(testimonialId),
    queryFn: ({ signal }) => listPublications(testimonialId, signal),
  });

/** The publications of a testimonial; idle while `enabled` is false (an unpaid testimonial has none). */
export function usePublications(testimonialId: string, enabled = true) {
  return useQuery({ ...publicationsQueryOptions(testimonialId), enabled: enabled && Boolean(testimonialId) });
}
