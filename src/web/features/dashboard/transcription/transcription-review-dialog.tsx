import { useEffect, useId, useRef, useState } from 'react';
import type { JSX } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TRenderJobResponse } from '../../../../contract/api/studio.schema.js';
import type { TTranscription } from '../../../../contract/api/transcription.schema.js';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { isApiError } from '../../../lib/api-client';
import { endsSentence } from '../../../lib/format';
import { RefreshIcon, SubtitlesIcon } from '../../../components/icons';
import { useGenerateSubtitlesMutation } from '../api/generate-subtitles';
import { transcribeResponse, transcriptionKeys, useTranscribeResponse } from '../api/transcribe-response';
import { TRANSCRIPTION_POLL_MS, useTranscriptionResult } from '../api/transcription-job-status';
import { JobProgress } from '../jobs/job-progress';
import { jobErrorText } from '../jobs/job-reason';
import { useJob } from '../jobs/use-job';
import { CueEditor, countEdited, withCueText } from './cue-editor';
import { DownloadBar } from './download-bar';
import { GenerateError } from './generate-error';
import { refusalDetail } from './review-errors';
import { ReviewLoading } from './review-loading';
import {
  publishableCues,
  saveTextFile,
  TRANSCRIPT_MIME,
  transcriptFile,
  transcriptFileName,
  type TranscriptFormat,
} from './transcription-files';
import { useStudioLanguage } from './use-studio-language';

export interface TranscriptionReviewDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  responseId: string;
  questionText: string;
  /** The burn-in started: its render job, for the page to follow. */
  onGenerationStarted(started: TRenderJobResponse): void;
  /** Used in the names of the downloaded files when given. */
  customerName?: string | undefined;
}

/**
 * The review of one answer's subtitles (spec §2 transcription review, §7, §8): transcribes the answer
 * when opened (a stored transcript comes back at once), lists the cues with their times and editable
 * text, offers .txt, .json and .srt downloads of the edited cues, and burns them into the video.
 * Nothing is mounted while closed, so each opening reads what the server stored last.
 */
export function TranscriptionReviewDialog(props: TranscriptionReviewDialogProps): JSX.Element {
  if (!props.open) return <></>;
  return <SingleReview key={props.responseId} {...props} />;
}

function SingleReview({ open, onOpenChange, responseId, questionText, onGenerationStarted, customerName }: TranscriptionReviewDialogProps) {
  const { t } = useTranslation();
  const language = useStudioLanguage();
  const queryClient = useQueryClient();
  const query = useTranscribeResponse(responseId, open);
  const generate = useGenerateSubtitlesMutation();
  const noCuesId = useId();
  const generateErrorRef = useRef<HTMLDivElement>(null);

  // The engine's job, when one runs (the first transcription, or 'transcribe again'), and its result.
  const [forced, setForced] = useState<{ jobId: string } | null>(null);
  const [forcing, setForcing] = useState(false);
  const [forceFailed, setForceFailed] = useState<unknown>(null);
  const jobId = forced?.jobId ?? query.data?.jobId ?? null;
  const job = useJob(jobId, { pollMs: TRANSCRIPTION_POLL_MS });
  const result = useTranscriptionResult(job.status === 'ready' ? jobId : null);
  const item = result.data?.find((entry) => entry.responseId === responseId);
  const server = jobId ? (item && !item.error ? item.transcription : null) : (query.data?.transcription ?? null);

  // The edited copy of what the server gave last (a new transcript starts from its own text).
  const source = jobId ? `job:${jobId}` : `stored:${query.dataUpdatedAt}`;
  const [edits, setEdits] = useState<{ source: string; cues: TTranscription } | null>(null);
  const cues = server === null ? null : edits?.source === source ? edits.cues : server;

  // Too many transcriptions for the company at once (429): said in the person's language.
  const limitedOr = (error: unknown, otherwise: string | null) =>
    isApiError(error) && error.status === 429 ? t('transcription.rateLimited') : otherwise;
  const jobFailure: string | null =
    job.status === 'failed' || job.status === 'cancelled'
      ? jobErrorText(t, job.job?.error)
      : job.status === 'gaveUp'
        ? t('transcription.merged.timeout')
        : result.isError || (result.data && !item)
          ? t('jobs.reasons.transcription_failed')
          : item?.error ?? null;

  useEffect(() => {
    if (query.error) console.error('Transcribing the answer failed.', query.error);
  }, [query.error]);
  useEffect(() => {
    if (jobFailure) console.error('The transcription job of the answer did not give cues.', job.job?.error ?? result.error ?? jobFailure);
  }, [jobFailure, job.job?.error, result.error]);
  useEffect(() => {
    if (generate.error) generateErrorRef.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [generate.error]);

  const original = server ?? [];
  const publishable = cues ? publishableCues(cues) : [];
  const hasCues = publishable.length > 0;
  const edited = cues ? countEdited(cues, original) : 0;
  const ready = cues !== null && !query.isFetching && !forcing;

  /** Starts over: the stored transcript, or a new job when there is none. */
  const retry = () => {
    setForced(null);
    void query.refetch();
  };

  const download = (format: TranscriptFormat) => {
    if (!cues || !hasCues) return;
    saveTextFile(
      transcriptFile(cues, format),
      transcriptFileName([t('transcription.fileBase'), customerName, questionText], format),
      TRANSCRIPT_MIME[format],
    );
  };

  const onGenerate = () => {
    if (!hasCues || generate.isPending) return;
    generate.mutate(
      { responseId, body: { transcription: publishable, language } },
      {
        onSuccess: (started) => {
          onGenerationStarted(started);
          onOpenChange(false);
        },
        onError: (error) => console.error('Starting the subtitled video failed.', error),
      },
    );
  };

  /** Runs the engine again (the stored transcript found no speech): a new job, followed like the first. */
  const transcribeAgain = async () => {
    setForcing(true);
    setForceFailed(null);
    try {
      const fresh = await transcribeResponse(responseId, { force: true });
      if (fresh.jobId) setForced({ jobId: fresh.jobId });
      else {
        setForced(null);
        queryClient.setQueryData(transcriptionKeys.response(responseId), fresh);
      }
    } catch (error) {
      console.error('Transcribing the answer again failed.', error);
      setForceFailed(error ?? new Error('Transcription failed'));
    } finally {
      setForcing(false);
    }
  };

  let body: JSX.Element;
  if ((query.isError && !cues) || jobFailure) {
    const detail = jobFailure ?? limitedOr(query.error, refusalDetail(query.error));
    body = (
      <Alert
        tone="error"
        title={t('transcription.single.errorTitle')}
        data-testid="transcription-error"
        action={
          <Button variant="secondary" size="sm" leadingIcon={<RefreshIcon className="size-4" />} loading={query.isFetching} onClick={retry}>
            {t('dashboard.common.retry')}
          </Button>
        }
      >
        {detail}
      </Alert>
    );
  } else if (!ready) {
    body = (
      <ReviewLoading
        title={t('transcription.single.loading')}
        hint={t('transcription.single.loadingHint')}
        note={jobId ? <JobProgress follow={job} className="mt-3" /> : undefined}
      />
    );
  } else {
    body = (
      <div className="flex flex-col gap-5 pb-1">
        <div className="flex flex-wrap items-center justify-between gap-3 rounded-control border border-gray-200 bg-gray-50 px-3 py-2.5">
          <DownloadBar onDownload={download} disabled={!hasCues} describedBy={noCuesId} />
          {edited > 0 && (
            <span className="text-xs font-medium text-brand-800" role="status">
              {t('transcription.edited', { count: edited })}
            </span>
          )}
        </div>
        {hasCues ? (
          <>
            <CueEditor
              cues={cues ?? []}
              original={original}
              disabled={generate.isPending}
              onChange={(index, text) => cues && setEdits({ source, cues: withCueText(cues, index, text) })}
            />
            <p className="text-xs text-gray-500">{t('transcription.emptyCueHint')}</p>
          </>
        ) : (
          <Alert
            tone="warning"
            data-testid="transcription-empty"
            action={
              <Button
                variant="secondary"
                size="sm"
                leadingIcon={<RefreshIcon className="size-4" />}
                onClick={() => void transcribeAgain()}
              >
                {t('transcription.retranscribe')}
              </Button>
            }
          >
            <span id={noCuesId}>{t('transcription.noCues')}</span>
            {forceFailed !== null && (
              <span className="mt-2 block font-medium">{limitedOr(forceFailed, t('transcription.single.errorTitle'))}</span>
            )}
          </Alert>
        )}
        {generate.isError && <GenerateError ref={generateErrorRef} title={t('transcription.single.generateError')} error={generate.error} onRetry={onGenerate} />}
      </div>
    );
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      busy={generate.isPending}
      title={t('transcription.single.title')}
      description={t(endsSentence(questionText) ? 'transcription.single.descriptionEnded' : 'transcription.single.description', { question: questionText })}
      data-testid="transcription-review-dialog"
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={generate.isPending}>
            {t('dashboard.common.cancel')}
          </Button>
          <Button
            variant="primary"
            onClick={onGenerate}
            disabled={!ready || !hasCues}
            aria-describedby={ready && !hasCues ? noCuesId : undefined}
            loading={generate.isPending}
            leadingIcon={<SubtitlesIcon className="size-4" />}
            data-testid="generate-subtitles"
          >
            {t('transcription.single.generate')}
          </Button>
        </>
      }
    >
      {body}
    </Dialog>
  );
}
