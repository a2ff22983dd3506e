import { queryOptions, replaceEqualDeep, useQuery } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZRequestDetailResponse } from '../../../../contract/api/requests.schema.js';
import type { TRequestDetailResponse } from '../../../../contract/api/requests.schema.js';
import type { TRenderState } from '../../../../contract/api/studio.schema.js';
import { apiFetch, isApiError } from '../../../lib/api-client';
import { withQuery } from '../../../lib/url';
import { keepSignedAddresses } from '../testimonial-detail/studio-state';

/**
 * GET /api/testimonials/request/{id}?company_id=: `{ testimonial, error_credit }` (spec §7, §8).
 * testimonial is null when the request does not exist (error_credit false) or when it is completed,
 * unpaid and the company has no credit left (error_credit true). Unpaid: every media address is null.
 * Media addresses are short-lived signed URLs; render_state and each answer's media name their jobs.
 */
export function getTestimonial(companyId: string, id: string, signal?: AbortSignal): Promise<TRequestDetailResponse> {
  return apiFetch(withQuery(API.testimonials.request.path(id), { company_id: companyId }), {
    method: API.testimonials.request.method,
    schema: ZRequestDetailResponse,
    signal,
  });
}

export const testimonialKeys = {
  all: ['testimonials'] as const,
  detail: (companyId: string, id: string) => ['testimonials', 'detail', companyId, id] as const,
};

export const testimonialQueryOptions = (companyId: string, id: string) =>
  queryOptions({
    queryKey: testimonialKeys.detail(companyId, id),
    queryFn: ({ signal }) => getTestimonial(companyId, id, signal),
    // Signed media addresses expire: never serve an old copy from the cache without reading again.
    staleTime: 0,
    // A new read keeps the addresses a player already uses, while they stay valid.
    structuralSharing: (previous: unknown, next: unknown) => replaceEqualDeep(previous, keepSignedAddresses(previous, next, Date.now())),
    // A malformed id (400) or a 404 will not change on a second try.
    retry: (failureCount, error) => !(isApiError(error) && error.status >= 400 && error.status < 500) && failureCount < 1,
  });

/**
 * The testimonial of the signed-in company; idle without a company. It is not polled: the jobs it
 * shows are followed through useJob (jobs/use-job.ts), which reads it again when one ends.
 */
export function useTestimonial(companyId: string | null | undefined, id: string) {
  return useQuery({ ...testimonialQueryOptions(companyId ?? '', id), enabled: Boolean(companyId && id) });
}

/** Which row a render belongs to: one answer, or the testimonial as a whole (merge, merged subtitles). */
export type TRenderTarget = { kind: 'response'; id: string } | { kind: 'testimonial' };

/**
 * After a start call answered: stops reads already in flight (they may carry the state from before the
 * start), writes the job's initial state into the cached detail so that every action is disabled at
 * once, then reads the detail again.
 */
export async function markRenderStarted(
  queryClient: QueryClient,
  options: {
    companyId: string;
    testimonialId: string;
    target: TRenderTarget;
    state: TRenderState;
  },
): Promise<void> {
  const queryKey = testimonialKeys.detail(options.companyId, options.testimonialId);
  await queryClient.cancelQueries({ queryKey });
  queryClient.setQueryData<TRequestDetailResponse>(queryKey, (detail) => {
    if (!detail?.testimonial) return detail;
    const { testimonial } = detail;
    if (options.target.kind === 'testimonial')
      return {
        ...detail,
        testimonial: { ...testimonial, render_state: options.state },
      };
    const responseId = options.target.id;
    return {
      ...detail,
      testimonial: {
        ...testimonial,
        testimonial_responses: testimonial.testimonial_responses.map((response) =>
          response.id === responseId ? { ...response, render_state: options.state } : response,
        ),
      },
    };
  });
  void queryClient.invalidateQueries({ queryKey });
}
