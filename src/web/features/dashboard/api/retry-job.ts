import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZJob } from '../../../../contract/api/jobs.schema.js';
import type { TJob } from '../../../../contract/api/jobs.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { invalidateJobSubject } from './get-job';

/**
 * POST /api/jobs/{id}/retry → 202 with the new job (same kind, subject and parameters). Only a failed
 * job is retried; anything else is a 409 `conflict`.
 */
export function retryJob(id: string): Promise<TJob> {
  return apiFetch(API.jobs.retry.path(id), { method: API.jobs.retry.method, schema: ZJob });
}

/** Retries a failed job, then reads its testimonial again: the answer now points at the new job. */
export function useRetryJobMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryJob,
    onSuccess: (job) => invalidateJobSubject(queryClient, job),
  });
}
