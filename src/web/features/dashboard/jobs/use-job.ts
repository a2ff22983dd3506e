import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { isFinalJobPhase } from '../../../../contract/api/jobs.schema.js';
import type { TJob } from '../../../../contract/api/jobs.schema.js';
import { isApiError } from '../../../lib/api-client';
import { getJob, invalidateJobSubject, jobKeys } from '../api/get-job';

/**
 * The one follower of media jobs on the web (issue 16): the detail screen, the export dialog and both
 * transcription reviews follow their jobs through GET /api/jobs/{id} with this hook.
 *
 * - The job is read every `pollMs` (2 s by default) until it is ready, failed or cancelled; a final
 *   job is never read again.
 * - When it turns final, the testimonial it belongs to is read again, so that new addresses (a
 *   prepared answer, a rendered video) and render states show (unless the caller already showed it
 *   as over: `settled`).
 * - One rule for giving up: the follower stops when it learns nothing for too long, that is when MORE
 *   than 5 reads in a row fail (spec §4), or when the job has not changed (phase, progress, attempts)
 *   for 10 minutes. A read refused outright (4xx: the job is gone or not the company's) gives up at
 *   once. `resume()` follows it again.
 */

/** How often a job that is not final is read. */
export const JOB_POLL_MS = 2_000;
/** Spec §4: the follower gives up after MORE than this many failed reads in a row. */
export const MAX_FAILED_READS = 5;
/** A job that has not changed for this long is no longer followed. */
export const JOB_STALL_MS = 10 * 60_000;

/** What is cached per job: the job, when it last changed, and whether it has stalled. */
interface JobRead {
  job: TJob;
  changedAt: number;
  stalled: boolean;
  /** The testimonial read again when this job turned final here (the one invalidation of its end). */
  reread?: Promise<void>;
}

export type TJobFollowStatus =
  /** No job to follow. */
  | 'idle'
  /** The first read has not answered yet. */
  | 'loading'
  /** Queued or running, followed. */
  | 'active'
  | 'ready'
  | 'failed'
  | 'cancelled'
  /** No longer followed (reads failing, or a job that stopped moving): see `giveUpReason`. */
  | 'gaveUp';

export interface JobFollow {
  job: TJob | null;
  status: TJobFollowStatus;
  giveUpReason: 'unreachable' | 'stalled' | null;
  /** Failed reads in a row so far (0 when the last read answered), for a 'reconnecting' note. */
  failedReads: number;
  /** Follows the job again after giving up. */
  resume: () => void;
  /**
   * Settles once the testimonial has been read again after the job ended (at once when there was
   * nothing to read again): a caller that tells the end waits for it instead of reading it a second time.
   */
  reread: Promise<void>;
}

export interface UseJobOptions {
  /** How often the job is read while it is not final (the transcription reviews: 3 s, spec §4). */
  pollMs?: number;
  /**
   * The caller already shows this job as over (a failed render, read for its reason): finding it
   * final on the first read is not news, and its testimonial is not read again.
   */
  settled?: boolean;
}

const refused = (error: unknown) => isApiError(error) && error.status >= 400 && error.status < 500;

function moved(previous: TJob, next: TJob): boolean {
  return previous.phase !== next.phase || previous.progress !== next.progress || previous.attempts !== next.attempts;
}

/** Follows one job (nothing while `jobId` is null or empty). */
export function useJob(jobId: string | null | undefined, { pollMs = JOB_POLL_MS, settled = false }: UseJobOptions = {}): JobFollow {
  const queryClient = useQueryClient();
  const id = jobId ?? '';
  const queryKey = jobKeys.detail(id);

  const query = useQuery({
    queryKey,
    enabled: Boolean(id),
    queryFn: async ({ signal }): Promise<JobRead> => {
      const previous = queryClient.getQueryData<JobRead>(queryKey);
      const job = await getJob(id, signal);
      const now = Date.now();
      const changedAt = previous && !moved(previous.job, job) ? previous.changedAt : now;
      const final = isFinalJobPhase(job.phase);
      const news = previous ? !isFinalJobPhase(previous.job.phase) : !settled;
      const reread = final && news ? invalidateJobSubject(queryClient, job) : previous?.reread;
      return { job, changedAt, stalled: !final && now - changedAt >= JOB_STALL_MS, ...(reread ? { reread } : {}) };
    },
    // Failed reads are tried again at the polling pace; more than MAX_FAILED_READS in a row end it.
    retry: (failures, error) => !refused(error) && failures < MAX_FAILED_READS,
    retryDelay: pollMs,
    // A final job changes no more.
    staleTime: (cached) => (cached.state.data && isFinalJobPhase(cached.state.data.job.phase) ? Infinity : 0),
    refetchInterval: (cached) => {
      if (cached.state.status === 'error') return false;
      const read = cached.state.data;
      if (read && (isFinalJobPhase(read.job.phase) || read.stalled)) return false;
      return pollMs;
    },
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: false,
  });

  const { refetch } = query;
  const resume = useCallback(() => {
    queryClient.setQueryData<JobRead>(jobKeys.detail(id), (read) => (read ? { ...read, changedAt: Date.now(), stalled: false } : read));
    void refetch();
  }, [queryClient, id, refetch]);

  const read = query.data;
  const job = id ? (read?.job ?? null) : null;
  let status: TJobFollowStatus;
  let giveUpReason: JobFollow['giveUpReason'] = null;
  if (!id) status = 'idle';
  else if (job && isFinalJobPhase(job.phase)) status = job.phase as 'ready' | 'failed' | 'cancelled';
  else if (query.isError) {
    status = 'gaveUp';
    giveUpReason = 'unreachable';
  } else if (!job) status = 'loading';
  else if (read?.stalled) {
    status = 'gaveUp';
    giveUpReason = 'stalled';
  } else status = 'active';

  return { job, status, giveUpReason, failedReads: id ? query.failureCount : 0, resume, reread: (id && read?.reread) || NOTHING_TO_READ };
}

const NOTHING_TO_READ = Promise.resolve();

/** Whether a follow has come to an end of its own (final job, or given up). */
export function isFollowOver(follow: Pick<JobFollow, 'status'>): boolean {
  return follow.status !== 'idle' && follow.status !== 'loading' && follow.status !== 'active';
}
