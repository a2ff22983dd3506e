import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { useRecordingT } from '../../../i18n/recording-i18n';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { CheckCircleIcon } from '../../../components/icons';
import { ProgressBar } from '../../../components/progress-bar';
import { Spinner } from '../../../components/spinner';
import { formatBytes } from '../media-support';
import { uploadRefusalText } from '../refusal-message';
import type { TSubmissionState } from '../use-submission';
import { useFocusOnMount } from './use-focus-on-mount';

export interface CompleteStepProps {
  company: string;
  /** Number of answers to send (0: nothing to submit). */
  answerCount: number;
  state: TSubmissionState;
  onRetryNow: () => void;
  onRecordAgain: () => void;
}

/** Seconds until `at`, refreshed every second. */
function useSecondsUntil(at: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === null) return;
    const id = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(id);
  }, [at]);
  return at === null ? 0 : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * Step 3: the upload with real progress (bytes sent), then the server's check, then done. A lost
 * connection shows what is happening and when it tries again; a refusal shows the server's reason,
 * translated into the request's language.
 */
export function CompleteStep({ company, answerCount, state, onRetryNow, onRecordAgain }: CompleteStepProps) {
  const { t, language: locale } = useRecordingT();
  const headingRef = useFocusOnMount<HTMLHeadingElement>();
  const seconds = useSecondsUntil(state.phase === 'waiting' ? state.retryAt : null);
  const units = { mb: t('recording.units.mb'), kb: t('recording.units.kb') };

  if (answerCount === 0) {
    return (
      <Wrapper>
        <h1 ref={headingRef} tabIndex={-1} className="text-xl font-semibold tracking-tight text-gray-950 outline-none">
          {t('recording.complete.heading')}
        </h1>
        <Alert tone="warning" className="mt-6" data-testid="no-recordings">
          {t('recording.complete.noRecordings')}
        </Alert>
        <Button className="mt-6" size="lg" onClick={onRecordAgain}>
          {t('recording.complete.backToRecording')}
        </Button>
      </Wrapper>
    );
  }

  const percent =
    (state.phase === 'uploading' || state.phase === 'offline' || state.phase === 'waiting') && state.total > 0
      ? Math.floor((state.loaded / state.total) * 100)
      : state.phase === 'processing' || state.phase === 'done'
        ? 100
        : 0;
  const done = state.phase === 'done';

  return (
    <Wrapper>
      <h1 ref={headingRef} tabIndex={-1} className="text-xl font-semibold tracking-tight text-gray-950 outline-none sm:text-2xl">
        {done ? t('recording.complete.done') : t('recording.complete.heading')}
      </h1>
      {!done && <p className="mt-1 text-base text-gray-600">{t('recording.complete.keepOpen')}</p>}

      <div className="mt-6" data-testid="upload-progress" data-phase={state.phase} data-percent={percent} data-attempt={'attempt' in state ? state.attempt : 0}>
        <div className="flex items-baseline justify-between gap-3">
          <p className="text-sm font-medium text-gray-900">{t('recording.complete.progressLabel')}</p>
          <p className="text-2xl font-semibold tabular-nums text-gray-950" aria-hidden="true">
            {percent}%
          </p>
        </div>
        <ProgressBar className="mt-2 h-3" value={percent} label={t('recording.complete.progressLabel')} valueText={`${percent}%`} />
        <p className="mt-2 min-h-5 text-sm text-gray-600 tabular-nums">
          {(state.phase === 'uploading' || state.phase === 'offline' || state.phase === 'waiting') && state.total > 0
            ? t('recording.complete.progress', { sent: formatBytes(state.loaded, locale, units), total: formatBytes(state.total, locale, units) })
            : state.phase === 'processing'
              ? t('recording.complete.progress', { sent: formatBytes(state.total, locale, units), total: formatBytes(state.total, locale, units) })
              : '\u00a0'}
        </p>
      </div>

      <div className="mt-4" role="status" aria-live="polite" data-testid="upload-status" data-phase={state.phase}>
        {(state.phase === 'preparing' || (state.phase === 'uploading' && state.total === 0)) && (
          <p className="flex items-center gap-2 text-base text-gray-700">
            <Spinner className="size-5 text-brand-700" />
            {t('recording.complete.preparing')}
          </p>
        )}
        {state.phase === 'processing' && (
          <p className="flex items-center gap-2 text-base text-gray-700">
            <Spinner className="size-5 text-brand-700" />
            {t('recording.complete.processing')}
          </p>
        )}
        {state.phase === 'done' && (
          <p className="flex items-center gap-2 text-base font-medium text-completed-800">
            <CheckCircleIcon className="size-6 text-completed-700" />
            {t('recording.complete.done')}
          </p>
        )}
        {state.phase === 'offline' && (
          <Alert tone="warning" data-testid="upload-offline">
            {t('recording.complete.offline')}
          </Alert>
        )}
        {state.phase === 'waiting' && (
          <Alert
            tone="warning"
            data-testid="upload-retrying"
            action={
              <Button variant="secondary" size="sm" onClick={onRetryNow}>
                {t('recording.complete.retryNow')}
              </Button>
            }
          >
            {t('recording.complete.retrying', { seconds })}
          </Alert>
        )}
      </div>

      {state.phase === 'failed' && (
        <Alert
          tone="error"
          className="mt-4"
          title={t('recording.complete.failedTitle')}
          data-testid="upload-error"
          action={
            <>
              <Button onClick={onRetryNow} data-testid="upload-retry">
                {t('recording.tryAgain')}
              </Button>
              <Button variant="secondary" onClick={onRecordAgain} data-testid="record-again">
                {typeof state.refusal.params.answer === 'number'
                  ? t('recording.complete.replaceAnswer', { answer: state.refusal.params.answer })
                  : t('recording.complete.recordAgain')}
              </Button>
            </>
          }
        >
          {uploadRefusalText(state.refusal, t)}
        </Alert>
      )}

      {!done && <p className="mt-6 text-sm text-gray-500">{t('recording.complete.safeNote', { company })}</p>}
    </Wrapper>
  );
}

function Wrapper({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-2xl px-4 pt-6 sm:px-6 sm:pt-8">
      <Card padding="none" className="animate-fade-in px-5 py-6 sm:px-8 sm:py-8">
        {children}
      </Card>
    </div>
  );
}
