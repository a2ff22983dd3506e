// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TTestimonialRequest } from '../../../../contract/api/testimonials.schema.js';
import type { TExportV2Body, TRenderState } from '../../../../contract/api/studio.schema.js';
import { EXPORT_POLL_MS, ExportFailedError, runExport } from '../api/export-video';

/**
 * The export's client flow (start call, then following the render through the testimonial's
 * render_state and stored address) against a stand-in of the server's two endpoints: the network is
 * replaced, the client code runs as it is.
 */

const COMPANY = '1e2d3c4b-5a69-4877-8a9b-0c1d2e3f4a5b';
const TESTIMONIAL = '2f3e4d5c-6b7a-4988-9bac-1d2e3f4a5b6c';
const RESPONSE = '3a4b5c6d-7e8f-4a0b-8c1d-2e3f4a5b6c7d';
const JOB = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';
const BODY: TExportV2Body = {
  platform: 'shorts',
  videoType: 'original',
  cropArea: { x: 0.34375, y: 0, width: 0.315625, height: 1 },
  language: 'en',
};

interface Stand {
  /** The export-v2 answer (status and body). */
  start: { status: number; body: unknown };
  /** What the detail says at each GET, in turn (the last one repeats); 'fail' answers 500. */
  details: ({ state: TRenderState | null; shortOriginal: string | null } | 'fail')[];
  calls: { method: string; path: string; body?: unknown }[];
}

function testimonial(state: TRenderState | null, shortOriginal: string | null): TTestimonialRequest {
  const now = new Date().toISOString();
  return {
    id: TESTIMONIAL,
    customer_name: 'Claire Dubois',
    customer_email: 'claire@example.com',
    customer_position: null,
    status: 'completed',
    created_at: now,
    updated_at: now,
    expires_at: now,
    last_reminder_sent: null,
    paid: true,
    language: 'english',
    gift: null,
    video_url: null,
    video_url_subtitles: null,
    has_subtitles: false,
    short_video_url: null,
    short_video_url_original: null,
    render_state: null,
    testimonial_responses: [
      {
        id: RESPONSE,
        question: { id: '4b5c6d7e-8f9a-4b1c-8d2e-3f4a5b6c7d8e', text: 'Why us?' },
        video_url: '/files/a/answer.mp4?exp=1&sig=x',
        modified_video_url: null,
        intro_generated: false,
        has_subtitles: false,
        short_video_url: null,
        short_video_url_original: shortOriginal,
        orderPosition: 1,
        render_state: state,
      },
    ],
  };
}

let stand: Stand;

beforeEach(() => {
  // Only the clock is faked: the responses' bodies are read on the real event loop.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  stand = { start: { status: 200, body: {} }, details: [], calls: [] };
  let detailIndex = 0;
  vi.stubGlobal('fetch', async (input: string, init: RequestInit) => {
    const method = init.method ?? 'GET';
    const path = String(input);
    stand.calls.push({ method, path, ...(init.body ? { body: JSON.parse(String(init.body)) } : {}) });
    if (method === 'POST' && path === `/api/testimonials/response/${RESPONSE}/export-v2`) {
      // The real call waits for the render: answer after a few polling periods.
      await new Promise((resolve) => setTimeout(resolve, EXPORT_POLL_MS * 2.5));
      return new Response(JSON.stringify(stand.start.body), { status: stand.start.status, headers: { 'content-type': 'application/json' } });
    }
    if (method === 'GET' && path === `/api/testimonials/request/${TESTIMONIAL}?company_id=${COMPANY}`) {
      const detail = stand.details[Math.min(detailIndex, stand.details.length - 1)] ?? { state: null, shortOriginal: null };
      detailIndex += 1;
      if (detail === 'fail') return new Response(JSON.stringify({ error: 'Internal error', code: 'server_error' }), { status: 500 });
      return new Response(JSON.stringify({ testimonial: testimonial(detail.state, detail.shortOriginal), error_credit: false }), { status: 200 });
    }
    return new Response(JSON.stringify({ error: 'Nothing here', code: 'not_found' }), { status: 404 });
  });
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Runs the export to its end, letting the fake clock run. */
async function settle<T>(promise: Promise<T>): Promise<T> {
  let outcome: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
  promise.then(
    (value) => (outcome = { ok: true, value }),
    (error: unknown) => (outcome = { ok: false, error }),
  );
  for (let i = 0; i < 2000 && !outcome; i++) {
    await vi.advanceTimersByTimeAsync(500);
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (!outcome) throw new Error('the export never settled');
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

const run = (onProgress?: (percent: number) => void) =>
  runExport({ companyId: COMPANY, testimonialId: TESTIMONIAL, target: { kind: 'response', id: RESPONSE }, body: BODY, ...(onProgress ? { onProgress } : {}) });

const rendering = (progress: number): TRenderState => ({ output: 'export', phase: 'rendering', progress, error: null });

describe('runExport', () => {
  it('posts the body to the answer’s export-v2 and resolves with the exported address when done', async () => {
    stand.start.body = { status: 'done', exportedUrl: '/files/a/export-shorts-job.mp4?exp=1&sig=y', jobId: JOB };
    stand.details = [{ state: rendering(5), shortOriginal: null }];
    const progress: number[] = [];
    await expect(settle(run((p) => progress.push(p)))).resolves.toBe('/files/a/export-shorts-job.mp4?exp=1&sig=y');
    const post = stand.calls.find((call) => call.method === 'POST');
    expect(post).toEqual({ method: 'POST', path: `/api/testimonials/response/${RESPONSE}/export-v2`, body: BODY });
    // The render state was read while the start call waited, and its progress passed on.
    expect(progress).toContain(5);
  });

  it('uses the testimonial’s export-v2 for the merged video', async () => {
    stand.start.body = { status: 'done', exportedUrl: '/files/merged-export.mp4', jobId: JOB };
    vi.stubGlobal('fetch', async (input: string, init: RequestInit) => {
      stand.calls.push({ method: init.method ?? 'GET', path: String(input) });
      return new Response(JSON.stringify(stand.start.body), { status: 200 });
    });
    const url = await settle(runExport({ companyId: COMPANY, testimonialId: TESTIMONIAL, target: { kind: 'testimonial' }, body: BODY }));
    expect(url).toBe('/files/merged-export.mp4');
    expect(stand.calls[0]).toEqual({ method: 'POST', path: `/api/testimonials/${TESTIMONIAL}/export-v2` });
  });

  it('follows a render that outlasts the start call until the address of this job is stored', async () => {
    stand.start.body = { status: 'rendering', exportedUrl: null, jobId: JOB };
    stand.details = [
      { state: rendering(5), shortOriginal: '/files/a/export-shorts-an-older-job.mp4' },
      { state: rendering(5), shortOriginal: '/files/a/export-shorts-an-older-job.mp4' },
      { state: rendering(5), shortOriginal: '/files/a/export-shorts-an-older-job.mp4' },
      { state: rendering(60), shortOriginal: '/files/a/export-shorts-an-older-job.mp4' },
      'fail',
      { state: { output: 'export', phase: 'ready', progress: 100, error: null }, shortOriginal: `/files/a/export-shorts-${JOB}.mp4?sig=z` },
    ];
    const progress: number[] = [];
    await expect(settle(run((p) => progress.push(p)))).resolves.toBe(`/files/a/export-shorts-${JOB}.mp4?sig=z`);
    expect(progress).toContain(60);
  });

  it('fails with the message of §8 when the render fails', async () => {
    stand.start.body = { status: 'queued', exportedUrl: null, jobId: JOB };
    stand.details = [{ state: { output: 'export', phase: 'failed', progress: 0, error: 'ffmpeg exited with 1' }, shortOriginal: null }];
    const failure = await settle(run()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ExportFailedError);
    expect((failure as ExportFailedError).message).toBe('Failed to start export. Please try again.');
    expect((failure as ExportFailedError).fieldMessage).toBeUndefined();
  });

  it('fails when the start call answers failed', async () => {
    stand.start.body = { status: 'failed', exportedUrl: null, jobId: JOB };
    await expect(settle(run())).rejects.toBeInstanceOf(ExportFailedError);
  });

  it('gives up after more than 5 failed checks in a row', async () => {
    stand.start.body = { status: 'rendering', exportedUrl: null, jobId: JOB };
    stand.details = ['fail'];
    await expect(settle(run())).rejects.toBeInstanceOf(ExportFailedError);
    const checks = stand.calls.filter((call) => call.method === 'GET');
    expect(checks.length).toBeGreaterThanOrEqual(6);
  });

  it('passes on the server’s word on a refused crop area, and not on other failures', async () => {
    stand.start = { status: 400, body: { error: 'cropArea.width: The crop area must fit inside the frame.', code: 'invalid_data', field: 'cropArea.width' } };
    const refused = (await settle(run()).catch((error: unknown) => error)) as ExportFailedError;
    expect(refused.fieldMessage).toBe('cropArea.width: The crop area must fit inside the frame.');

    stand.start = { status: 409, body: { error: 'Another render is running.', code: 'invalid_data' } };
    const busy = (await settle(run()).catch((error: unknown) => error)) as ExportFailedError;
    expect(busy).toBeInstanceOf(ExportFailedError);
    expect(busy.fieldMessage).toBeUndefined();

    stand.start = { status: 500, body: { error: 'Internal error', code: 'server_error' } };
    const broken = (await settle(run()).catch((error: unknown) => error)) as ExportFailedError;
    expect(broken.message).toBe('Failed to start export. Please try again.');
    expect(broken.fieldMessage).toBeUndefined();
  });

  it('stops following when aborted', async () => {
    stand.start.body = { status: 'rendering', exportedUrl: null, jobId: JOB };
    stand.details = [{ state: rendering(10), shortOriginal: null }];
    const controller = new AbortController();
    const running = runExport({ companyId: COMPANY, testimonialId: TESTIMONIAL, target: { kind: 'response', id: RESPONSE }, body: BODY, signal: controller.signal });
    const outcome = running.catch((error: unknown) => error);
    for (let i = 0; i < 20; i++) {
      await vi.advanceTimersByTimeAsync(EXPORT_POLL_MS / 2);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(stand.calls.filter((call) => call.method === 'GET').length).toBeGreaterThan(2);
    controller.abort();
    await vi.advanceTimersByTimeAsync(EXPORT_POLL_MS);
    const error = await outcome;
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
  });
});
