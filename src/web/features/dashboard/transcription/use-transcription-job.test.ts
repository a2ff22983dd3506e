import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  TResponseTranscriptions,
  TTranscriptionJobStatusResponse,
} from '../../../../contract/api/transcription.schema.js';
import {
  CHECK_TIMEOUT_MS,
  initialTranscriptionJobState,
  MAX_CONSECUTIVE_FAILURES,
  POLL_INTERVAL_MS,
  runTranscriptionJob,
  transcriptionJobReducer,
  type TranscriptionJobEvent,
  type TranscriptionJobState,
} from './use-transcription-job';

const JOB = '0b7f3f52-8d1e-4c1a-9a55-1d2f3e4a5b6c';
const R1 = '7b0c1c3e-4a57-4c1e-9d8e-2f1a6b7c8d90';
const R2 = '1e2d3c4b-5a69-4877-8a9b-0c1d2e3f4a5b';

const RESULT: TResponseTranscriptions = [
  { responseId: R2, questionText: 'Would you recommend us?', orderPosition: 2, transcription: [], error: 'No speech found' },
  {
    responseId: R1,
    questionText: 'What did you like?',
    orderPosition: 1,
    transcription: [{ start: 0.4, end: 2.1, text: 'Working with this team' }],
    error: null,
  },
];

const processing: TTranscriptionJobStatusResponse = { status: 'processing', merged_url: null };
const done: TTranscriptionJobStatusResponse = { status: 'done', merged_url: JSON.stringify(RESULT) };

const run = (events: TranscriptionJobEvent[]) => events.reduce(transcriptionJobReducer, initialTranscriptionJobState);
const polling = (): TranscriptionJobState => run([{ type: 'start' }, { type: 'started', jobId: JOB }]);

describe('transcription job state machine', () => {
  it('starts, then polls the job it was given', () => {
    expect(run([{ type: 'start' }])).toEqual({ phase: 'starting' });
    expect(polling()).toEqual({ phase: 'polling', jobId: JOB, status: null, failures: 0 });
  });

  it('keeps polling on any status other than done or error, and a good answer clears the failure count', () => {
    let state = polling();
    state = transcriptionJobReducer(state, { type: 'checkFailed' });
    state = transcriptionJobReducer(state, { type: 'checkFailed' });
    expect(state).toMatchObject({ phase: 'polling', failures: 2 });
    state = transcriptionJobReducer(state, { type: 'status', response: { status: 'queued', merged_url: null } });
    expect(state).toEqual({ phase: 'polling', jobId: JOB, status: 'queued', failures: 0 });
    state = transcriptionJobReducer(state, { type: 'status', response: processing });
    expect(state).toMatchObject({ phase: 'polling', status: 'processing' });
  });

  it('gives up with a timeout only after MORE than 5 consecutive failed checks', () => {
    let state = polling();
    for (let i = 0; i < MAX_CONSECUTIVE_FAILURES; i++) state = transcriptionJobReducer(state, { type: 'checkFailed' });
    expect(state).toMatchObject({ phase: 'polling', failures: 5 });
    state = transcriptionJobReducer(state, { type: 'checkFailed' });
    expect(state).toEqual({ phase: 'failed', reason: 'timeout', detail: null });
  });

  it('parses merged_url with the contract schema on done, answers in their order', () => {
    const state = transcriptionJobReducer(polling(), { type: 'status', response: done });
    expect(state.phase).toBe('done');
    if (state.phase !== 'done') return;
    expect(state.transcriptions.map((t) => t.orderPosition)).toEqual([1, 2]);
    expect(state.transcriptions[0]!.transcription[0]!.text).toBe('Working with this team');
    expect(state.transcriptions[1]!.error).toBe('No speech found');
  });

  it('fails (not times out) on an error status, and on a done status whose merged_url is unreadable', () => {
    expect(transcriptionJobReducer(polling(), { type: 'status', response: { status: 'error', merged_url: null, error: 'ffmpeg died' } })).toEqual({
      phase: 'failed',
      reason: 'error',
      detail: 'ffmpeg died',
    });
    expect(transcriptionJobReducer(polling(), { type: 'status', response: { status: 'done', merged_url: '{not json' } })).toMatchObject({
      phase: 'failed',
      reason: 'error',
    });
    const wrongShape = JSON.stringify([{ responseId: 'x', questionText: 1 }]);
    expect(transcriptionJobReducer(polling(), { type: 'status', response: { status: 'done', merged_url: wrongShape } })).toMatchObject({
      phase: 'failed',
      reason: 'error',
    });
    expect(transcriptionJobReducer(polling(), { type: 'status', response: { status: 'done', merged_url: null } })).toMatchObject({
      phase: 'failed',
      reason: 'error',
    });
  });

  it('reports a failed start, and ignores late events once finished or reset', () => {
    expect(run([{ type: 'start' }, { type: 'startFailed' }])).toEqual({ phase: 'failed', reason: 'start', detail: null });
    const finished = transcriptionJobReducer(polling(), { type: 'status', response: done });
    expect(transcriptionJobReducer(finished, { type: 'checkFailed' })).toBe(finished);
    expect(transcriptionJobReducer(finished, { type: 'status', response: processing })).toBe(finished);
    expect(transcriptionJobReducer(finished, { type: 'reset' })).toEqual(initialTranscriptionJobState);
    expect(transcriptionJobReducer(initialTranscriptionJobState, { type: 'started', jobId: JOB })).toEqual(initialTranscriptionJobState);
  });
});

describe('runTranscriptionJob (fake timers)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Drives the runner with the given status answers (an Error is a failed check). */
  function drive(answers: (TTranscriptionJobStatusResponse | Error)[], options: { startFails?: boolean } = {}) {
    const states: TranscriptionJobState[] = [];
    let state = initialTranscriptionJobState;
    const checks: number[] = [];
    const start = vi.fn(async () => {
      if (options.startFails) throw new Error('503');
      return { jobId: JOB };
    });
    const check = vi.fn(async (jobId: string) => {
      expect(jobId).toBe(JOB);
      checks.push(Date.now());
      const answer = answers.shift() ?? processing;
      if (answer instanceof Error) throw answer;
      return answer;
    });
    const callErrors: string[] = [];
    const stop = runTranscriptionJob({
      start,
      check,
      dispatch: (event) => {
        state = transcriptionJobReducer(state, event);
        states.push(state);
      },
      onCallError: (_error, call) => callErrors.push(call),
    });
    return { states, checks, check, start, stop, callErrors, current: () => state };
  }

  it('checks every 3 s, never before, until the job is done', async () => {
    const t0 = Date.now();
    const job = drive([processing, processing, done]);
    await vi.advanceTimersByTimeAsync(0);
    expect(job.current()).toMatchObject({ phase: 'polling', jobId: JOB });
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS - 1);
    expect(job.check).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(job.check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 10);
    expect(job.checks.map((at) => at - t0)).toEqual([3000, 6000, 9000]);
    expect(job.current()).toMatchObject({ phase: 'done' });
    expect(job.callErrors).toEqual([]);
  });

  it('times out after the 6th consecutive failed check (more than 5), and stops polling', async () => {
    const job = drive(Array.from({ length: 10 }, () => new Error('network down')));
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 5);
    expect(job.current()).toMatchObject({ phase: 'polling', failures: 5 });
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(job.current()).toEqual({ phase: 'failed', reason: 'timeout', detail: null });
    expect(job.check).toHaveBeenCalledTimes(6);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 5);
    expect(job.check).toHaveBeenCalledTimes(6);
    expect(job.callErrors).toEqual(Array(6).fill('check'));
  });

  it('does not time out when failures are not consecutive', async () => {
    const fail = new Error('blip');
    const job = drive([fail, fail, fail, fail, fail, processing, fail, fail, fail, fail, fail, done]);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 12);
    expect(job.current()).toMatchObject({ phase: 'done' });
  });

  it('stops at an error status with the failed message', async () => {
    const job = drive([processing, { status: 'error', merged_url: null, error: 'engine missing' }]);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 5);
    expect(job.current()).toEqual({ phase: 'failed', reason: 'error', detail: 'engine missing' });
    expect(job.check).toHaveBeenCalledTimes(2);
  });

  it('counts a check that hangs as a failed one', async () => {
    const states: TranscriptionJobState[] = [];
    let state = initialTranscriptionJobState;
    const check = vi.fn(
      (_jobId: string, signal: AbortSignal) =>
        new Promise<TTranscriptionJobStatusResponse>((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(new Error('aborted')));
        }),
    );
    runTranscriptionJob({
      start: async () => ({ jobId: JOB }),
      check,
      dispatch: (event) => {
        state = transcriptionJobReducer(state, event);
        states.push(state);
      },
    });
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS + CHECK_TIMEOUT_MS);
    expect(state).toMatchObject({ phase: 'polling', failures: 1 });
    expect(check).toHaveBeenCalledTimes(1);
  });

  it('reports a failed start and never polls', async () => {
    const job = drive([], { startFails: true });
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 3);
    expect(job.current()).toEqual({ phase: 'failed', reason: 'start', detail: null });
    expect(job.check).not.toHaveBeenCalled();
    expect(job.callErrors).toEqual(['start']);
  });

  it('stops everything when stopped (the dialog closed), ignoring the answer in flight', async () => {
    const job = drive([processing, done]);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(job.check).toHaveBeenCalledTimes(1);
    const seen = job.states.length;
    job.stop();
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 5);
    expect(job.check).toHaveBeenCalledTimes(1);
    expect(job.states.length).toBe(seen);
  });
});
