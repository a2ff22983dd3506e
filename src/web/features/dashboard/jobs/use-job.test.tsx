// @vitest-environment jsdom
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, renderHook, screen } from '@testing-library/react';
import type * as React from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { JOB_REASONS } from '../../../../contract/api/jobs.schema.js';
import type { TJob, TJobPhase } from '../../../../contract/api/jobs.schema.js';
import en from '../../../i18n/en.json';
import fr from '../../../i18n/fr.json';
import i18n from '../../../i18n/i18n';
import { testimonialKeys } from '../api/get-testimonial';
import { JobProgress } from './job-progress';
import { testJob, passTime } from './job-fixtures';
import { jobErrorText } from './job-reason';
import { JOB_POLL_MS, JOB_STALL_MS, MAX_FAILED_READS, useJob } from './use-job';

// The unit-test config compiles JSX with esbuild's classic runtime: the components find React as a
// global, set before any component module is evaluated (vi.hoisted runs above the imports).
await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * The one job follower of the web app (issue 16) with the real hook, query client, progress display
 * and translations, against a stand-in for GET /api/jobs/{id} (the only part replaced): it follows a
 * job to its end and stops, reads the testimonial again when the job ends, translates a failure's
 * reason, and gives up by its one rule (more than 5 failed reads in a row, or 10 minutes without a
 * change), after which it can be resumed.
 */

const JOB = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';
const TESTIMONIAL = '5c4d3e2f-1a0b-4c9d-8e7f-6a5b4c3d2e1f';
const COMPANY = '1e2d3c4b-5a69-4877-8a9b-0c1d2e3f4a5b';

const job = (phase: TJobPhase, overrides: Partial<TJob> = {}) =>
  testJob(JOB, phase, { testimonialId: TESTIMONIAL, outputUrl: phase === 'ready' ? '/files/a/intro.mp4?exp=4102444800&sig=x' : null, ...overrides });

type Reply = { status: number; body: unknown };
const ok = (body: unknown): Reply => ({ status: 200, body });
const down: Reply = { status: 503, body: { error: 'Unavailable', code: 'unavailable' } };

/** GET /api/jobs/{JOB} answers the queued replies in turn (the last one repeats); counts the reads. */
function stubJobs(replies: Reply[]) {
  const reads: string[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    reads.push(`${init?.method ?? 'GET'} ${path}`);
    if (path !== `/api/jobs/${JOB}`) throw new Error(`unexpected call ${path}`);
    const { status, body } = replies.length > 1 ? replies.shift()! : replies[0]!;
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  return reads;
}

let client: QueryClient;
const wrapper = ({ children }: { children: React.ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;

const pass = (ms: number, step = JOB_POLL_MS / 2) => passTime(ms, step);

beforeAll(async () => {
  await i18n.changeLanguage('en');
  // The client reads error replies with a schema it imports on first use: loaded before the clock is faked.
  await import('../../../../contract/errors.js');
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
});
afterEach(async () => {
  cleanup();
  client.clear();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

describe('useJob', () => {
  it('follows a job queued → running → ready, then reads it no more and reads its testimonial again', async () => {
    const reads = stubJobs([ok(job('queued')), ok(job('running', { progress: 40 })), ok(job('ready'))]);
    // The testimonial's detail, as the page holds it.
    let detailReads = 0;
    const detail = renderHook(
      () => useQuery({ queryKey: testimonialKeys.detail(COMPANY, TESTIMONIAL), queryFn: () => ++detailReads, staleTime: Infinity }),
      { wrapper },
    );
    await pass(10);
    expect(detail.result.current.data).toBe(1);

    const { result } = renderHook(() => useJob(JOB), { wrapper });
    expect(result.current.status).toBe('loading');
    await pass(10);
    expect(result.current.status).toBe('active');
    expect(result.current.job?.phase).toBe('queued');
    await pass(JOB_POLL_MS);
    expect(result.current.job).toMatchObject({ phase: 'running', progress: 40 });
    expect(detailReads).toBe(1);
    await pass(JOB_POLL_MS);
    expect(result.current.status).toBe('ready');
    expect(result.current.job?.outputUrl).toContain('intro.mp4');
    await pass(10);
    expect(detailReads).toBe(2);
    await pass(JOB_POLL_MS * 5);
    expect(reads).toHaveLength(3);
    expect(detailReads).toBe(2);
  });

  it('does nothing without a job id', async () => {
    const reads = stubJobs([ok(job('queued'))]);
    const { result } = renderHook(() => useJob(null), { wrapper });
    await pass(JOB_POLL_MS * 2);
    expect(result.current.status).toBe('idle');
    expect(result.current.job).toBeNull();
    expect(reads).toEqual([]);
  });

  it('ends on a failed job with its reason, translated with its parameters', async () => {
    const error = { reason: 'transcription_too_long' as const, params: { minutes: 10 }, message: 'This video is too long to transcribe automatically (at most 10 minutes).' };
    const reads = stubJobs([ok(job('running')), ok(job('failed', { error }))]);
    const { result } = renderHook(() => useJob(JOB), { wrapper });
    await pass(JOB_POLL_MS + 10);
    expect(result.current.status).toBe('failed');
    await pass(JOB_POLL_MS * 3);
    expect(reads).toHaveLength(2);
    expect(jobErrorText(i18n.t, result.current.job?.error)).toBe('This video is too long to transcribe automatically (at most 10 minutes).');
    await i18n.changeLanguage('fr');
    expect(jobErrorText(i18n.t, result.current.job?.error)).toBe('Cette vidéo est trop longue pour être transcrite automatiquement (10 minutes au plus).');
  });

  it(`gives up after more than ${MAX_FAILED_READS} failed reads in a row, and follows again on resume`, async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const reads = stubJobs([ok(job('running', { progress: 10 })), ...Array.from({ length: MAX_FAILED_READS + 1 }, () => down), ok(job('running', { progress: 70 })), ok(job('ready'))]);
    const { result } = renderHook(() => useJob(JOB), { wrapper });
    await pass(10);
    expect(result.current.status).toBe('active');
    // Five failed reads: still following, and saying the server did not answer.
    await pass(JOB_POLL_MS * MAX_FAILED_READS);
    expect(result.current.status).toBe('active');
    expect(result.current.failedReads).toBeGreaterThan(0);
    // The sixth: given up; nothing is read any more.
    await pass(JOB_POLL_MS);
    expect(result.current).toMatchObject({ status: 'gaveUp', giveUpReason: 'unreachable' });
    const count = reads.length;
    expect(count).toBe(1 + MAX_FAILED_READS + 1);
    await pass(JOB_POLL_MS * 5);
    expect(reads).toHaveLength(count);

    act(() => result.current.resume());
    await pass(10);
    expect(result.current.job).toMatchObject({ phase: 'running', progress: 70 });
    expect(result.current.status).toBe('active');
    await pass(JOB_POLL_MS);
    expect(result.current.status).toBe('ready');
  });

  it('gives up at once when the job is refused (another company’s, or gone)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const reads = stubJobs([{ status: 404, body: { error: 'Not found', code: 'not_found' } }]);
    const { result } = renderHook(() => useJob(JOB), { wrapper });
    await pass(JOB_POLL_MS * 4);
    expect(result.current).toMatchObject({ status: 'gaveUp', giveUpReason: 'unreachable' });
    expect(reads).toHaveLength(1);
  });

  it('gives up on a job that has not changed for 10 minutes, and follows it again on resume', async () => {
    const reads = stubJobs([ok(job('running', { progress: 30 }))]);
    const { result } = renderHook(() => useJob(JOB), { wrapper });
    await pass(JOB_STALL_MS - JOB_POLL_MS, 30_000);
    expect(result.current.status).toBe('active');
    await pass(JOB_POLL_MS * 2);
    expect(result.current).toMatchObject({ status: 'gaveUp', giveUpReason: 'stalled' });
    const count = reads.length;
    await pass(JOB_POLL_MS * 5);
    expect(reads).toHaveLength(count);
    act(() => result.current.resume());
    await pass(10);
    expect(result.current.status).toBe('active');
    expect(reads.length).toBe(count + 1);
  });
});

describe('JobProgress', () => {
  function Follow({ onRetry }: { onRetry?: () => void }) {
    const follow = useJob(JOB);
    return <JobProgress follow={follow} onRetry={onRetry} since={Date.now()} />;
  }

  it('shows the phase and the progress the job reports', async () => {
    stubJobs([ok(job('running', { progress: 64 }))]);
    render(<Follow />, { wrapper });
    await pass(10);
    expect(screen.getByTestId('job-progress').getAttribute('data-phase')).toBe('running');
    expect(screen.getByTestId('job-percent').textContent).toBe('64%');
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('64');
    expect(screen.getByText('In progress…')).toBeTruthy();
  });

  it('climbs slowly (+1 every 2 s, up to 30) while a queued job reports nothing', async () => {
    stubJobs([ok(job('queued'))]);
    render(<Follow />, { wrapper });
    await pass(20_000);
    expect(screen.getByTestId('job-percent').textContent).toBe('10%');
    await pass(60_000, 10_000);
    expect(screen.getByTestId('job-percent').textContent).toBe('30%');
  });

  it('shows a failed job’s reason in the person’s language, and its retry', async () => {
    await i18n.changeLanguage('fr');
    const error = { reason: 'unreadable_upload' as const, params: {}, message: 'The recording could not be read.' };
    stubJobs([ok(job('failed', { error }))]);
    const onRetry = vi.fn();
    render(<Follow onRetry={onRetry} />, { wrapper });
    await pass(10);
    const shown = screen.getByTestId('job-progress');
    expect(shown.getAttribute('data-phase')).toBe('failed');
    expect(shown.textContent).toContain('L’enregistrement n’a pas pu être lu.');
    fireEvent.click(screen.getByTestId('job-retry'));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('says when it gave up, with a way to check again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubJobs([down]);
    render(<Follow />, { wrapper });
    await pass(JOB_POLL_MS * (MAX_FAILED_READS + 2));
    expect(screen.getByTestId('job-progress').getAttribute('data-phase')).toBe('gave-up');
    expect(screen.getByTestId('job-resume').textContent).toBe('Check again');
  });
});

describe('job reasons', () => {
  it('are translated in English and French, with the same parameters as the contract', () => {
    for (const reason of JOB_REASONS) {
      const english = en.jobs.reasons[reason];
      const french = fr.jobs.reasons[reason];
      expect(english, reason).toBeTruthy();
      expect(french, reason).toBeTruthy();
      expect(french.match(/\{\{\w+\}\}/g), reason).toEqual(english.match(/\{\{\w+\}\}/g));
    }
  });
});
