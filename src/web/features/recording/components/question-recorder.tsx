import { useEffect, useRef, useState } from 'react';
import type { ReactNode, Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { TPublicQuestion } from '../../../../contract/api/public.schema.js';
import { RECORDING } from '../../../../contract/constants.js';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { ArrowRightIcon, CheckIcon } from '../../../components/icons';
import { Spinner } from '../../../components/spinner';
import { cn } from '../../../lib/cn';
import { formatDuration } from '../../../lib/format';
import { formatSeconds, pickMimeType, RECORDER_BITRATES, textColorOn } from '../media-support';
import type { MediaDevicesState } from '../use-media-stream';
import { CameraBox, DeviceProblem, LiveVideo, TakeVideo } from './media-views';
import { MicLevelMeter } from './mic-level-meter';
import { TeleprompterOverlay, TeleprompterPanel } from './teleprompter';
import { useFocusOnMount } from './use-focus-on-mount';

const MAX_MS = RECORDING.maxSeconds * 1000;
const COUNTDOWN_SECONDS = RECORDING.countdownSeconds;
/** Shorter takes are refused (the server needs a real video, and a stray tap is not an answer). */
const MIN_MS = 1000;

/** One recorded answer, before or after it is accepted. */
export interface Take {
  blob: Blob;
  mimeType: string;
  durationMs: number;
}

/**
 * The state machine of one question:
 *   idle ─record→ countdown (3 s) ─→ recording (≤ 20 s, stops itself) ─stop→ finishing ─→ preview
 *   countdown ─cancel→ idle · preview ─retake→ idle · preview ─accept→ saving ─→ (next question)
 * A question answered before (the customer came back to it) opens in preview with that answer.
 */
export type TQuestionPhase = 'idle' | 'countdown' | 'recording' | 'finishing' | 'preview' | 'saving';

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
  /** Messages above the question (resumed session, storage warnings). */
  banner?: ReactNode;
}

export function QuestionRecorder(props: QuestionRecorderProps) {
  const { question, index, total, answered, bgColor, media, existing, notes, notesVisible, notesFontSize } = props;
  const { t } = useTranslation();
  const [phase, setPhase] = useState<TQuestionPhase>(existing ? 'preview' : 'idle');
  const [take, setTake] = useState<Take | null>(existing);
  const [count, setCount] = useState<number>(COUNTDOWN_SECONDS);
  const [elapsedMs, setElapsedMs] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  /** The camera picture's aspect: the preview box takes it, so the preview is the frame that is recorded. */
  const [cameraAspect, setCameraAspect] = useState<number | null>(null);
  const headingRef = useFocusOnMount<HTMLHeadingElement>();
  const recordButtonRef = useRef<HTMLButtonElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);

  const recorderRef = useRef<MediaRecorder | null>(null);
  const timersRef = useRef<Array<ReturnType<typeof setTimeout>>>([]);
  const startedAtRef = useRef(0);
  const discardRef = useRef(false);
  const hitLimitRef = useRef(false);

  const clearTimers = () => {
    timersRef.current.forEach((id) => {
      clearTimeout(id);
      clearInterval(id);
    });
    timersRef.current = [];
  };

  // Leaving the question (or the page) mid-recording: stop quietly, keep nothing half-made.
  useEffect(
    () => () => {
      clearTimers();
      discardRef.current = true;
      const recorder = recorderRef.current;
      if (recorder && recorder.state !== 'inactive') recorder.stop();
    },
    [],
  );

  // A take not yet accepted, or a recording under way: ask before the page is left.
  const unsaved = phase === 'countdown' || phase === 'recording' || phase === 'finishing' || ((phase === 'preview' || phase === 'saving') && take?.blob !== existing?.blob);
  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  const stream = media.status === 'ready' ? media.stream : null;

  const stopRecording = () => {
    clearTimers();
    const recorder = recorderRef.current;
    if (!recorder || recorder.state === 'inactive') return;
    setPhase('finishing');
    recorder.stop();
  };

  const beginRecording = () => {
    if (!stream) {
      setPhase('idle');
      return;
    }
    const preferred = pickMimeType((type) => MediaRecorder.isTypeSupported(type));
    let recorder: MediaRecorder;
    try {
      recorder = new MediaRecorder(stream, { ...(preferred ? { mimeType: preferred } : {}), ...RECORDER_BITRATES });
    } catch {
      try {
        recorder = new MediaRecorder(stream);
      } catch {
        setError(t('recording.question.recorderError'));
        setPhase('idle');
        return;
      }
    }
    const chunks: Blob[] = [];
    discardRef.current = false;
    hitLimitRef.current = false;
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    };
    recorder.onerror = () => {
      clearTimers();
      discardRef.current = true;
      if (recorder.state !== 'inactive') recorder.stop();
      setError(t('recording.question.recorderError'));
      setPhase('idle');
    };
    recorder.onstop = () => {
      recorderRef.current = null;
      if (discardRef.current) return;
      const durationMs = Math.min(MAX_MS, performance.now() - startedAtRef.current);
      const mimeType = recorder.mimeType || preferred || 'video/webm';
      const blob = new Blob(chunks, { type: mimeType });
      if (blob.size === 0 || durationMs < MIN_MS) {
        setError(t(blob.size === 0 ? 'recording.question.recorderError' : 'recording.question.tooShort'));
        setPhase('idle');
        return;
      }
      setTake({ blob, mimeType, durationMs });
      setPhase('preview');
      setStatus(hitLimitRef.current ? t('recording.question.stoppedAtLimit') : t('recording.question.statusStopped'));
      requestAnimationFrame(() => rootRef.current?.querySelector<HTMLButtonElement>('[data-testid="accept"]')?.focus({ preventScroll: true }));
    };
    recorderRef.current = recorder;
    recorder.start(1000);
    startedAtRef.current = performance.now();
    setElapsedMs(0);
    setPhase('recording');
    setStatus(t('recording.question.statusRecording'));
    // Screen readers hear the time left at 10 and 5 seconds, not every second.
    const announce = new Set([10, 5]);
    timersRef.current.push(
      setInterval(() => {
        const elapsed = Math.min(MAX_MS, performance.now() - startedAtRef.current);
        setElapsedMs(elapsed);
        const left = Math.ceil((MAX_MS - elapsed) / 1000);
        if (announce.has(left)) {
          announce.delete(left);
          setStatus(`${t('recording.question.remaining')}: ${formatSeconds(left)}`);
        }
      }, 200),
      setTimeout(() => {
        hitLimitRef.current = true;
        setElapsedMs(MAX_MS);
        stopRecording();
      }, MAX_MS),
    );
  };

  const startCountdown = () => {
    if (!stream) return;
    setError(null);
    setCount(COUNTDOWN_SECONDS);
    setPhase('countdown');
    setStatus(t('recording.question.countdown', { seconds: COUNTDOWN_SECONDS }));
    let remaining = COUNTDOWN_SECONDS;
    const id = setInterval(() => {
      remaining -= 1;
      if (remaining <= 0) {
        clearTimers();
        beginRecording();
      } else {
        setCount(remaining);
        setStatus(t('recording.question.countdown', { seconds: remaining }));
      }
    }, 1000);
    timersRef.current.push(id);
  };

  const cancelCountdown = () => {
    clearTimers();
    setPhase('idle');
    requestAnimationFrame(() => recordButtonRef.current?.focus());
  };

  const retake = () => {
    setTake(null);
    setError(null);
    setPhase('idle');
    setStatus('');
    requestAnimationFrame(() => recordButtonRef.current?.focus());
  };

  const accept = async () => {
    if (!take) return;
    setPhase('saving');
    try {
      await props.onAccept(take);
      setStatus(t('recording.question.statusSaved'));
    } catch {
      setError(t('recording.storageFailed'));
      setPhase('preview');
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
                <Spinner className="size-8 text-gray-700" />
              ) : (
                <span className="size-8 rounded-md bg-error-600 sm:size-9" />
              ),
          }
        : {
            onClick: startCountdown,
            inactive: !stream,
            label: t('recording.question.record'),
            testId: 'record',
            children: <span className="size-12 rounded-full bg-error-600 transition-colors group-hover:bg-error-700 sm:size-14" />,
          };

  const isLast = index === total - 1;
  const remainingMs = MAX_MS - elapsedMs;
  const textTone = textColorOn(bgColor);
  const showingTake = (phase === 'preview' || phase === 'saving') && take;
  const mediaProblem = media.status === 'error' && media.problem && !showingTake ? media.problem : null;
  const notesPanelId = `notes-${question.id}`;

  return (
    <div ref={rootRef} className="mx-auto w-full max-w-3xl px-4 pt-4 sm:px-6 sm:pt-6" data-testid="question" data-question-id={question.id} data-phase={phase}>
      {props.banner}
      <div className="flex items-center justify-between gap-3">
        <p className="text-sm font-semibold text-gray-900 sm:text-base" data-testid="question-counter" aria-live="polite">
          {t('recording.question.counter', { current: index + 1, total })}
        </p>
        <AnswerSegments answered={answered} current={index} label={t('recording.question.saved', { saved: answered.filter(Boolean).length, total })} />
      </div>

      <section
        className="mt-3 rounded-card px-5 py-5 sm:px-8 sm:py-7"
        style={{ backgroundColor: bgColor }}
        data-testid="question-panel"
      >
        <h1
          ref={headingRef}
          tabIndex={-1}
          className={cn(
            'text-xl leading-snug font-semibold tracking-tight outline-none sm:text-2xl',
            textTone === 'light' ? 'text-white' : 'text-gray-950',
          )}
        >
          {question.text}
        </h1>
      </section>

      {mediaProblem ? (
        <DeviceProblem problem={mediaProblem} onRetry={media.retry} className="mt-3" />
      ) : (
        <CameraBox aspect={cameraAspect} className="mt-3 [--camera-max-h:56dvh] sm:[--camera-max-h:50dvh]" data-testid="camera-box">
          {showingTake ? (
            <TakeVideo blob={take.blob} label={t('recording.question.previewLabel')} />
          ) : (
            <LiveVideo stream={stream} label={t('recording.question.cameraLabel')} onAspect={setCameraAspect} />
          )}
          {!showingTake && !stream && (
            <div className="absolute inset-0 flex items-center justify-center text-gray-200" role="status">
              <Spinner className="size-8" />
              <span className="sr-only">{t('recording.devices.starting')}</span>
            </div>
          )}
          {!showingTake && notesVisible && <TeleprompterOverlay notes={notes} fontSize={notesFontSize} />}

          {phase === 'countdown' && (
            <div className="absolute inset-0 flex flex-col items-center justify-center bg-gray-950/45 text-white" data-testid="countdown">
              <span key={count} className="animate-fade-in text-[7rem] leading-none font-bold tabular-nums drop-shadow-lg sm:text-[9rem]" aria-hidden="true">
                {count}
              </span>
            </div>
          )}

          {(phase === 'recording' || phase === 'finishing') && (
            <>
              <div className="absolute bottom-4 left-3 flex items-center gap-2 rounded-full bg-gray-950/70 px-3 py-1.5 text-sm font-semibold text-white sm:left-4" data-testid="recording-indicator">
                <span className="size-3 rounded-full bg-error-500 animate-pulse motion-reduce:animate-none" aria-hidden="true" />
                {t('recording.question.recording')}
              </div>
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
      )}

      <p className="sr-only" role="status" aria-live="polite">
        {status}
      </p>
      {error && (
        <Alert tone="error" className="mt-3">
          {error}
        </Alert>
      )}

      {showingTake ? (
        <div className="mt-4">
          <p className="text-center text-base font-semibold text-gray-900">
            {t('recording.question.previewTitle', { duration: formatDuration(take.durationMs / 1000) })}
          </p>
          <p className="mt-1 text-center text-sm text-gray-600">{t('recording.question.previewHint')}</p>
          <div className="mt-4 flex flex-col-reverse gap-3 sm:flex-row sm:justify-center">
            <Button variant="secondary" size="lg" onClick={retake} disabled={phase === 'saving'} data-testid="retake" leadingIcon={<RetakeIcon />}>
              {t('recording.question.retake')}
            </Button>
            <Button
              size="lg"
              onClick={() => void accept()}
              loading={phase === 'saving'}
              data-testid="accept"
              trailingIcon={isLast ? <CheckIcon className="size-5" /> : <ArrowRightIcon className="size-5" />}
            >
              {isLast ? t('recording.question.complete') : t('recording.question.saveNext')}
            </Button>
          </div>
        </div>
      ) : (
        <div className="mt-4 grid grid-cols-[minmax(0,1fr)_auto_minmax(0,1fr)] items-start gap-2">
          <div className="flex min-w-0 justify-start pt-5">
            <Button
              variant="ghost"
              size="sm"
              className="min-w-0 text-left whitespace-normal!"
              onClick={() => props.onNotesVisibleChange(!notesVisible)}
              aria-expanded={notesVisible}
              aria-controls={notesPanelId}
              data-testid="notes-toggle"
              leadingIcon={<NotesIcon />}
            >
              {notesVisible ? t('recording.notes.hide') : t('recording.notes.show')}
            </Button>
          </div>
          <div className="flex max-w-36 flex-col items-center gap-2 text-center sm:max-w-none">
            <RoundButton ref={recordButtonRef} {...roundButton} />
          </div>
          <div className="flex min-w-0 justify-end pt-6">{stream && phase !== 'countdown' && <MicLevelMeter stream={stream} compact />}</div>
          <p className="col-span-3 text-center text-sm text-gray-500">{t('recording.question.maxNote')}</p>
        </div>
      )}

      {notesVisible && !showingTake && (
        <div className="mt-5">
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
        className="group flex size-20 items-center justify-center rounded-full border-4 border-gray-300 bg-white shadow-overlay transition-[border-color,transform] hover:border-gray-400 active:scale-95 aria-disabled:cursor-not-allowed aria-disabled:opacity-60 sm:size-[5.5rem] motion-reduce:active:scale-100"
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
    <svg viewBox="0 0 24 24" className="size-4 shrink-0" fill="none" stroke="currentColor" strokeWidth={1.75} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d="M5 4h14v16H5z" />
      <path d="M8.5 8.5h7M8.5 12h7M8.5 15.5h4" />
    </svg>
  );
}
