import { queryOptions, useQuery } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZJobListResponse } from '../../../../contract/api/jobs.schema.js';
import type { TJobListResponse } from '../../../../contract/api/jobs.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { withQuery } from '../../../lib/url';
import { testimonialKeys } from './get-testimonial';

/**
 * GET /api/jobs?testimonialId=: every job of a testimonial and of its answers, newest first. The
 * detail screen reads it to know which render made each video it shows (publishing names a render by
 * its job).
 */
export function listJobs(testimonialId: string, signal?: AbortSignal): Promise<TJobListResponse> {
  return apiFetch(withQuery(API.jobs.list.path, { testimonialId }), { method: API.jobs.list.method, schema: ZJobListResponse, signal });
}

/**
 * Under the testimonials' key, with the testimonial's id in it: a job that ends reads it again with the
 * detail (invalidateJobSubject in get-job.ts).
 */
export const testimonialJobsKeys = {
  list: (testimonialId: string) => [...testimonialKeys.all, 'jobs', testimonialId] as const,
};

export const testimonialJobsQueryOptions = (testimonialId: string) =>
  queryOptions({
    queryKey: testimonialJobsKeys.list(testimonialId),
    queryFn: ({ signal }) => listJobs(testimonialId, signal),
  });

/** The jobs of a testimonial; idle while `enabled` is false. */
export function useTestimonialJobs(testimonialId: string, enabled = true) {
  return useQuery({ ...testimonialJobsQueryOptions(testimonialId), enabled: enabled && Boolean(testimonialId) });
}
