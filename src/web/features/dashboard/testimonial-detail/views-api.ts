import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZTestimonialPlaysResponse, ZViewSeriesResponse } from '../../../../contract/api/views.schema.js';
import type { TTestimonialPlaysResponse, TViewSeriesResponse } from '../../../../contract/api/views.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { withQuery } from '../../../lib/url';

/**
 * View analytics (issue 19, decision 144): the daily views of a testimonial (all its publications)
 * and the plays of every testimonial of the company, for the list's Views column.
 */
export const VIEW_DAYS = 30;

/** GET /api/testimonials/{id}/views?days=30 */
export function getTestimonialViews(testimonialId: string, signal?: AbortSignal): Promise<TViewSeriesResponse> {
  return apiFetch(withQuery(API.publications.testimonialViews.path(testimonialId), { days: String(VIEW_DAYS) }), {
    method: API.publications.testimonialViews.method,
    schema: ZViewSeriesResponse,
    signal,
  });
}

/** GET /api/publications/plays */
export function getTestimonialPlays(signal?: AbortSignal): Promise<TTestimonialPlaysResponse> {
  return apiFetch(API.publications.plays.path, { method: API.publications.plays.method, schema: ZTestimonialPlaysResponse, signal });
}

/** Under the publications' key: publishing or unpublishing reads them again (an empty state may change). */
export const viewKeys = {
  all: ['publications', 'views'] as const,
  testimonial: (testimonialId: string) => ['publications', 'views', 'testimonial', testimonialId] as const,
  plays: () => ['publications', 'views', 'plays'] as const,
};

export const testimonialViewsQueryOptions = (testimonialId: string) =>
  queryOptions({ queryKey: viewKeys.testimonial(testimonialId), queryFn: ({ signal }) => getTestimonialViews(testimonialId, signal) });

export const testimonialPlaysQueryOptions = () => queryOptions({ queryKey: viewKeys.plays(), queryFn: ({ signal }) => getTestimonialPlays(signal) });

/** The testimonial's views; idle while `enabled` is false (an unpaid testimonial cannot be published). */
export function useTestimonialViews(testimonialId: string, enabled = true) {
  return useQuery({ ...testimonialViewsQueryOptions(testimonialId), enabled: enabled && Boolean(testimonialId) });
}

/** Plays per testimonial id (a testimonial never watched is absent: 0). */
export function useTestimonialPlays(enabled = true) {
  return useQuery({
    ...testimonialPlaysQueryOptions(),
    enabled,
    select: (data) => new Map(data.testimonials.map((row) => [row.testimonialId, row.plays])),
  });
}
