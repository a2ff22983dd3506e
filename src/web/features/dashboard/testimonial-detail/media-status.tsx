import { useTranslation } from 'react-i18next';
import type { TRenderState } from '../../../../contract/api/studio.schema.js';
import type { TTestimonialResponse } from '../../../../contract/api/testimonials.schema.js';
import { AlertIcon, ClockIcon } from '../../../components/icons';
import { Spinner } from '../../../components/spinner';
import { apiErrorMessage } from '../../../lib/api-error-message';
import { useRetryJobMutation } from '../api/retry-job';
import { JobProgress } from '../jobs/job-progress';
import { useJob } from '../jobs/use-job';
import { mediaStatus } from './studio-state';

/**
 * In place of the player while an answer is not playable yet (issue 16): 'Preparing…' with the
 * transcode's progress, or the reason it failed with a retry. The raw upload is never handed to a
 * player. Test id `answer-media` with data-phase (preparing, failed).
 */
export function AnswerMedia({ response }: { response: TTestimonialResponse }) {
  const { t } = useTranslation();
  const status = mediaStatus(response);
  const jobId = response.media?.jobId ?? null;
  const follow = useJob(jobId, { settled: status === 'failed' });
  const retry = useRetryJobMutation();
  const failed = status === 'failed';
  // The same bytes never read better: an unreadable recording is re-recorded by the customer, not retried.
  const retryable = failed && response.media?.error?.reason !== 'unreadable_upload';

  return (
    <div
      className="relative isolate flex aspect-video w-full flex-col items-center justify-center gap-3 overflow-hidden bg-gray-950 px-6 py-4 text-center"
      data-testid="answer-media"
      data-phase={status}
    >
      {/* The poster is taken from the upload first (issue 18): the answer's picture, dimmed, while it is prepared. */}
      {!failed && response.poster_url && (
        <img src={response.poster_url} alt="" className="absolute inset-0 -z-10 size-full object-cover opacity-35" data-testid="answer-media-poster" />
      )}
      {failed ? <AlertIcon className="size-6 text-error-500" /> : <Spinner className="size-6 text-white" />}
      <div>
        <p className="text-sm font-medium text-white">{t(failed ? 'testimonialDetail.media.failed' : 'testimonialDetail.media.preparing')}</p>
        {!failed && <p className="mt-1 text-xs text-gray-300">{t('testimonialDetail.media.preparingHint')}</p>}
      </div>
      {jobId && (
        <JobProgress
          follow={follow}
          inverse
          plain
          label={t('testimonialDetail.media.preparingShort')}
          onRetry={retryable ? () => retry.mutate(jobId) : undefined}
          retrying={retry.isPending}
          className={failed ? 'max-w-sm items-center text-center' : 'w-full max-w-xs text-left'}
          data-testid="media-progress"
        />
      )}
      {!jobId && failed && response.media?.error && <p className="text-xs text-gray-300">{response.media.error.message}</p>}
      {retry.isError && (
        <p className="text-xs text-error-200" role="alert">
          {apiErrorMessage(retry.error, t)}
        </p>
      )}
    </div>
  );
}

/**
 * Where the last render of an answer or of the merged video stands (ui.md: queued, rendering with
 * progress, failed with its reason and a retry). Nothing once it is ready. The job is followed live
 * while it runs; a failed one is read once for its reason. Test id `render-state` with data-phase.
 */
export function RenderStatus({ state }: { state: TRenderState | null | undefined }) {
  const { t } = useTranslation();
  const done = !state || state.phase === 'ready';
  const follow = useJob(done ? null : state.jobId, { settled: state?.phase === 'failed' });
  const retry = useRetryJobMutation();
  if (done) return null;

  // The job as last read, once it is; until then (or without a job id) the state the detail gave.
  if (follow.status !== 'idle' && follow.status !== 'loading') {
    if (follow.status === 'ready') return null;
    const jobId = follow.job?.id;
    return (
      <div data-testid="render-state" data-phase={follow.status === 'active' ? follow.job?.phase : follow.status}>
        <JobProgress
          follow={follow}
          label={t(follow.job?.phase === 'running' ? 'testimonialDetail.render.running' : 'testimonialDetail.render.queued')}
          onRetry={follow.status === 'failed' && jobId ? () => retry.mutate(jobId) : undefined}
          retrying={retry.isPending}
        />
        {retry.isError && (
          <p className="mt-1 text-xs text-error-800" role="alert">
            {apiErrorMessage(retry.error, t)}
          </p>
        )}
      </div>
    );
  }

  if (state.phase === 'failed') {
    return (
      <p className="flex gap-2 text-xs text-error-800" data-testid="render-state" data-phase="failed" role="status">
        <AlertIcon className="mt-px size-3.5 shrink-0 text-error-700" />
        <span className="min-w-0 break-words">
          {t('testimonialDetail.render.failed')}
          {state.error ? <span className="text-error-700"> {state.error}</span> : null}
        </span>
      </p>
    );
  }
  const running = state.phase === 'running';
  return (
    <p className="flex items-center gap-2 text-xs text-gray-700" data-testid="render-state" data-phase={state.phase}>
      {running ? <Spinner className="size-3.5 text-brand-700" /> : <ClockIcon className="size-3.5 text-gray-500" />}
      {t(`testimonialDetail.render.${running ? 'running' : 'queued'}`)}
    </p>
  );
}
