import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import type { JSX } from 'react';
import { useTranslation } from 'react-i18next';
import type { TRenderJobResponse } from '../../../../contract/api/studio.schema.js';
import type { TResponseTranscription, TResponseTranscriptions } from '../../../../contract/api/transcription.schema.js';
import { Alert } from '../../../components/alert';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { ChevronDownIcon, RefreshIcon } from '../../../components/icons';
import { cn } from '../../../lib/cn';
import { useGenerateMergedSubtitlesMutation } from '../api/generate-merged-subtitles';
import { mergedTranscriptionQueryOptions } from '../api/transcribe-merged';
import { TRANSCRIPTION_POLL_MS, useTranscriptionResult } from '../api/transcription-job-status';
import { JobProgress } from '../jobs/job-progress';
import { jobErrorText, jobMessageText } from '../jobs/job-reason';
import { useJob } from '../jobs/use-job';
import { CueEditor, countEdited, withCueText } from './cue-editor';
import { DownloadBar } from './download-bar';
import { GenerateError } from './generate-error';
import { ReviewDialog, ReviewPlayer, type TReviewNotice } from './review-dialog';
import {
  mergedJson,
  mergedTxt,
  publishableCues,
  saveTextFile,
  TRANSCRIPT_MIME,
  transcriptFile,
  transcriptFileName,
  type TranscriptFormat,
} from './transcription-files';
import { DownloadIcon } from '../../../components/icons';
import { useCuePlayer } from './use-cue-player';
import { useStudioLanguage } from './use-studio-language';

export interface MergedTranscriptionReviewDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  testimonialId: string;
  /** The merged video with subtitles started: its render job, for the page to follow. */
  onGenerationStarted(started: TRenderJobResponse): void;
  /** Used in the names of the downloaded files when given. */
  customerName?: string | undefined;
  /** Each answer's video (the prepared one, whose times the lines follow), by response id, for its player. */
  videos?: Readonly<Record<string, TAnswerVideo>> | undefined;
}

export interface TAnswerVideo {
  videoUrl?: string | null | undefined;
  posterUrl?: string | null | undefined;
}

/**
 * The review of every answer's subtitles before the merged video with all subtitles (spec §2, §4
 * transcription job, §7, §8): starts the merged transcription job when opened, follows it every 3 s,
 * then shows each answer, collapsible, with its question, position, error and editable cues.
 * Nothing is mounted while closed: closing stops following, and each opening starts a fresh job
 * (answers already transcribed come back at once from the server's store).
 */
export function MergedTranscriptionReviewDialog(props: MergedTranscriptionReviewDialogProps): JSX.Element {
  if (!props.open) return <></>;
  return <MergedReview key={props.testimonialId} {...props} />;
}

type TFailure = 'start' | 'error' | 'timeout';

const failureMessage: Record<TFailure, 'transcription.merged.startError' | 'transcription.merged.jobError' | 'transcription.merged.timeout'> = {
  start: 'transcription.merged.startError',
  error: 'transcription.merged.jobError',
  timeout: 'transcription.merged.timeout',
};

function MergedReview({ open, onOpenChange, testimonialId, onGenerationStarted, customerName, videos }: MergedTranscriptionReviewDialogProps) {
  const { t } = useTranslation();
  const language = useStudioLanguage();
  // Each opening (and each retry) starts a job; it is followed with useJob and its result read once ready.
  const [attempt, setAttempt] = useState(0);
  const start = useQuery({ ...mergedTranscriptionQueryOptions(testimonialId, attempt), enabled: open && Boolean(testimonialId) });
  const jobId = start.data?.jobId ?? null;
  const job = useJob(jobId, { pollMs: TRANSCRIPTION_POLL_MS });
  const result = useTranscriptionResult(job.status === 'ready' ? jobId : null);
  const generate = useGenerateMergedSubtitlesMutation();
  const noCuesId = useId();
  const generateErrorRef = useRef<HTMLDivElement>(null);

  const failure: TFailure | null = start.isError
    ? 'start'
    : job.status === 'gaveUp'
      ? 'timeout'
      : job.status === 'failed' || job.status === 'cancelled' || result.isError
        ? 'error'
        : null;
  const failureDetail = job.status === 'failed' ? jobErrorText(t, job.job?.error) : null;
  // No engine knows the language and no answer has typed lines yet: retrying cannot help; typing can (decision 167).
  const notSetUp = job.status === 'failed' && job.job?.error?.reason === 'transcription_unavailable';

  // The edited copy of the job's result, and which answers are expanded (at first the first one and
  // those that failed, so their error shows), both kept per job.
  const original = result.data ?? null;
  const [edits, setEdits] = useState<{ jobId: string; items: TResponseTranscriptions } | null>(null);
  const [toggled, setToggled] = useState<{ jobId: string; expanded: ReadonlySet<string> } | null>(null);
  const items = original && jobId ? (edits?.jobId === jobId ? edits.items : original) : null;
  const expanded: ReadonlySet<string> =
    toggled && toggled.jobId === jobId
      ? toggled.expanded
      : new Set((original ?? []).filter((item, i) => i === 0 || item.error).map((item) => item.responseId));
  const setExpanded = (next: ReadonlySet<string>) => jobId && setToggled({ jobId, expanded: next });
  const setItems = (next: TResponseTranscriptions) => jobId && setEdits({ jobId, items: next });
  // The answer whose player follows its time and takes Alt+R: the one last used, at first the first expanded.
  const [current, setCurrent] = useState<string | null>(null);
  const currentId = current ?? (items ?? []).find((item) => expanded.has(item.responseId))?.responseId ?? null;

  useEffect(() => {
    if (start.error) console.error('Starting the merged transcription failed.', start.error);
  }, [start.error]);
  useEffect(() => {
    if (failure && failure !== 'start') console.error(`The merged transcription ended with ${failure === 'timeout' ? 'a timeout' : 'an error'}.`, job.job?.error ?? result.error ?? '');
  }, [failure, job.job?.error, result.error]);
  useEffect(() => {
    if (generate.error) generateErrorRef.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [generate.error]);

  const ready = items !== null;
  const usable = (items ?? []).filter((item) => !item.error);
  const hasCues = usable.some((item) => publishableCues(item.transcription).length > 0);
  const allExpanded = items !== null && items.length > 0 && items.every((item) => expanded.has(item.responseId));

  const fileName = (parts: (string | undefined)[], format: TranscriptFormat) =>
    transcriptFileName([t('transcription.fileBase'), customerName, ...parts], format);

  const downloadAll = (format: TranscriptFormat) => {
    if (!items || !hasCues) return;
    const content =
      format === 'json'
        ? mergedJson(items)
        : mergedTxt(items, { noSpeech: t('transcription.txtNoSpeech'), failed: t('transcription.txtFailed') });
    saveTextFile(content, fileName([t('transcription.fileAll')], format), TRANSCRIPT_MIME[format]);
  };

  const downloadAnswerSrt = (item: TResponseTranscription) => {
    saveTextFile(
      transcriptFile(item.transcription, 'srt'),
      fileName([`${item.orderPosition}`, item.questionText], 'srt'),
      TRANSCRIPT_MIME.srt,
    );
  };

  const onGenerate = () => {
    if (!hasCues || generate.isPending) return;
    generate.mutate(
      {
        testimonialId,
        body: {
          // Answers that could not be transcribed are left as they are on the server.
          transcriptions: usable.map((item) => ({
            responseId: item.responseId,
            questionText: item.questionText,
            orderPosition: item.orderPosition,
            transcription: publishableCues(item.transcription),
            error: null,
          })),
          language,
        },
      },
      {
        onSuccess: (started) => {
          onGenerationStarted(started);
          onOpenChange(false);
        },
        onError: (error) => console.error('Starting the merged video with all subtitles failed.', error),
      },
    );
  };

  const toggle = (responseId: string) => {
    const next = new Set(expanded);
    if (next.has(responseId)) next.delete(responseId);
    else next.add(responseId);
    setExpanded(next);
  };

  // One notice in place of the answers: no engine for the language, or a failure with its retry.
  const notice: TReviewNotice | null = notSetUp
    ? { tone: 'info', title: t('transcription.typed.notSetUpTitle'), testId: 'transcription-not-set-up', text: t('transcription.merged.typeEach') }
    : failure
      ? {
          tone: 'error',
          title: t(failureMessage[failure]),
          testId: 'transcription-error',
          text: failureDetail,
          action: { label: t('dashboard.common.retry'), icon: <RefreshIcon className="size-4" />, onClick: () => setAttempt((n) => n + 1) },
        }
      : null;
  const loading =
    ready && items
      ? null
      : {
          title: jobId ? t('transcription.merged.polling') : t('transcription.merged.starting'),
          hint: t('transcription.merged.pollingHint'),
          note: jobId ? <JobProgress follow={job} className="mt-3" /> : undefined,
        };

  return (
    <ReviewDialog
      onOpenChange={onOpenChange}
      busy={generate.isPending}
      title={t('transcription.merged.title')}
      description={t('transcription.merged.description')}
      testId="merged-transcription-review-dialog"
      notice={notice}
      loading={loading}
      generate={{
        label: t('transcription.merged.generate'),
        testId: 'generate-merged-subtitles',
        onClick: onGenerate,
        disabled: !ready || !hasCues,
        describedBy: ready && !hasCues ? noCuesId : undefined,
        loading: generate.isPending,
      }}
    >
      {items && (
        <div className="flex flex-col gap-5 pb-1">
          <div className="flex flex-col gap-2 rounded-control border border-gray-200 bg-gray-50 px-3 py-2.5">
            <DownloadBar formats={['txt', 'json']} onDownload={downloadAll} disabled={!hasCues} describedBy={noCuesId} />
            <p className="text-xs text-gray-600">{t('transcription.merged.srtHint')}</p>
          </div>
          {!hasCues && (
            <Alert tone="warning" data-testid="transcription-empty">
              <span id={noCuesId}>{t('transcription.noCuesMerged')}</span>
            </Alert>
          )}
          <div className="flex items-center justify-between gap-3">
            <p className="text-sm font-medium text-gray-900">{t('transcription.merged.answersSummary', { count: items.length })}</p>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => setExpanded(allExpanded ? new Set() : new Set(items.map((item) => item.responseId)))}
            >
              {allExpanded ? t('transcription.merged.collapseAll') : t('transcription.merged.expandAll')}
            </Button>
          </div>
          <ul className="flex flex-col gap-3">
            {items.map((item, index) => (
              <AnswerSection
                key={item.responseId}
                item={item}
                original={original?.[index]?.transcription ?? []}
                expanded={expanded.has(item.responseId)}
                video={videos?.[item.responseId]}
                current={item.responseId === currentId}
                onUse={() => setCurrent(item.responseId)}
                onToggle={() => toggle(item.responseId)}
                disabled={generate.isPending}
                onDownloadSrt={() => downloadAnswerSrt(item)}
                onChange={(cueIndex, text) =>
                  setItems(
                    items.map((entry) =>
                      entry.responseId === item.responseId ? { ...entry, transcription: withCueText(entry.transcription, cueIndex, text) } : entry,
                    ),
                  )
                }
              />
            ))}
          </ul>
          {hasCues && <p className="text-xs text-gray-500">{t('transcription.emptyCueHint')}</p>}
          {generate.isError && <GenerateError ref={generateErrorRef} title={t('transcription.merged.generateError')} error={generate.error} onRetry={onGenerate} />}
        </div>
      )}
    </ReviewDialog>
  );
}

interface AnswerSectionProps {
  item: TResponseTranscription;
  original: TResponseTranscription['transcription'];
  expanded: boolean;
  onToggle: () => void;
  onChange: (cueIndex: number, text: string) => void;
  onDownloadSrt: () => void;
  disabled: boolean;
  /** The answer's video, for its player (when the page knows it). */
  video?: TAnswerVideo | undefined;
  /** This answer's player follows its time and takes Alt+R (one at a time: the answer last used). */
  current: boolean;
  onUse: () => void;
}

/**
 * One answer: a header that expands or collapses it, then its error, or its player (when its video is
 * known), its cues and its .srt.
 */
function AnswerSection({ item, original, expanded, onToggle, onChange, onDownloadSrt, disabled, video, current, onUse }: AnswerSectionProps) {
  const { t } = useTranslation();
  const panelId = useId();
  const cues = publishableCues(item.transcription);
  const edited = countEdited(item.transcription, original);
  const videoUrl = !item.error && item.transcription.length > 0 ? video?.videoUrl : null;
  const player = useCuePlayer(item.transcription, expanded && current && Boolean(videoUrl));
  return (
    <li
      onFocusCapture={onUse}
      onPointerDownCapture={onUse}
      className="rounded-card border border-gray-200 bg-white"
      data-testid="merged-response"
      data-response-id={item.responseId}
      data-order-position={item.orderPosition}
    >
      <h3>
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={panelId}
          onClick={onToggle}
          className="flex w-full items-start gap-3 rounded-card px-4 py-3 text-left transition-colors hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-brand-600"
        >
          <Badge tone="brand" className="mt-0.5 shrink-0">
            {t('transcription.merged.answerLabel', { position: item.orderPosition })}
          </Badge>
          <span className="min-w-0 flex-1">
            <span className="block text-sm font-medium text-gray-900 [overflow-wrap:anywhere]">{item.questionText}</span>
            <span className="mt-1 flex flex-wrap items-center gap-2 text-xs text-gray-500">
              {item.error ? (
                <Badge tone="error" dot>
                  {t('transcription.merged.answerFailed')}
                </Badge>
              ) : (
                <span>{t('transcription.merged.cueCount', { count: cues.length })}</span>
              )}
              {edited > 0 && <span className="font-medium text-brand-800">{t('transcription.edited', { count: edited })}</span>}
            </span>
          </span>
          <ChevronDownIcon
            className={cn('mt-0.5 size-5 shrink-0 text-gray-500 transition-transform motion-reduce:transition-none', expanded && 'rotate-180')}
          />
        </button>
      </h3>
      <div id={panelId} hidden={!expanded} className="border-t border-gray-200 px-4 pt-4 pb-4">
        {expanded &&
          (item.error ? (
            <Alert tone="error" data-testid="merged-response-error">
              {t('transcription.merged.answerError', { error: jobMessageText(t, item.error) })}
            </Alert>
          ) : item.transcription.length === 0 ? (
            <p className="text-sm text-gray-600">{t('transcription.merged.answerEmpty')}</p>
          ) : (
            <div className="flex flex-col gap-4">
              {videoUrl && <ReviewPlayer attachVideo={player.attachVideo} time={player.time} videoUrl={videoUrl} posterUrl={video?.posterUrl} />}
              <CueEditor
                cues={item.transcription}
                original={original}
                onChange={onChange}
                disabled={disabled}
                activeIndex={videoUrl && current ? player.active : -1}
                onSeek={videoUrl ? player.seek : undefined}
              />
              <div>
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={cues.length === 0}
                  leadingIcon={<DownloadIcon className="size-4" />}
                  onClick={onDownloadSrt}
                  data-testid="download-srt"
                >
                  {t('transcription.merged.downloadAnswerSrt', { position: item.orderPosition })}
                </Button>
              </div>
            </div>
          ))}
      </div>
    </li>
  );
}
