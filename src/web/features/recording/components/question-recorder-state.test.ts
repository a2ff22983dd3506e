import { describe, expect, it } from 'vitest';
import {
  COUNTDOWN_SECONDS,
  hasUnsavedTake,
  initialRecorderState,
  MAX_MS,
  recorderReducer,
  type Take,
  type TRecorderAction,
  type TRecorderState,
} from './question-recorder-state';

const take = (source: 'camera' | 'file' = 'camera'): Take => ({ blob: new Blob(['x']), mimeType: 'video/webm', durationMs: 4000, source });
const run = (state: TRecorderState, ...actions: TRecorderAction[]) => actions.reduce(recorderReducer, state);

describe('the recorder of one question (its phase machine)', () => {
  it('starts idle, or in preview with an answer given before', () => {
    expect(initialRecorderState(null)).toMatchObject({ phase: 'idle', take: null, error: null, status: null });
    const before = take();
    expect(initialRecorderState(before)).toMatchObject({ phase: 'preview', take: before });
  });

  it('records: countdown, recording with its clock, finishing, preview with what was recorded', () => {
    let state = run(initialRecorderState(null), { type: 'takeRefused', error: 'tooShort' }, { type: 'countdownStarted' });
    expect(state).toMatchObject({ phase: 'countdown', count: COUNTDOWN_SECONDS, error: null, status: { kind: 'countdown', seconds: COUNTDOWN_SECONDS } });
    state = run(state, { type: 'countdownTick', remaining: 2 });
    expect(state).toMatchObject({ count: 2, status: { kind: 'countdown', seconds: 2 } });
    state = run(state, { type: 'recordingStarted' });
    expect(state).toMatchObject({ phase: 'recording', elapsedMs: 0, status: { kind: 'recording' } });
    // The clock moves quietly; the time left is said at the marks it is given.
    state = run(state, { type: 'tick', elapsedMs: 4000 });
    expect(state).toMatchObject({ elapsedMs: 4000, status: { kind: 'recording' } });
    state = run(state, { type: 'tick', elapsedMs: 10_000, announce: 10 });
    expect(state.status).toEqual({ kind: 'remaining', seconds: 10 });
    state = run(state, { type: 'stopping' });
    expect(state.phase).toBe('finishing');
    const recorded = take();
    state = run(state, { type: 'recorded', take: recorded, hitLimit: false });
    expect(state).toMatchObject({ phase: 'preview', take: recorded, status: { kind: 'stopped' } });
  });

  it('says when the limit stopped the recording', () => {
    const state = run(initialRecorderState(null), { type: 'countdownStarted' }, { type: 'recordingStarted' }, { type: 'limitReached' });
    expect(state.elapsedMs).toBe(MAX_MS);
    expect(run(state, { type: 'stopping' }, { type: 'recorded', take: take(), hitLimit: true }).status).toEqual({ kind: 'stoppedAtLimit' });
  });

  it('goes back to idle on a cancelled countdown, a missing camera, or a refused take (with why)', () => {
    const counting = run(initialRecorderState(null), { type: 'countdownStarted' });
    expect(run(counting, { type: 'countdownCancelled' }).phase).toBe('idle');
    expect(run(counting, { type: 'noStream' }).phase).toBe('idle');
    const refused = run(counting, { type: 'recordingStarted' }, { type: 'takeRefused', error: 'recorder' });
    expect(refused).toMatchObject({ phase: 'idle', error: { kind: 'recorder' } });
    // A tick that arrives after the countdown ended changes nothing.
    expect(run(refused, { type: 'countdownTick', remaining: 1 })).toBe(refused);
  });

  it('checks a chosen file: preview when it is taken, back where it was when refused', () => {
    const checking = run(initialRecorderState(null), { type: 'fileChecking' });
    expect(checking).toMatchObject({ phase: 'checking', status: { kind: 'checking' } });
    expect(run(checking, { type: 'fileRefused', problem: 'tooLong', durationSeconds: 31 })).toMatchObject({
      phase: 'idle',
      error: { kind: 'file', problem: 'tooLong', durationSeconds: 31 },
      status: null,
    });
    const chosen = take('file');
    const previewing = run(checking, { type: 'fileChosen', take: chosen });
    expect(previewing).toMatchObject({ phase: 'preview', take: chosen, status: { kind: 'chosen' } });
    // A second file refused keeps the first one's preview.
    expect(run(previewing, { type: 'fileChecking' }, { type: 'fileRefused', problem: 'notVideo', durationSeconds: null })).toMatchObject({
      phase: 'preview',
      take: chosen,
    });
  });

  it('accepts (saving, then saved), or comes back to the preview when the answer could not be kept', () => {
    const previewing = initialRecorderState(take());
    const saving = run(previewing, { type: 'saving' });
    expect(saving.phase).toBe('saving');
    expect(run(saving, { type: 'saved' }).status).toEqual({ kind: 'saved' });
    expect(run(saving, { type: 'saveFailed' })).toMatchObject({ phase: 'preview', error: { kind: 'storage' } });
    // Nothing to save without a take.
    expect(run(initialRecorderState(null), { type: 'saving' }).phase).toBe('idle');
  });

  it('retakes: the take, the error and the status go', () => {
    const state = run(initialRecorderState(take()), { type: 'saving' }, { type: 'saveFailed' }, { type: 'retake' });
    expect(state).toMatchObject({ phase: 'idle', take: null, error: null, status: null });
  });

  it('asks before the page is left while a take is under way or not yet accepted', () => {
    const before = take();
    expect(hasUnsavedTake(initialRecorderState(null), null)).toBe(false);
    expect(hasUnsavedTake(initialRecorderState(before), before)).toBe(false);
    expect(hasUnsavedTake(run(initialRecorderState(null), { type: 'countdownStarted' }), null)).toBe(true);
    expect(hasUnsavedTake(run(initialRecorderState(before), { type: 'fileChosen', take: take('file') }), before)).toBe(true);
  });
});
