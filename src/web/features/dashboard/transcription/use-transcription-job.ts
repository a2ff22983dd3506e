import { useCallback, useEffect, useReducer, useState } from 'react';
import { parseMergedTranscriptions } from '../../../../contract/api/transcription.schema.js';
import type {
  TResponseTranscriptions,
  TTranscribeMergedResponse,
  TTranscriptionJobStatus,
  TTranscriptionJobStatusResponse,
} from '../../../../contract/api/transcription.schema.js';
import { startMergedTranscription } from '../api/transcribe-merged';
import { getTranscriptionJobStatus } from '../api/transcription-job-status';

/**
 * The merged transcription job (spec §4): start it, then check its status every 3 s until it is done
 * or failed. Other statuses keep the polling going. After more than 5 consecutive failed checks the
 * job is given up with the timeout message. On done, merged_url (a JSON string of the per-answer
 * transcriptions) is parsed with the contract's schema.
 *
 * The state machine (`transcriptionJobReducer`) and the driver (`runTranscriptionJob`) are plain
 * functions with injected calls and timers, so they are tested with fake timers; the hook only wires
 * them to React and to the API.
 */

export const POLL_INTERVAL_MS = 3000;
/** Spec §4: the job is aborted after MORE than this many consecutive failed status checks. */
export const MAX_CONSECUTIVE_FAILURES = 5;
/** A status check that hangs this long counts as a failed check. */
export const CHECK_TIMEOUT_MS = 15_000;

/** Why the job ended without transcriptions; each maps to a message of spec §8. */
export type TranscriptionJobFailure = 'start' | 'error' | 'timeout';

export type TranscriptionJobState =
  | { phase: 'idle' }
  | { phase: 'starting' }
  | {
      phase: 'polling';
      jobId: string;
      /** The last status the server gave ('queued', 'processing'…), null before the first answer. */
      status: TTranscriptionJobStatus | null;
      /** Consecutive failed checks since the last good one. */
      failures: number;
    }
  | { phase: 'done'; jobId: string; transcriptions: TResponseTranscriptions }
  | { phase: 'failed'; reason: TranscriptionJobFailure; detail: string | null };

export type TranscriptionJobEvent =
  | { type: 'start' }
  | { type: 'started'; jobId: string }
  | { type: 'startFailed'; detail?: string | null }
  | { type: 'status'; response: TTranscriptionJobStatusResponse }
  | { type: 'checkFailed' }
  | { type: 'reset' };

export const initialTranscriptionJobState: TranscriptionJobState = { phase: 'idle' };

export function transcriptionJobReducer(state: TranscriptionJobState, event: TranscriptionJobEvent): TranscriptionJobState {
  switch (event.type) {
    case 'reset':
      return initialTranscriptionJobState;
    case 'start':
      return { phase: 'starting' };
    case 'started':
      return state.phase === 'starting' ? { phase: 'polling', jobId: event.jobId, status: null, failures: 0 } : state;
    case 'startFailed':
      return state.phase === 'starting' ? { phase: 'failed', reason: 'start', detail: event.detail ?? null } : state;
    case 'checkFailed': {
      if (state.phase !== 'polling') return state;
      const failures = state.failures + 1;
      return failures > MAX_CONSECUTIVE_FAILURES
        ? { phase: 'failed', reason: 'timeout', detail: null }
        : { ...state, failures };
    }
    case 'status': {
      if (state.phase !== 'polling') return state;
      const { status, merged_url: mergedUrl, error } = event.response;
      if (status === 'error') return { phase: 'failed', reason: 'error', detail: error ?? null };
      if (status !== 'done') return { ...state, status, failures: 0 };
      if (mergedUrl === null) return { phase: 'failed', reason: 'error', detail: 'The finished job returned no transcriptions.' };
      try {
        const transcriptions = [...parseMergedTranscriptions(mergedUrl)].sort((a, b) => a.orderPosition - b.orderPosition);
        return { phase: 'done', jobId: state.jobId, transcriptions };
      } catch {
        return { phase: 'failed', reason: 'error', detail: 'The transcriptions could not be read.' };
      }
    }
  }
}

/** True while the job runs (no result and no failure yet). */
export function isTranscriptionJobRunning(state: TranscriptionJobState): boolean {
  return state.phase === 'starting' || state.phase === 'polling';
}

export interface Timers {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

const globalTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

export interface RunTranscriptionJobOptions {
  start: (signal: AbortSignal) => Promise<TTranscribeMergedResponse>;
  check: (jobId: string, signal: AbortSignal) => Promise<TTranscriptionJobStatusResponse>;
  dispatch: (event: TranscriptionJobEvent) => void;
  /** Told about each failed call (start or check), for logging. */
  onCallError?: (error: unknown, call: 'start' | 'check') => void;
  timers?: Timers;
}

/**
 * Starts the job and polls it: one check 3 s after the job is started and 3 s after each answered
 * check (never two checks in flight). The state is kept here too, by the same reducer, to decide
 * whether to go on. Returns a function that stops everything (in-flight calls are aborted and their
 * outcome ignored).
 */
export function runTranscriptionJob({ start, check, dispatch, onCallError, timers = globalTimers }: RunTranscriptionJobOptions): () => void {
  const controller = new AbortController();
  let state: TranscriptionJobState = initialTranscriptionJobState;
  let pending: unknown = null;
  const send = (event: TranscriptionJobEvent) => {
    if (controller.signal.aborted) return;
    state = transcriptionJobReducer(state, event);
    dispatch(event);
  };

  const poll = async (jobId: string) => {
    pending = null;
    const attempt = new AbortController();
    const abortAttempt = () => attempt.abort();
    controller.signal.addEventListener('abort', abortAttempt);
    const deadline = timers.setTimeout(abortAttempt, CHECK_TIMEOUT_MS);
    try {
      send({ type: 'status', response: await check(jobId, attempt.signal) });
    } catch (error) {
      if (controller.signal.aborted) return;
      onCallError?.(error, 'check');
      send({ type: 'checkFailed' });
    } finally {
      timers.clearTimeout(deadline);
      controller.signal.removeEventListener('abort', abortAttempt);
    }
    schedule(jobId);
  };

  const schedule = (jobId: string) => {
    if (controller.signal.aborted || state.phase !== 'polling') return;
    pending = timers.setTimeout(() => void poll(jobId), POLL_INTERVAL_MS);
  };

  send({ type: 'start' });
  start(controller.signal).then(
    ({ jobId }) => {
      send({ type: 'started', jobId });
      schedule(jobId);
    },
    (error: unknown) => {
      if (controller.signal.aborted) return;
      onCallError?.(error, 'start');
      send({ type: 'startFailed', detail: null });
    },
  );

  return () => {
    controller.abort();
    if (pending !== null) timers.clearTimeout(pending);
    pending = null;
  };
}

/**
 * Runs the merged transcription of a testimonial while `enabled` (the review is open): started when
 * enabled, stopped and forgotten when disabled. `retry` starts a new job.
 */
export function useTranscriptionJob(testimonialId: string, enabled: boolean) {
  const [state, dispatch] = useReducer(transcriptionJobReducer, initialTranscriptionJobState);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!enabled || !testimonialId) return undefined;
    const stop = runTranscriptionJob({
      start: (signal) => startMergedTranscription(testimonialId, signal),
      check: (jobId, signal) => getTranscriptionJobStatus(jobId, signal),
      dispatch,
      onCallError: (error, call) => {
        if (call === 'start') console.error('Starting the merged transcription failed.', error);
        else console.warn('A transcription status check failed; checking again in 3 s.', error);
      },
    });
    return () => {
      stop();
      dispatch({ type: 'reset' });
    };
  }, [enabled, testimonialId, attempt]);

  useEffect(() => {
    if (state.phase === 'failed' && state.reason !== 'start') {
      console.error(`The merged transcription ended with ${state.reason === 'timeout' ? 'a timeout' : 'an error'}.`, state.detail ?? '');
    }
  }, [state]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, retry };
}
