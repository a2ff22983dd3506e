import type { TFunction } from 'i18next';
import { useLayoutEffect, useRef, useState } from 'react';
import type { ReactNode, Ref } from 'react';
import { useRecordingT } from '../../../i18n/recording-i18n';
import type { TPublicQuestion } from '../../../../contract/api/public.schema.js';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { ArrowRightIcon, CheckIcon } from '../../../components/icons';
import { Spinner } from '../../../components/spinner';
import { cn } from '../../../lib/cn';
import { formatDuration } from '../../../lib/format';
import { chosenFileRefusal } from '../chosen-file';
import { formatSeconds, textColorOn } from '../media-support';
import type { MediaDevicesState } from '../use-media-stream';
import { CameraBox, DeviceProblem, FilmIcon, LiveVideo, TakeVideo } from './media-views';
import { MicLevelMeter } from './mic-level-meter';
import { QuestionPanel } from './question-panel';
import { TeleprompterOverlay, TeleprompterPanel } from './teleprompter';
import { MAX_MS, MIN_MS, type Take, type TRecorderStatus, type TTakeError } from './question-recorder-state';
import { useFocusOnMount } from './use-focus-on-mount';
import { useQuestionRecorder } from './use-question-recorder';


export interface QuestionRecorderProps {
  question: TPublicQuestion;
  index: number;
  total: number;
  /** Which questions already have a saved answer (by position). */
  answered: boolean[];
  bgColor: string;
  media: MediaDevicesState;
  existing: Take | null;
  notes: string;
  notesVisible: boolean;
  notesFontSize: number;
  onNotesChange: (notes: string) => void;
  onNotesVisibleChange: (visible: boolean) => void;
  onNotesFontSizeChange: (size: number) => void;
  /** Stores the answer; the page then moves on. Rejects if the answer could not be kept at all. */
  onAccept: (take: Take) => Promise<void>;
  /**
   * The file picker opens (true) or closes (false). On a phone the page lets go of the camera
   * meanwhile, so that the camera app it offers can use it.
   */
  onPickingFile?: (picking: boolean) => void;
  /** Messages above the question (resumed session, storage warnings). */
  banner?: ReactNode;
}

/** The last take's problem in the customer's language. */
function takeErrorText(error: TTakeError | null, t: TFunction): string | null {
  if (!error) return null;
  switch (error.kind) {
    case 'recorder':
      return t('recording.question.recorderError');
    case 'tooShort':
      return t('recording.question.tooShort');
    case 'storage':
      return t('recording.storageFailed');
    case 'file':
      return chosenFileRefusal(error.problem, t, error.durationSeconds);
  }
}

/** What the polite live region says. */
function statusText(status: TRecorderStatus | null, t: TFunction): string {
  if (!status) return '';
  switch (status.kind) {
    case 'recording':
      return t('recording.question.statusRecording');
    case 'stopped':
      return t('recording.question.statusStopped');
    case 'stoppedAtLimit':
      return t('recording.question.stoppedAtLimit');
    case 'saved':
      return t('recording.question.statusSaved');
    case 'checking':
      return t('recording.file.checking');
    case 'chosen':
      return t('recording.file.statusChosen');
    case 'countdown':
      return t('recording.question.countdown', { seconds: status.seconds });
    case 'remaining':
      return `${t('recording.question.remaining')}: ${formatSeconds(status.seconds)}`;
  }
}

export function QuestionRecorder(props: QuestionRecorderProps) {
  const { question, index, total, answered, bgColor, media, existing, notes, notesVisible, notesFontSize } = props;
  const { t } = useRecordingT();
  const stream = media.status === 'ready' ? media.stream : null;
  const recorder = useQuestionRecorder({ stream, existing, onAccept: props.onAccept, onPickingFile: props.onPickingFile });
  const { state, recordButtonRef, rootRef, fileInputRef, startCountdown, cancelCountdown, stopRecording, retake, openPicker, onFileChosen, accept } = recorder;
  const { phase, take, count, elapsedMs } = state;
  const error = takeErrorText(state.error, t);
  const status = statusText(state.status, t);
  /** The camera picture's aspect: the preview box takes it, so the preview is the frame that is recorded. */
  const [cameraAspect, setCameraAspect] = useState<number | null>(null);
  const headingRef = useFocusOnMount<HTMLHeadingElement>();
  const stageRef = useRef<HTMLDivElement>(null);

  // Where the stage starts on the page (below the header and the steps): it then ends at the bottom
  // of the screen. Measured, so that the page's header can change without breaking the fit.
  useLayoutEffect(() => {
    const stage = stageRef.current;
    if (!stage) return;
    const measure = () => {
      const top = Math.max(0, Math.round(stage.getBoundingClientRect().top + window.scrollY));
      stage.style.setProperty('--stage-top', `${top}px`);
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, []);

  // Opened with nothing written yet: the customer is about to write, so the editor (under the stage)
  // comes into view with the focus. Recording brings the stage back (startCountdown).
  const toggleNotes = () => {
    const opening = !notesVisible;
    props.onNotesVisibleChange(opening);
    if (opening && !notes.trim()) {
      requestAnimationFrame(() => document.getElementById(notesPanelId)?.querySelector('textarea')?.focus());
    }
  };

  // One button at thumb height through idle → countdown → recording, so focus stays on it.
  const roundButton: Omit<RoundButtonProps, 'ref'> =
    phase === 'countdown'
      ? {
          onClick: cancelCountdown,
          label: t('recording.question.cancel'),
          testId: 'cancel-countdown',
          children: (
            <span className="text-3xl leading-none font-bold text-gray-900 tabular-nums" aria-hidden="true">
              {count}
            </span>
          ),
        }
      : phase === 'recording' || phase === 'finishing'
        ? {
            onClick: stopRecording,
            inactive: phase === 'finishing' || elapsedMs < MIN_MS,
            label: t('recording.question.stop'),
            testId: 'stop',
            children:
              phase === 'finishing' ? (
                <Spinner className="size-7 text-gray-700" />
              ) : (
                <span className="size-7 rounded-md bg-error-600 sm:size-8" />
              ),
          }
        : {
            onClick: startCountdown,
            inactive: !stream || phase === 'checking',
            label: t('recording.question.record'),
            testId: 'record',
            children: <span className="size-11 rounded-full bg-error-600 transition-colors group-hover:bg-error-700 sm:size-12" />,
          };

  const isLast = index === total - 1;
  const remainingMs = MAX_MS - elapsedMs;
  const textTone = textColorOn(bgColor);
  const showingTake = (phase === 'preview' || phase === 'saving') && take;
  const fromFile = showingTake && take.source === 'file';
  const mediaProblem = media.status === 'error' && media.problem && !showingTake ? media.problem : null;
  const notesPanelId = `notes-${question.id}`;
  const busy = phase === 'countdown' || phase === 'recording' || phase === 'finishing';
  const boxAspect = showingTake && take.aspect ? take.aspect : cameraAspect;

  const fileInput = (
    <input
      ref={fileInputRef}
      type="file"
      accept="video/*"
      capture="user"
      className="sr-only"
      tabIndex={-1}
      aria-hidden="true"
      data-testid="file-input"
      onChange={(event) => {
        const file = event.currentTarget.files?.[0];
        // Cleared at once, so that choosing the same file again is a change too.
        event.currentTarget.value = '';
        void onFileChosen(file);
      }}
    />
  );

  return (
    <div ref={rootRef} className="mx-auto w-full max-w-3xl px-4 sm:px-6" data-testid="question" data-question-id={question.id} data-phase={phase}>
      {/*
        The stage: everything needed to answer, in one screen (issue 18). It is as tall as the screen
        below the page's header and steps (--stage-top, measured), and the camera takes what the
        question and the buttons leave, keeping its own aspect. The notes' editor comes after it.
        A grid of three rows (question, camera, buttons) rather than a flex column: Chromium gives a
        size container that grows in a flex column of a minimum height no size for its queries.
      */}
      <div
        ref={stageRef}
        className="grid min-h-[calc(100svh-var(--stage-top,7.5rem))] grid-cols-[minmax(0,1fr)] grid-rows-[auto_minmax(10rem,1fr)_auto] pt-3 pb-3 sm:pt-4"
        data-testid="stage"
      >
        <div>
          {props.banner}
          <div className="flex items-center justify-between gap-3">
            <p className="min-w-0 text-sm text-gray-500" data-testid="question-counter-row">
              <span className="font-semibold text-gray-900 sm:text-base" data-testid="question-counter" aria-live="polite">
                {t('recording.question.counter', { current: index + 1, total })}
              </span>
              {/* On wider screens the limit is said here, to leave the height to the camera. */}
              <span className="max-sm:hidden">
                <span aria-hidden="true"> · </span>
                {t('recording.question.maxNote')}
              </span>
            </p>
            <AnswerSegments answered={answered} current={index} label={t('recording.question.saved', { saved: answered.filter(Boolean).length, total })} />
          </div>

          <QuestionPanel text={question.text} bgColor={bgColor} tone={textTone} headingRef={headingRef} />
        </div>

        {mediaProblem ? (
          <DeviceProblem
            problem={mediaProblem}
            onRetry={media.retry}
            className="mt-3 self-start"
            retryVariant="secondary"
            actionFirst
            action={
              <Button onClick={openPicker} loading={phase === 'checking'} leadingIcon={<FilmIcon className="size-5" />} data-testid="choose-file">
                {t('recording.file.instead')}
              </Button>
            }
          >
            <p className="mt-3 text-sm text-gray-800" data-testid="file-instead-hint">
              {t('recording.file.insteadHint')}
            </p>
          </DeviceProblem>
        ) : (
          <div className="mt-3 flex items-center justify-center [container-type:size]" data-testid="camera-area">
            <CameraBox aspect={boxAspect} className="[--camera-max-h:100cqh]" data-testid="camera-box">
              {showingTake ? (
                <TakeVideo
                  blob={take.blob}
                  label={fromFile ? t('recording.file.previewLabel') : t('recording.question.previewLabel')}
                  unplayableText={t('recording.file.noPreview')}
                />
              ) : (
                <LiveVideo stream={stream} label={t('recording.question.cameraLabel')} onAspect={setCameraAspect} />
              )}
              {!showingTake && !stream && phase !== 'checking' && (
                <div className="absolute inset-0 flex items-center justify-center text-gray-200" role="status">
                  <Spinner className="size-8" />
                  <span className="sr-only">{t('recording.devices.starting')}</span>
                </div>
              )}
              {phase === 'checking' && (
                <div
                  className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-gray-950/60 px-6 text-center text-sm font-medium text-white"
                  data-testid="file-checking"
                >
                  <Spinner className="size-7" />
                  {t('recording.file.checking')}
                </div>
              )}
              {!showingTake && notesVisible && <TeleprompterOverlay notes={notes} fontSize={notesFontSize} />}
              {!showingTake && stream && (phase === 'idle' || phase === 'recording') && (
                <div className="absolute bottom-3 left-3 flex items-center gap-2 sm:bottom-4 sm:left-4">
                  {phase === 'recording' && (
                    <div
                      className="flex items-center gap-2 rounded-full bg-gray-950/70 px-3 py-1.5 text-sm font-semibold text-white"
                      data-testid="recording-indicator"
                    >
                      <span className="size-3 rounded-full bg-error-500 animate-pulse motion-reduce:animate-none" aria-hidden="true" />
                      {t('recording.question.recording')}
                    </div>
                  )}
                  <div className={cn('rounded-full bg-gray-950/70 px-3 py-2', phase === 'recording' && 'max-sm:hidden')}>
                    <MicLevelMeter stream={stream} compact onDark />
                  </div>
                </div>
              )}
              {phase === 'finishing' && (
                <div
                  className="absolute bottom-3 left-3 flex items-center gap-2 rounded-full bg-gray-950/70 px-3 py-1.5 text-sm font-semibold text-white sm:bottom-4 sm:left-4"
                  data-testid="recording-indicator"
                >
                  <span className="size-3 rounded-full bg-error-500" aria-hidden="true" />
                  {t('recording.question.recording')}
                </div>
              )}

              {phase === 'countdown' && (
                <div className="absolute inset-0 flex flex-col items-center justify-center bg-gray-950/45 text-white" data-testid="countdown">
                  <span
                    key={count}
                    className="animate-fade-in text-[6rem] leading-none font-bold tabular-nums drop-shadow-lg sm:text-[8rem]"
                    aria-hidden="true"
                  >
                    {count}
                  </span>
                </div>
              )}

              {(phase === 'recording' || phase === 'finishing') && (
                <>
                  <div className="absolute right-3 bottom-3 rounded-card bg-gray-950/70 px-3 py-1 text-white sm:right-4" data-testid="remaining">
                    <span className="sr-only">{t('recording.question.remaining')}: </span>
                    <span className="text-2xl font-semibold tabular-nums sm:text-3xl">{formatSeconds(remainingMs / 1000)}</span>
                  </div>
                  <div className="absolute inset-x-0 bottom-0 h-1.5 bg-white/20" aria-hidden="true">
                    <div className="h-full bg-error-500 transition-[width] duration-200 ease-linear" style={{ width: `${(elapsedMs / MAX_MS) * 100}%` }} />
                  </div>
                </>
              )}
            </CameraBox>
          </div>
        )}

        <div>
          <p className="sr-only" role="status" aria-live="polite">
            {status}
          </p>
          {error && (
            <Alert tone="error" className="mt-3" data-testid="take-error">
              {error}
            </Alert>
          )}

          {showingTake ? (
            <div className="mt-3 sm:mt-4" data-testid="take-actions">
              <p className="text-center text-base font-semibold text-gray-900">
                {take.durationMs > 0
                  ? t(fromFile ? 'recording.file.previewTitle' : 'recording.question.previewTitle', { duration: formatDuration(take.durationMs / 1000) })
                  : t('recording.file.previewTitleNoDuration')}
              </p>
              <p className="mt-0.5 text-center text-sm text-gray-600">{fromFile ? t('recording.file.previewHint') : t('recording.question.previewHint')}</p>
              <div className="mt-3 flex flex-col-reverse gap-2 sm:flex-row sm:justify-center sm:gap-3">
                <Button
                  variant="secondary"
                  size="lg"
                  className="h-11 sm:h-12"
                  onClick={retake}
                  disabled={phase === 'saving'}
                  data-testid="retake"
                  leadingIcon={<RetakeIcon />}
                >
                  {t('recording.question.retake')}
                </Button>
                <Button
                  size="lg"
                  className="h-auto min-h-12 px-4 py-1.5 leading-tight whitespace-normal! sm:px-6"
                  onClick={() => void accept()}
                  loading={phase === 'saving'}
                  data-testid="accept"
                  trailingIcon={isLast ? <CheckIcon className="size-5 shrink-0" /> : <ArrowRightIcon className="size-5 shrink-0" />}
                >
                  {isLast ? t('recording.question.complete') : t('recording.question.saveNext')}
                </Button>
              </div>
            </div>
          ) : mediaProblem ? null : (
            <div className="mt-3" data-testid="controls">
              <div className="grid grid-cols-[minmax(0,1fr)_auto_minmax(0,1fr)] items-start gap-2">
                <div className="flex justify-start">
                  <SideButton
                    onClick={toggleNotes}
                    aria-expanded={notesVisible}
                    aria-controls={notesPanelId}
                    pressed={notesVisible}
                    data-testid="notes-toggle"
                    icon={<NotesIcon />}
                    label={notesVisible ? t('recording.notes.hide') : t('recording.notes.show')}
                  />
                </div>
                <div className="flex flex-col items-center gap-1.5 text-center">
                  <RoundButton ref={recordButtonRef} {...roundButton} />
                </div>
                <div className={cn('flex justify-end', busy && 'invisible')}>
                  <SideButton
                    onClick={openPicker}
                    disabled={busy || phase === 'checking'}
                    data-testid="choose-file"
                    icon={phase === 'checking' ? <Spinner className="size-5" /> : <FilmIcon className="size-5" />}
                    label={t('recording.file.choose')}
                  />
                </div>
              </div>
              <p className="mt-2 text-center text-xs text-gray-500 sm:hidden">{t('recording.question.maxNote')}</p>
            </div>
          )}
          {fileInput}
        </div>
      </div>

      {notesVisible && !showingTake && !mediaProblem && (
        <div className="pb-4">
          <TeleprompterPanel
            id={notesPanelId}
            notes={notes}
            fontSize={notesFontSize}
            onNotesChange={props.onNotesChange}
            onFontSizeChange={props.onNotesFontSizeChange}
          />
        </div>
      )}
    </div>
  );
}

interface SideButtonProps {
  onClick: () => void;
  icon: ReactNode;
  label: string;
  pressed?: boolean;
  disabled?: boolean;
  'aria-expanded'?: boolean;
  'aria-controls'?: string;
  'data-testid'?: string;
}

/**
 * A secondary action beside the record button: a round outlined icon with its label under it, the
 * whole of it one button (the notes, a video from the device).
 */
function SideButton({ onClick, icon, label, pressed = false, disabled = false, ...rest }: SideButtonProps) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      className="group flex w-full max-w-32 flex-col items-center gap-1.5 rounded-control px-1 py-1 text-center disabled:cursor-not-allowed disabled:opacity-50 sm:max-w-44"
      {...rest}
    >
      <span
        className={cn(
          'flex size-12 items-center justify-center rounded-full border bg-white transition-colors',
          pressed ? 'border-brand-600 bg-brand-50 text-brand-800' : 'border-gray-300 text-gray-700 group-hover:border-gray-400 group-hover:bg-gray-50',
        )}
        aria-hidden="true"
      >
        {icon}
      </span>
      <span className="text-sm leading-tight font-medium text-gray-900">{label}</span>
    </button>
  );
}

interface RoundButtonProps {
  onClick: () => void;
  label: string;
  testId: string;
  /** Shown and focusable but not pressable (aria-disabled: a disabled button would lose focus). */
  inactive?: boolean;
  children: ReactNode;
  ref?: Ref<HTMLButtonElement>;
}

/** The big round button at thumb height, with its label under it. */
function RoundButton({ onClick, label, testId, inactive = false, children, ref }: RoundButtonProps) {
  return (
    <>
      <button
        ref={ref}
        type="button"
        onClick={() => {
          if (!inactive) onClick();
        }}
        aria-disabled={inactive || undefined}
        aria-label={label}
        data-testid={testId}
        className="group flex size-[4.5rem] items-center justify-center rounded-full border-4 border-gray-300 bg-white shadow-overlay transition-[border-color,transform] hover:border-gray-400 active:scale-95 aria-disabled:cursor-not-allowed aria-disabled:opacity-60 sm:size-20 motion-reduce:active:scale-100"
      >
        {children}
      </button>
      <span className="text-sm font-medium text-gray-900" aria-hidden="true">
        {label}
      </span>
    </>
  );
}

/** One segment per question: saved (green, ticked), current (brand), to do (grey). */
function AnswerSegments({ answered, current, label }: { answered: boolean[]; current: number; label: string }) {
  return (
    <div className="flex items-center gap-1.5" role="img" aria-label={label} data-testid="saved-answers" data-count={answered.filter(Boolean).length}>
      {answered.map((done, i) => (
        <span
          key={i}
          className={cn(
            'h-2 w-6 rounded-full sm:w-8',
            done ? 'bg-completed-500' : i === current ? 'bg-brand-600' : 'bg-gray-200',
            i === current && done && 'ring-2 ring-brand-600 ring-offset-1',
          )}
        />
      ))}
    </div>
  );
}

function RetakeIcon() {
  return (
    <svg viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth={1.75} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d="M4 12a8 8 0 1 0 2.34-5.66L4 8.5" />
      <path d="M4 4v4.5h4.5" />
    </svg>
  );
}

function NotesIcon() {
  return (
    <svg viewBox="0 0 24 24" className="size-5 shrink-0" fill="none" stroke="currentColor" strokeWidth={1.75} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d="M5 4h14v16H5z" />
      <path d="M8.5 8.5h7M8.5 12h7M8.5 15.5h4" />
    </svg>
  );
}
