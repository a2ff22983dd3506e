import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TJobPhase } from '../../../../contract/api/jobs.schema.js';
import { Button } from '../../../components/button';
import { AlertIcon, ClockIcon, RefreshIcon } from '../../../components/icons';
import { ProgressBar } from '../../../components/progress-bar';
import { Spinner } from '../../../components/spinner';
import { cn } from '../../../lib/cn';
import { formatPercent } from '../../../lib/format';
import { jobErrorText } from './job-reason';
import type { JobFollow } from './use-job';

/** The spec's slow climb while a job reports nothing better (§4, §9): +1 every 2 s, up to 30. */
export const CLIMB_STEP_MS = 2_000;
export const CLIMB_MAX = 30;

/** The percent shown: the job's own progress, or the slow climb from `elapsedMs` when that is more. */
export function displayedProgress(phase: TJobPhase | null, progress: number, elapsedMs: number | null): number {
  if (phase === 'ready') return 100;
  const climb = elapsedMs === null ? 0 : Math.min(CLIMB_MAX, Math.floor(Math.max(0, elapsedMs) / CLIMB_STEP_MS));
  return Math.round(Math.min(100, Math.max(progress, climb)));
}

/** Milliseconds since `since`, ticking every second while `running` (null without a start). */
function useElapsed(since: number | null | undefined, running: boolean): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (since == null || !running) return undefined;
    const timer = window.setInterval(() => setNow(Date.now()), 1_000);
    return () => window.clearInterval(timer);
  }, [since, running]);
  return since == null ? null : Math.max(0, now - since);
}

export interface JobProgressProps {
  follow: JobFollow;
  /** What is happening ('Preparing this answer…'); by default the job's phase. */
  label?: string;
  /** When the person started the job: the slow climb counts from there while the job reports less. */
  since?: number | null;
  /** A failed job offers this retry (the retry call); `retrying` while it runs. */
  onRetry?: () => void;
  retrying?: boolean;
  /** On the dark panel of a player. */
  inverse?: boolean;
  /** Larger text (the processing dialog). */
  size?: 'sm' | 'md';
  /** No icon before the text: the panel around it shows its own. */
  plain?: boolean;
  className?: string;
  'data-testid'?: string;
}

/**
 * The one display of a followed job (issue 16): its phase and progress while it runs, its reason
 * (translated) and a retry when it failed, and 'check again' once the follower gave up. Nothing once
 * it is ready. Test ids: the given one (default `job-progress`) with `data-phase` (queued, running,
 * failed, cancelled, gave-up), `job-percent`, `job-retry`, `job-resume`.
 */
export function JobProgress({
  follow,
  label,
  since,
  onRetry,
  retrying = false,
  inverse = false,
  size = 'sm',
  plain = false,
  className,
  'data-testid': testId = 'job-progress',
}: JobProgressProps) {
  const { t, i18n } = useTranslation();
  const { job, status } = follow;
  const running = status === 'loading' || status === 'active';
  const elapsed = useElapsed(since, running);
  const text = size === 'md' ? 'text-sm' : 'text-xs';
  const muted = inverse ? 'text-gray-300' : 'text-gray-600';

  if (status === 'idle' || status === 'ready') return null;

  if (status === 'failed' || status === 'cancelled') {
    return (
      <div className={cn('flex flex-col gap-2', text, className)} data-testid={testId} data-phase={status} role="alert">
        <p className={cn('flex gap-2', inverse ? 'text-gray-100' : 'text-error-800')}>
          {!plain && <AlertIcon className={cn('mt-px size-4 shrink-0', inverse ? 'text-error-500' : 'text-error-700')} />}
          <span className="min-w-0 break-words">{status === 'failed' ? jobErrorText(t, job?.error) : t('jobs.cancelled')}</span>
        </p>
        {onRetry && (
          <div>
            <Button
              size="sm"
              variant={inverse ? 'inverse' : 'secondary'}
              leadingIcon={<RefreshIcon className="size-4" />}
              loading={retrying}
              onClick={onRetry}
              data-testid="job-retry"
            >
              {t('jobs.retry')}
            </Button>
          </div>
        )}
      </div>
    );
  }

  if (status === 'gaveUp') {
    return (
      <div className={cn('flex flex-col gap-2', text, className)} data-testid={testId} data-phase="gave-up" role="status">
        <p className={cn('flex gap-2', inverse ? 'text-gray-100' : 'text-pending-800')}>
          {!plain && <ClockIcon className="mt-px size-4 shrink-0" />}
          <span className="min-w-0">{t(follow.giveUpReason === 'stalled' ? 'jobs.gaveUp.stalled' : 'jobs.gaveUp.unreachable')}</span>
        </p>
        <div>
          <Button
            size="sm"
            variant={inverse ? 'inverse' : 'secondary'}
            leadingIcon={<RefreshIcon className="size-4" />}
            onClick={follow.resume}
            data-testid="job-resume"
          >
            {t('jobs.gaveUp.action')}
          </Button>
        </div>
      </div>
    );
  }

  const phase = job?.phase ?? 'queued';
  const value = displayedProgress(phase, job?.progress ?? 0, elapsed);
  const percent = formatPercent(value, i18n.language);
  const caption = label ?? t(phase === 'running' ? 'jobs.phase.running' : 'jobs.phase.queued');
  return (
    <div className={cn('flex flex-col gap-1.5', text, className)} data-testid={testId} data-phase={phase} role="status">
      <p className={cn('flex items-center justify-between gap-2', inverse ? 'text-gray-100' : 'text-gray-700')}>
        <span className="flex min-w-0 items-center gap-2">
          {plain ? null : phase === 'running' ? (
            <Spinner className={cn('size-3.5 shrink-0', inverse ? 'text-white' : 'text-brand-700')} />
          ) : (
            <ClockIcon className={cn('size-3.5 shrink-0', muted)} />
          )}
          <span className="min-w-0">{caption}</span>
        </span>
        <span className="tabular-nums" data-testid="job-percent">
          {percent}
        </span>
      </p>
      <ProgressBar value={value} label={caption} valueText={percent} className={inverse ? 'bg-white/20' : undefined} />
      {follow.failedReads > 0 && <p className={cn(text, inverse ? 'text-gray-300' : 'text-pending-800')}>{t('jobs.reconnecting')}</p>}
    </div>
  );
}
