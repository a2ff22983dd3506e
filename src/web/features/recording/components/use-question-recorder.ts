import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { RefObject } from 'react';
import { chosenFileType, inspectChosenFile } from '../chosen-file';
import { pickMimeType, RECORDER_BITRATES } from '../media-support';
import { aspectOf } from './media-views';
import {
  COUNTDOWN_SECONDS,
  hasUnsavedTake,
  initialRecorderState,
  MAX_MS,
  MIN_MS,
  recorderReducer,
  type Take,
  type TRecorderState,
} from './question-recorder-state';

/** Phones hand the camera to the camera app while the picker is open: the page lets go of it then. */
function releasesCameraForPicker(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches;
}

export interface QuestionRecorderOptions {
  stream: MediaStream | null;
  existing: Take | null;
  /** Stores the answer; the page then moves on. Rejects if the answer could not be kept at all. */
  onAccept: (take: Take) => Promise<void>;
  /** The file picker opens (true) or closes (false). */
  onPickingFile?: ((picking: boolean) => void) | undefined;
}

export interface QuestionRecorder {
  state: TRecorderState;
  /** The round button's element (the focus comes back to it), the recorder's root and the file input. */
  recordButtonRef: RefObject<HTMLButtonElement | null>;
  rootRef: RefObject<HTMLDivElement | null>;
  fileInputRef: RefObject<HTMLInputElement | null>;
  startCountdown(): void;
  cancelCountdown(): void;
  stopRecording(): void;
  retake(): void;
  openPicker(): void;
  onFileChosen(file: File | undefined): Promise<void>;
  accept(): Promise<void>;
}

/**
 * One question's recorder (the phase machine of `question-recorder-state.ts`) and what drives it: the
 * MediaRecorder, the countdown and limit timers, the file picker, the leave-page warning. The
 * component only draws its state.
 */
export function useQuestionRecorder({ stream, existing, onAccept, onPickingFile }: QuestionRecorderOptions): QuestionRecorder {
  const [state, dispatch] = useReducer(recorderReducer, existing, initialRecorderState);
  const recordButtonRef = useRef<HTMLButtonElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const fileInputRef = useRef<HTMLInputElement>(null);
  const pickingRef = useRef(false);
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
  const focusAccept = () =>
    requestAnimationFrame(() => rootRef.current?.querySelector<HTMLButtonElement>('[data-testid="accept"]')?.focus({ preventScroll: true }));
  const focusRecord = () => requestAnimationFrame(() => recordButtonRef.current?.focus());

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
  const unsaved = hasUnsavedTake(state, existing);
  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  const stopRecording = () => {
    clearTimers();
    const recorder = recorderRef.current;
    if (!recorder || recorder.state === 'inactive') return;
    dispatch({ type: 'stopping' });
    recorder.stop();
  };

  const beginRecording = () => {
    if (!stream) {
      dispatch({ type: 'noStream' });
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
        dispatch({ type: 'takeRefused', error: 'recorder' });
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
      dispatch({ type: 'takeRefused', error: 'recorder' });
    };
    recorder.onstop = () => {
      recorderRef.current = null;
      if (discardRef.current) return;
      const durationMs = Math.min(MAX_MS, performance.now() - startedAtRef.current);
      const mimeType = recorder.mimeType || preferred || 'video/webm';
      const blob = new Blob(chunks, { type: mimeType });
      if (blob.size === 0 || durationMs < MIN_MS) {
        dispatch({ type: 'takeRefused', error: blob.size === 0 ? 'recorder' : 'tooShort' });
        return;
      }
      dispatch({ type: 'recorded', take: { blob, mimeType, durationMs, source: 'camera' }, hitLimit: hitLimitRef.current });
      focusAccept();
    };
    recorderRef.current = recorder;
    recorder.start(1000);
    startedAtRef.current = performance.now();
    dispatch({ type: 'recordingStarted' });
    // Screen readers hear the time left at 10 and 5 seconds, not every second.
    const announce = new Set([10, 5]);
    timersRef.current.push(
      setInterval(() => {
        const elapsed = Math.min(MAX_MS, performance.now() - startedAtRef.current);
        const left = Math.ceil((MAX_MS - elapsed) / 1000);
        const say = announce.delete(left);
        dispatch(say ? { type: 'tick', elapsedMs: elapsed, announce: left } : { type: 'tick', elapsedMs: elapsed });
      }, 200),
      setTimeout(() => {
        hitLimitRef.current = true;
        dispatch({ type: 'limitReached' });
        stopRecording();
      }, MAX_MS),
    );
  };

  const startCountdown = () => {
    if (!stream) return;
    // The notes may have been scrolled to: the question, the camera and Stop come back into view.
    if (window.scrollY > 0) window.scrollTo({ top: 0 });
    dispatch({ type: 'countdownStarted' });
    let remaining = COUNTDOWN_SECONDS;
    const id = setInterval(() => {
      remaining -= 1;
      if (remaining <= 0) {
        clearTimers();
        beginRecording();
      } else {
        dispatch({ type: 'countdownTick', remaining });
      }
    }, 1000);
    timersRef.current.push(id);
  };

  const cancelCountdown = () => {
    clearTimers();
    dispatch({ type: 'countdownCancelled' });
    focusRecord();
  };

  const retake = () => {
    dispatch({ type: 'retake' });
    focusRecord();
  };

  /* ------------------------------------------------------------ a video from the device */

  const onPickingRef = useRef(onPickingFile);
  useEffect(() => {
    onPickingRef.current = onPickingFile;
  });
  const setPicking = useCallback((picking: boolean) => {
    if (pickingRef.current === picking) return;
    pickingRef.current = picking;
    onPickingRef.current?.(picking);
  }, []);

  // The picker closes without a choice ('cancel'), or the page gets the focus back (browsers without
  // that event): the camera is taken again. A choice goes through onFileChosen.
  useEffect(() => {
    const input = fileInputRef.current;
    if (!input) return;
    const closed = () => setPicking(false);
    const refocused = () => setTimeout(() => setPicking(false), 800);
    input.addEventListener('cancel', closed);
    window.addEventListener('focus', refocused);
    return () => {
      input.removeEventListener('cancel', closed);
      window.removeEventListener('focus', refocused);
      setPicking(false);
    };
  }, [setPicking]);

  const openPicker = () => {
    if (state.phase !== 'idle' && state.phase !== 'preview') return;
    if (releasesCameraForPicker()) setPicking(true);
    fileInputRef.current?.click();
  };

  const onFileChosen = async (file: File | undefined) => {
    setPicking(false);
    if (!file) return;
    dispatch({ type: 'fileChecking' });
    const { problem, info } = await inspectChosenFile(file);
    if (problem) {
      dispatch({ type: 'fileRefused', problem, durationSeconds: info?.durationSeconds ?? null });
      return;
    }
    dispatch({
      type: 'fileChosen',
      take: {
        blob: file,
        mimeType: chosenFileType(file),
        durationMs: info?.durationSeconds ? Math.round(info.durationSeconds * 1000) : 0,
        source: 'file',
        aspect: aspectOf(info?.width, info?.height),
      },
    });
    focusAccept();
  };

  const accept = async () => {
    const take = state.take;
    if (!take) return;
    dispatch({ type: 'saving' });
    try {
      await onAccept(take);
      dispatch({ type: 'saved' });
    } catch {
      dispatch({ type: 'saveFailed' });
    }
  };

  return { state, recordButtonRef, rootRef, fileInputRef, startCountdown, cancelCountdown, stopRecording, retake, openPicker, onFileChosen, accept };
}
