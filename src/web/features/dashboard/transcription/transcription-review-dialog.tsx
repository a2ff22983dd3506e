import { useEffect, useId, useRef, useState } from 'react';
import type { JSX } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TRenderJobResponse } from '../../../../contract/api/studio.schema.js';
import type { TTranscription } from '../../../../contract/api/transcription.schema.js';
import { cueProblem } from '../../../../contract/typed-cues.js';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { isApiError } from '../../../lib/api-client';
import { errorReasonText } from '../../../lib/error-reason-text';
import { endsSentence } from '../../../lib/format';
import { PencilIcon, PlusIcon, RefreshIcon } from '../../../components/icons';
import { useGenerateSubtitlesMutation } from '../api/generate-subtitles';
import { useSaveTranscriptionMutation } from '../api/save-transcription';
import { transcribeResponse, transcriptionKeys, useTranscribeResponse } from '../api/transcribe-response';
import { TRANSCRIPTION_POLL_MS, useTranscriptionResult } from '../api/transcription-job-status';
import { JobProgress } from '../jobs/job-progress';
import { jobErrorText } from '../jobs/job-reason';
import { useJob } from '../jobs/use-job';
import { CueEditor, countEdited, withCueText, type CueTiming } from './cue-editor';
import { addCueAt, joinWithNext, removeCue, splitCue, withCueTime } from './cue-edits';
import { DownloadBar } from './download-bar';
import { GenerateError } from './generate-error';
import { refusalDetail } from './review-errors';
import { ReviewDialog, ReviewPlayer, type TReviewNotice } from './review-dialog';
import {
  publishableCues,
  saveTextFile,
  TRANSCRIPT_MIME,
  transcriptFile,
  transcriptFileName,
  type TranscriptFormat,
} from './transcription-files';
import { useCuePlayer } from './use-cue-player';
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
  /** The answer's video (the prepared one, whose times the lines follow), for the player. */
  videoUrl?: string | null | undefined;
  posterUrl?: string | null | undefined;
}

/** The answer's language has no engine here: retrying cannot help, typing the lines can (decision 167). */
const NOT_SET_UP = 'transcription_language_not_set_up';

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

function SingleReview({ open, onOpenChange, responseId, questionText, onGenerationStarted, customerName, videoUrl, posterUrl }: TranscriptionReviewDialogProps) {
  const { t } = useTranslation();
  const language = useStudioLanguage();
  const queryClient = useQueryClient();
  const query = useTranscribeResponse(responseId, open);
  const generate = useGenerateSubtitlesMutation();
  const save = useSaveTranscriptionMutation();
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
  // No engine for this language: the person types the lines, from none (decision 167).
  const notSetUp =
    (isApiError(query.error) && query.error.reason === NOT_SET_UP) || job.job?.error?.reason === 'transcription_unavailable';
  const [typing, setTyping] = useState(false);
  const typed = typing && notSetUp;
  const editSource = typed ? 'typed' : source;
  const cues = typed ? (edits?.source === 'typed' ? edits.cues : []) : server === null ? null : edits?.source === source ? edits.cues : server;
  const setCues = (next: TTranscription) => setEdits({ source: editSource, cues: next });
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  const player = useCuePlayer(cues ?? [], Boolean(videoUrl) && cues !== null);
  const { time: playerTime, duration: playerDuration } = player;

  // Too many transcriptions for the company at once (429): said in the person's language.
  const limitedOr = (error: unknown, otherwise: string | null) =>
    isApiError(error) && error.status === 429 ? t('transcription.rateLimited') : otherwise;
  const jobFailure: string | null = notSetUp
    ? null
    : job.status === 'failed' || job.status === 'cancelled'
      ? jobErrorText(t, job.job?.error)
      : job.status === 'gaveUp'
        ? t('transcription.merged.timeout')
        : result.isError || (result.data && !item)
          ? t('jobs.reasons.transcription_failed')
          : item?.error ?? null;

  useEffect(() => {
    if (query.error && !notSetUp) console.error('Transcribing the answer failed.', query.error);
  }, [query.error, notSetUp]);
  useEffect(() => {
    if (jobFailure) console.error('The transcription job of the answer did not give cues.', job.job?.error ?? result.error ?? jobFailure);
  }, [jobFailure, job.job?.error, result.error]);
  useEffect(() => {
    if (generate.error) generateErrorRef.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [generate.error]);

  const original = typed ? [] : (server ?? []);
  const publishable = cues ? publishableCues(cues) : [];
  const hasCues = publishable.length > 0;
  const edited = cues && !typed ? countEdited(cues, original) : 0;
  const ready = cues !== null && (typed || (!query.isFetching && !forcing));
  // The first problem of the lines (overlap, order, past the end), said before the server would.
  const problemFound = cues ? cueProblem(cues.map((cue) => (cue.text.trim() ? cue : { ...cue, text: '-' })), playerDuration) : null;
  const problem = problemFound && problemFound.index !== null ? { index: problemFound.index, text: errorReasonText(problemFound.reason, problemFound.params, t) ?? '' } : null;
  const problemText = problemFound ? (errorReasonText(problemFound.reason, problemFound.params, t) ?? '') : null;
  const busy = generate.isPending || save.isPending;

  const timing: CueTiming = {
    onTime: (index, edge, seconds) => cues && setCues(withCueTime(cues, index, edge, seconds)),
    onSplit: (index) => cues && setCues(splitCue(cues, index, playerTime)),
    onJoin: (index) => cues && setCues(joinWithNext(cues, index)),
    onRemove: (index) => cues && setCues(removeCue(cues, index)),
  };
  const addLine = () => {
    const added = addCueAt(cues ?? [], playerTime, playerDuration);
    setCues(added.cues);
    setFocusIndex(added.index);
  };

  /** Stores the lines as they are: afterwards the review starts from them (they are the stored transcript). */
  const onSave = () => {
    if (!hasCues || problemFound || busy) return;
    save.mutate(
      { responseId, body: { transcription: publishable } },
      {
        onSuccess: (saved) => {
          queryClient.setQueryData(transcriptionKeys.response(responseId), saved);
          setForced(null);
          setTyping(false);
          setEdits(null);
        },
        onError: (error) => console.error('Saving the subtitles failed.', error),
      },
    );
  };

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
    if (!hasCues || problemFound || busy) return;
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

  // One notice in place of the lines: no engine for the language (type them), or a failure (retry).
  const notice: TReviewNotice | null =
    notSetUp && !typed
      ? {
          tone: 'info',
          title: t('transcription.typed.notSetUpTitle'),
          testId: 'transcription-not-set-up',
          text: t('transcription.typed.notSetUp'),
          action: { label: t('transcription.typed.start'), icon: <PencilIcon className="size-4" />, onClick: () => setTyping(true), primary: true, testId: 'type-subtitles' },
        }
      : (query.isError && !cues) || jobFailure
        ? {
            tone: 'error',
            title: t('transcription.single.errorTitle'),
            testId: 'transcription-error',
            text: jobFailure ?? limitedOr(query.error, refusalDetail(query.error, t)),
            action: { label: t('dashboard.common.retry'), icon: <RefreshIcon className="size-4" />, onClick: retry, loading: query.isFetching },
          }
        : null;
  const loading = ready
    ? null
    : { title: t('transcription.single.loading'), hint: t('transcription.single.loadingHint'), note: jobId ? <JobProgress follow={job} className="mt-3" /> : undefined };

  return (
    <ReviewDialog
      onOpenChange={onOpenChange}
      busy={busy}
      title={t('transcription.single.title')}
      description={t(
        typed
          ? endsSentence(questionText) ? 'transcription.typed.descriptionEnded' : 'transcription.typed.description'
          : endsSentence(questionText) ? 'transcription.single.descriptionEnded' : 'transcription.single.description',
        { question: questionText },
      )}
      testId="transcription-review-dialog"
      notice={notice}
      loading={loading}
      extraActions={
        ready && (typed || edits !== null) ? (
          <Button variant="secondary" onClick={onSave} disabled={!hasCues || problemFound !== null || generate.isPending} loading={save.isPending} data-testid="save-subtitles">
            {t('transcription.typed.save')}
          </Button>
        ) : null
      }
      generate={{
        label: t('transcription.single.generate'),
        testId: 'generate-subtitles',
        onClick: onGenerate,
        disabled: !ready || !hasCues || problemFound !== null || save.isPending,
        describedBy: ready && !hasCues ? noCuesId : undefined,
        loading: generate.isPending,
      }}
    >
      <div className="flex flex-col gap-5 pb-1">
        {videoUrl && (
          <ReviewPlayer
            attachVideo={player.attachVideo}
            time={player.time}
            videoUrl={videoUrl}
            posterUrl={posterUrl}
            onAddLine={typed || cues?.length ? addLine : undefined}
            busy={busy}
            sticky
          />
        )}
        {typed && <p className="text-sm text-gray-700" data-testid="typed-intro">{t('transcription.typed.intro')}</p>}
        <div className="flex flex-wrap items-center justify-between gap-3 rounded-control border border-gray-200 bg-gray-50 px-3 py-2.5">
          <DownloadBar onDownload={download} disabled={!hasCues} describedBy={noCuesId} />
          {edited > 0 && (
            <span className="text-xs font-medium text-brand-800" role="status">
              {t('transcription.edited', { count: edited })}
            </span>
          )}
        </div>
        {hasCues || typed || (cues?.length ?? 0) > 0 ? (
          <>
            {cues?.length ? (
              <CueEditor
                cues={cues}
                original={original}
                disabled={busy}
                onChange={(index, text) => setCues(withCueText(cues, index, text))}
                activeIndex={player.active}
                onSeek={videoUrl ? player.seek : undefined}
                timing={timing}
                focusIndex={focusIndex}
                problem={problem}
              />
            ) : (
              <p className="rounded-card border border-dashed border-gray-300 px-4 py-6 text-center text-sm text-gray-600" data-testid="typed-empty">
                {t(videoUrl ? 'transcription.typed.empty' : 'transcription.typed.emptyNoPlayer')}
              </p>
            )}
            {!videoUrl && (
              <Button variant="secondary" size="sm" className="self-start" leadingIcon={<PlusIcon className="size-4" />} onClick={addLine} disabled={busy} data-testid="add-cue">
                {t('transcription.typed.add')}
              </Button>
            )}
            {problemText && problem === null && (
              <Alert tone="error" data-testid="cue-problem">
                {problemText}
              </Alert>
            )}
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
        {save.isError && (
          <GenerateError title={t('transcription.typed.saveError')} error={save.error} onRetry={onSave} />
        )}
        {save.isSuccess && !edits && (
          <p className="text-sm font-medium text-success-700" role="status" data-testid="subtitles-saved">
            {t('transcription.typed.saved')}
          </p>
        )}
        {generate.isError && <GenerateError ref={generateErrorRef} title={t('transcription.single.generateError')} error={generate.error} onRetry={onGenerate} />}
      </div>
    </ReviewDialog>
  );
}
