import type { QueryClient } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZJob } from '../../../../contract/api/jobs.schema.js';
import type { TJob } from '../../../../contract/api/jobs.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { testimonialKeys } from './get-testimonial';
import { requestsKeys } from './list-requests';

/**
 * GET /api/jobs/{id}: one media job of the company (a transcode, a render, a transcription), never
 * cached by the server. Followed by useJob (jobs/use-job.ts), the one follower of the web app.
 */
export function getJob(id: string, signal?: AbortSignal): Promise<TJob> {
  return apiFetch(API.jobs.get.path(id), { method: API.jobs.get.method, schema: ZJob, signal });
}

export const jobKeys = {
  all: ['jobs'] as const,
  detail: (id: string) => ['jobs', id] as const,
};

/**
 * Reads again what shows a job's outcome: the detail of its testimonial (new addresses, render states)
 * and the requests list (exported videos).
 */
export async function invalidateJobSubject(queryClient: QueryClient, job: Pick<TJob, 'testimonialId'>): Promise<void> {
  await Promise.all([
    // A logo job has no testimonial (its follower reads the settings again itself).
    job.testimonialId !== null && queryClient.invalidateQueries({ queryKey: testimonialKeys.all, predicate: (query) => query.queryKey.includes(job.testimonialId) }),
    queryClient.invalidateQueries({ queryKey: requestsKeys.all }),
  ]);
}
