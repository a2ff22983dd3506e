/**
 * Test helpers for the job follower (not shipped): a job as GET /api/jobs/{id} gives it, and a way to
 * let a faked clock run while the stand-in server's answers are read on the real event loop.
 */
import { act } from '@testing-library/react';
import { vi } from 'vitest';
import type { TJob, TJobPhase } from '../../../../contract/api/jobs.schema.js';

/** A job in `phase`, about `testimonialId` (and one of its answers, when given). */
export function testJob(id: string, phase: TJobPhase, overrides: Partial<TJob> & { testimonialId: string | null }): TJob {
  return {
    id,
    kind: 'intro',
    responseId: null,
    params: {},
    phase,
    progress: phase === 'ready' ? 100 : 0,
    error: null,
    outputUrl: null,
    attempts: phase === 'queued' ? 0 : 1,
    createdAt: '2025-03-09T10:00:00.000Z',
    startedAt: phase === 'queued' ? null : '2025-03-09T10:00:01.000Z',
    finishedAt: phase === 'ready' || phase === 'failed' || phase === 'cancelled' ? '2025-03-09T10:00:30.000Z' : null,
    ...overrides,
  };
}

/** Lets `ms` of the fake clock pass in steps of `step`, reading the responses between steps. */
export async function passTime(ms: number, step = 1_000): Promise<void> {
  for (let done = 0; done < ms; done += step) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(Math.min(step, ms - done));
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    });
  }
}
