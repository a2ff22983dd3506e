// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook } from '@testing-library/react';
import { createElement } from 'react';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TJob, TJobPhase } from '../../../../contract/api/jobs.schema.js';
import type { TExportV2Body } from '../../../../contract/api/studio.schema.js';
import i18n from '../../../i18n/i18n';
import { ExportFailedError, runExportStart } from '../api/export-video';
import { passTime, testJob } from '../jobs/job-fixtures';
import { JOB_POLL_MS, MAX_FAILED_READS } from '../jobs/use-job';
import { exportLanding, useExportJob } from './use-export-job';

/**
 * The export's client flow (issue 16) against a stand-in for the server's endpoints (the network is
 * replaced, the client code runs as it is): export-v2 answers at once with its job, the job is
 * followed through GET /api/jobs/{id} (useJob), and its output is where the person lands.
 */

const TESTIMONIAL = '2f3e4d5c-6b7a-4988-9bac-1d2e3f4a5b6c';
const RESPONSE = '3a4b5c6d-7e8f-4a0b-8c1d-2e3f4a5b6c7d';
const JOB = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';
const BODY: TExportV2Body = {
  platform: 'shorts',
  videoType: 'original',
  cropArea: { x: 0.34375, y: 0, width: 0.315625, height: 1 },
  language: 'en',
};
const OUTPUT = `/files/a/export-shorts-${JOB}.mp4?exp=4102444800&sig=z`;
const exportPath = `/api/testimonials/response/${RESPONSE}/export-v2`;

const job = (phase: TJobPhase, overrides: Partial<TJob> = {}) =>
  testJob(JOB, phase, {
    kind: 'export',
    testimonialId: TESTIMONIAL,
    responseId: RESPONSE,
    params: { platform: 'shorts', videoType: 'original' },
    outputUrl: phase === 'ready' ? OUTPUT : null,
    ...overrides,
  });

type Reply = { status: number; body: unknown };
const json = (status: number, body: unknown): Reply => ({ status, body });
const queuedStart = json(202, { status: 'queued', exportedUrl: null, jobId: JOB, state: { output: 'export', jobId: JOB, phase: 'queued', progress: 0, error: null } });
const down = json(503, { error: 'Unavailable', code: 'unavailable' });

let routes: Record<string, Reply[]>;
let calls: { method: string; path: string; body?: unknown }[];

beforeAll(async () => {
  await i18n.changeLanguage('en');
  // The client reads error replies with a schema it imports on first use: loaded before the clock is faked.
  await import('../../../../contract/errors.js');
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  routes = {};
  calls = [];
  vi.stubGlobal('fetch', async (input: string, init: RequestInit) => {
    const method = init.method ?? 'GET';
    const path = String(input);
    calls.push({ method, path, ...(init.body ? { body: JSON.parse(String(init.body)) } : {}) });
    const queue = routes[`${method} ${path}`];
    if (!queue?.length) return new Response(JSON.stringify({ error: 'Nothing here', code: 'not_found' }), { status: 404 });
    const { status, body } = queue.length > 1 ? queue.shift()! : queue[0]!;
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const pass = (ms: number) => passTime(ms, JOB_POLL_MS / 2);

function exportHook() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client }, children);
  const onReady = vi.fn();
  const hook = renderHook(() => useExportJob({ testimonialId: TESTIMONIAL, target: { kind: 'response', id: RESPONSE }, onReady }), { wrapper });
  return { ...hook, onReady };
}

describe('runExportStart', () => {
  it('posts the body to the answer’s export-v2 and answers at once with the job to follow', async () => {
    routes[`POST ${exportPath}`] = [queuedStart];
    await expect(runExportStart({ testimonialId: TESTIMONIAL, target: { kind: 'response', id: RESPONSE }, body: BODY })).resolves.toEqual({ jobId: JOB, url: null });
    expect(calls).toEqual([{ method: 'POST', path: exportPath, body: BODY }]);
  });

  it('uses the testimonial’s export-v2 for the merged video', async () => {
    routes[`POST /api/testimonials/${TESTIMONIAL}/export-v2`] = [queuedStart];
    await runExportStart({ testimonialId: TESTIMONIAL, target: { kind: 'testimonial' }, body: BODY });
    expect(calls[0]).toMatchObject({ method: 'POST', path: `/api/testimonials/${TESTIMONIAL}/export-v2` });
  });

  it('passes on the server’s word on a refused crop area, and not on other failures', async () => {
    routes[`POST ${exportPath}`] = [
      json(400, { error: 'cropArea.width: The crop area must fit inside the frame.', code: 'invalid_data', field: 'cropArea.width' }),
      json(409, { error: 'Another render is running.', code: 'conflict' }),
      json(500, { error: 'Internal error', code: 'server_error' }),
    ];
    const start = () => runExportStart({ testimonialId: TESTIMONIAL, target: { kind: 'response', id: RESPONSE }, body: BODY }).catch((error: unknown) => error);
    const refused = (await start()) as ExportFailedError;
    expect(refused).toBeInstanceOf(ExportFailedError);
    expect(refused.fieldMessage).toBe('cropArea.width: The crop area must fit inside the frame.');
    const busy = (await start()) as ExportFailedError;
    expect(busy.fieldMessage).toBeUndefined();
    const broken = (await start()) as ExportFailedError;
    expect(broken.message).toBe('Failed to start export. Please try again.');
    expect(broken.fieldMessage).toBeUndefined();
  });

  it('fails when the start call answers failed', async () => {
    routes[`POST ${exportPath}`] = [json(200, { status: 'failed', exportedUrl: null, jobId: JOB })];
    await expect(runExportStart({ testimonialId: TESTIMONIAL, target: { kind: 'response', id: RESPONSE }, body: BODY })).rejects.toBeInstanceOf(ExportFailedError);
  });
});

describe('useExportJob', () => {
  it('follows the job to its output and lands on the testimonial with it', async () => {
    routes[`POST ${exportPath}`] = [queuedStart];
    routes[`GET /api/jobs/${JOB}`] = [json(200, job('running', { progress: 30 })), json(200, job('running', { progress: 80 })), json(200, job('ready'))];
    const { result, onReady } = exportHook();
    await act(() => result.current.start(BODY));
    expect(result.current.running).toBe(true);
    await pass(10);
    expect(result.current.follow.job?.progress).toBe(30);
    await pass(JOB_POLL_MS);
    expect(result.current.follow.job?.progress).toBe(80);
    expect(onReady).not.toHaveBeenCalled();
    await pass(JOB_POLL_MS);
    expect(onReady).toHaveBeenCalledTimes(1);
    expect(onReady).toHaveBeenCalledWith(OUTPUT, JOB);
    expect(result.current.error).toBeNull();
    // Nothing waited: the start call answered at once, and the job is read no more.
    const reads = calls.filter((call) => call.path === `/api/jobs/${JOB}`).length;
    await pass(JOB_POLL_MS * 3);
    expect(calls.filter((call) => call.path === `/api/jobs/${JOB}`)).toHaveLength(reads);
    expect(exportLanding(TESTIMONIAL, OUTPUT, JOB)).toBe(
      `/dashboard/testimonials/${TESTIMONIAL}?export=ready&exportUrl=${encodeURIComponent(OUTPUT)}&exportJob=${JOB}`,
    );
  });

  it('says why the job failed, translated, and can start again', async () => {
    routes[`POST ${exportPath}`] = [queuedStart];
    routes[`GET /api/jobs/${JOB}`] = [json(200, job('failed', { error: { reason: 'nothing_to_export', params: {}, message: 'There is no video to export yet.' } }))];
    const { result, onReady } = exportHook();
    await act(() => result.current.start(BODY));
    await pass(10);
    expect(result.current.running).toBe(false);
    expect(result.current.error).toBe('There is no video to export yet.');
    await act(() => i18n.changeLanguage('fr'));
    expect(result.current.error).toBe('Il n’y a pas encore de vidéo à exporter.');
    await act(() => i18n.changeLanguage('en'));
    expect(onReady).not.toHaveBeenCalled();
    act(() => result.current.reset());
    expect(result.current.error).toBeNull();
  });

  it(`gives up after more than ${MAX_FAILED_READS} failed reads in a row, and goes on when resumed`, async () => {
    routes[`POST ${exportPath}`] = [queuedStart];
    routes[`GET /api/jobs/${JOB}`] = [...Array.from({ length: MAX_FAILED_READS + 1 }, () => down), json(200, job('ready'))];
    const { result, onReady } = exportHook();
    await act(() => result.current.start(BODY));
    await pass(JOB_POLL_MS * (MAX_FAILED_READS + 1));
    expect(result.current.follow).toMatchObject({ status: 'gaveUp', giveUpReason: 'unreachable' });
    // Still shown as under way (it may finish): the person can check again.
    expect(result.current.running).toBe(true);
    act(() => result.current.follow.resume());
    await pass(10);
    expect(onReady).toHaveBeenCalledWith(OUTPUT, JOB);
  });

  it('says the §8 message when the start is refused, with the server’s word on the crop area', async () => {
    routes[`POST ${exportPath}`] = [json(400, { error: 'cropArea.width: The crop area must fit inside the frame.', code: 'invalid_data', field: 'cropArea.width' }), json(500, { error: 'Internal error', code: 'server_error' })];
    const { result } = exportHook();
    await act(() => result.current.start(BODY));
    expect(result.current.error).toBe('cropArea.width: The crop area must fit inside the frame.');
    await act(() => result.current.start(BODY));
    expect(result.current.error).toBe('Failed to start export. Please try again.');
    expect(result.current.running).toBe(false);
  });
});
