import { useEffect, useId, useRef, useState } from 'react';
import type { JSX } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TTranscription } from '../../../../contract/api/transcription.schema.js';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { isApiError } from '../../../lib/api-client';
import { RefreshIcon, SubtitlesIcon } from '../../../components/icons';
import { useGenerateSubtitlesMutation } from '../api/generate-subtitles';
import { transcribeResponse, transcriptionKeys, useTranscribeResponse } from '../api/transcribe-response';
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
  onGenerationStarted(): void;
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

  // The edited copy, reset whenever the server's transcript is (re)loaded.
  const [cues, setCues] = useState<TTranscription | null>(null);
  const [loadedAt, setLoadedAt] = useState(0);
  if (query.data && query.dataUpdatedAt !== loadedAt) {
    setLoadedAt(query.dataUpdatedAt);
    setCues(query.data.transcription);
  }
  const [forcing, setForcing] = useState(false);
  const [forceFailed, setForceFailed] = useState<unknown>(null);
  // Too many transcriptions for the company at once (429): said in the person's language.
  const limitedOr = (error: unknown, otherwise: string | null) =>
    isApiError(error) && error.status === 429 ? t('transcription.rateLimited') : otherwise;

  useEffect(() => {
    if (query.error) console.error('Transcribing the answer failed.', query.error);
  }, [query.error]);
  useEffect(() => {
    if (generate.error) generateErrorRef.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [generate.error]);

  const original = query.data?.transcription ?? [];
  const publishable = cues ? publishableCues(cues) : [];
  const hasCues = publishable.length > 0;
  const edited = cues ? countEdited(cues, original) : 0;
  const ready = cues !== null && !query.isFetching;

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
        onSuccess: () => {
          onGenerationStarted();
          onOpenChange(false);
        },
        onError: (error) => console.error('Starting the subtitled video failed.', error),
      },
    );
  };

  /** Runs the engine again (the stored transcript found no speech). */
  const transcribeAgain = async () => {
    setForcing(true);
    setForceFailed(null);
    try {
      const fresh = await transcribeResponse(responseId, { force: true });
      queryClient.setQueryData(transcriptionKeys.response(responseId), fresh);
    } catch (error) {
      console.error('Transcribing the answer again failed.', error);
      setForceFailed(error ?? new Error('Transcription failed'));
    } finally {
      setForcing(false);
    }
  };

  let body: JSX.Element;
  if (query.isError && !cues) {
    const detail = limitedOr(query.error, refusalDetail(query.error));
    body = (
      <Alert
        tone="error"
        title={t('transcription.single.errorTitle')}
        data-testid="transcription-error"
        action={
          <Button
            variant="secondary"
            size="sm"
            leadingIcon={<RefreshIcon className="size-4" />}
            loading={query.isFetching}
            onClick={() => void query.refetch()}
          >
            {t('dashboard.common.retry')}
          </Button>
        }
      >
        {detail}
      </Alert>
    );
  } else if (!ready || forcing) {
    body = <ReviewLoading title={t('transcription.single.loading')} hint={t('transcription.single.loadingHint')} />;
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
              onChange={(index, text) => setCues((current) => (current ? withCueText(current, index, text) : current))}
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
      description={t('transcription.single.description', { question: questionText })}
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
