import { RECORDING } from '../../../../contract/constants.js';
import type { TChosenFileProblem } from '../chosen-file';

export const MAX_MS = RECORDING.maxSeconds * 1000;
export const COUNTDOWN_SECONDS = RECORDING.countdownSeconds;
/** Shorter takes are refused (the server needs a real video, and a stray tap is not an answer). */
export const MIN_MS = 1000;

/** One answer, recorded on the page or chosen from the device, before or after it is accepted. */
export interface Take {
  blob: Blob;
  mimeType: string;
  /** 0 when a chosen file's duration could not be read (the server reads it from the packets). */
  durationMs: number;
  /** Recorded here, or a video chosen from the device (absent: recorded). */
  source?: 'camera' | 'file';
  /** The picture's aspect (width / height) when known: the preview box takes it. */
  aspect?: number | null;
}

/**
 * The state machine of one question:
 *   idle ─record→ countdown (3 s) ─→ recording (≤ 20 s, stops itself) ─stop→ finishing ─→ preview
 *   idle ─choose a video→ checking ─→ preview, or idle with the reason it was refused
 *   countdown ─cancel→ idle · preview ─retake→ idle · preview ─accept→ saving ─→ (next question)
 * A question answered before (the customer came back to it) opens in preview with that answer.
 */
export type TQuestionPhase = 'idle' | 'countdown' | 'recording' | 'finishing' | 'checking' | 'preview' | 'saving';

/** What went wrong with the last take, as data: the component says it in the customer's language. */
export type TTakeError =
  | { kind: 'recorder' | 'tooShort' | 'storage' }
  | { kind: 'file'; problem: TChosenFileProblem; durationSeconds: number | null };

/** What the screen reader hears (the polite live region), as data. */
export type TRecorderStatus =
  | { kind: 'recording' | 'stopped' | 'stoppedAtLimit' | 'saved' | 'checking' | 'chosen' }
  | { kind: 'countdown' | 'remaining'; seconds: number };

export interface TRecorderState {
  phase: TQuestionPhase;
  take: Take | null;
  /** The countdown's number. */
  count: number;
  elapsedMs: number;
  error: TTakeError | null;
  status: TRecorderStatus | null;
}

export type TRecorderAction =
  | { type: 'countdownStarted' }
  | { type: 'countdownTick'; remaining: number }
  | { type: 'countdownCancelled' }
  /** No camera when the countdown ended. */
  | { type: 'noStream' }
  | { type: 'recordingStarted' }
  /** The recorder's clock: the time recorded, and the seconds left when they are to be said. */
  | { type: 'tick'; elapsedMs: number; announce?: number }
  | { type: 'limitReached' }
  | { type: 'stopping' }
  | { type: 'recorded'; take: Take; hitLimit: boolean }
  /** The recorder failed, or the take was empty or too short. */
  | { type: 'takeRefused'; error: 'recorder' | 'tooShort' }
  | { type: 'retake' }
  | { type: 'fileChecking' }
  | { type: 'fileRefused'; problem: TChosenFileProblem; durationSeconds: number | null }
  | { type: 'fileChosen'; take: Take }
  | { type: 'saving' }
  | { type: 'saved' }
  | { type: 'saveFailed' };

export function initialRecorderState(existing: Take | null): TRecorderState {
  return { phase: existing ? 'preview' : 'idle', take: existing, count: COUNTDOWN_SECONDS, elapsedMs: 0, error: null, status: null };
}

/** The transitions of one question's recorder: pure, so that each one is tested without a camera. */
export function recorderReducer(state: TRecorderState, action: TRecorderAction): TRecorderState {
  switch (action.type) {
    case 'countdownStarted':
      return { ...state, phase: 'countdown', error: null, count: COUNTDOWN_SECONDS, status: { kind: 'countdown', seconds: COUNTDOWN_SECONDS } };
    case 'countdownTick':
      return state.phase === 'countdown' ? { ...state, count: action.remaining, status: { kind: 'countdown', seconds: action.remaining } } : state;
    case 'countdownCancelled':
    case 'noStream':
      return { ...state, phase: 'idle' };
    case 'recordingStarted':
      return { ...state, phase: 'recording', elapsedMs: 0, status: { kind: 'recording' } };
    case 'tick':
      return {
        ...state,
        elapsedMs: action.elapsedMs,
        status: action.announce === undefined ? state.status : { kind: 'remaining', seconds: action.announce },
      };
    case 'limitReached':
      return { ...state, elapsedMs: MAX_MS };
    case 'stopping':
      return state.phase === 'recording' ? { ...state, phase: 'finishing' } : state;
    case 'recorded':
      return { ...state, phase: 'preview', take: action.take, status: { kind: action.hitLimit ? 'stoppedAtLimit' : 'stopped' } };
    case 'takeRefused':
      return { ...state, phase: 'idle', error: { kind: action.error } };
    case 'retake':
      return { ...state, phase: 'idle', take: null, error: null, status: null };
    case 'fileChecking':
      return { ...state, phase: 'checking', error: null, status: { kind: 'checking' } };
    case 'fileRefused':
      return {
        ...state,
        phase: state.take ? 'preview' : 'idle',
        error: { kind: 'file', problem: action.problem, durationSeconds: action.durationSeconds },
        status: null,
      };
    case 'fileChosen':
      return { ...state, phase: 'preview', take: action.take, status: { kind: 'chosen' } };
    case 'saving':
      return state.take ? { ...state, phase: 'saving' } : state;
    case 'saved':
      return { ...state, status: { kind: 'saved' } };
    case 'saveFailed':
      return { ...state, phase: 'preview', error: { kind: 'storage' } };
  }
}

/** A take not yet accepted, or a recording under way: the page asks before it is left. */
export function hasUnsavedTake(state: TRecorderState, existing: Take | null): boolean {
  const { phase, take } = state;
  return (
    phase === 'countdown' ||
    phase === 'recording' ||
    phase === 'finishing' ||
    phase === 'checking' ||
    ((phase === 'preview' || phase === 'saving') && take?.blob !== existing?.blob)
  );
}
