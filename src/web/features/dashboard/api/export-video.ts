import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZRequestDetailResponse } from '../../../../contract/api/requests.schema.js';
import { ZExportV2Response } from '../../../../contract/api/studio.schema.js';
import type { TExportV2Body, TExportV2Response, TRenderState } from '../../../../contract/api/studio.schema.js';
import { apiFetch, isApiError } from '../../../lib/api-client';
import { withQuery } from '../../../lib/url';
import { requestsKeys } from './list-requests';

/** What is exported: one answer, or the testimonial's merged video. */
export type ExportTarget = { kind: 'response'; id: string } | { kind: 'testimonial' };

/**
 * POST /api/testimonials/response/{id}/export-v2 or POST /api/testimonials/{id}/export-v2. The server
 * waits up to a minute for the render and answers `{ status, exportedUrl, jobId }`: 'done' with the
 * address, 'failed', or 'queued' / 'rendering' when the render takes longer.
 */
export function startExport(input: { testimonialId: string; target: ExportTarget; body: TExportV2Body; signal?: AbortSignal }): Promise<TExportV2Response> {
  const endpoint = input.target.kind === 'response' ? API.studio.exportResponse : API.studio.exportTestimonial;
  const id = input.target.kind === 'response' ? input.target.id : input.testimonialId;
  return apiFetch(endpoint.path(id), {
    method: endpoint.method,
    body: input.body,
    schema: ZExportV2Response,
    ...(input.signal ? { signal: input.signal } : {}),
  });
}

export interface ExportProgress {
  /** The render state of the answer or testimonial (its latest render), when the server gave one. */
  state: TRenderState | null;
  /** The stored export address once it is the one of this job (its key carries the job id). */
  url: string | null;
}

/**
 * Follows an export through GET /api/testimonials/request/{id}?company_id=: the render_state of the
 * answer (or testimonial), and the stored short_video_url (enhanced) or short_video_url_original.
 */
export async function readExportProgress(input: {
  companyId: string;
  testimonialId: string;
  target: ExportTarget;
  videoType: TExportV2Body['videoType'];
  jobId: string | undefined;
  signal?: AbortSignal;
}): Promise<ExportProgress> {
  const detail = await apiFetch(withQuery(API.testimonials.request.path(input.testimonialId), { company_id: input.companyId }), {
    method: API.testimonials.request.method,
    schema: ZRequestDetailResponse,
    ...(input.signal ? { signal: input.signal } : {}),
  });
  const testimonial = detail.testimonial;
  const target = input.target;
  const owner =
    target.kind === 'response' ? testimonial?.testimonial_responses.find((response) => response.id === target.id) : testimonial;
  if (!owner) return { state: null, url: null };
  const stored = input.videoType === 'modified' ? owner.short_video_url : owner.short_video_url_original;
  const isThisJob = Boolean(stored && input.jobId && stored.includes(input.jobId));
  return { state: owner.render_state ?? null, url: isThisJob ? stored : null };
}

/** The export did not start or did not finish; `fieldMessage` is the server's word on a refused field. */
export class ExportFailedError extends Error {
  readonly fieldMessage: string | undefined;

  constructor(message: string, fieldMessage?: string) {
    super(message);
    this.name = 'ExportFailedError';
    this.fieldMessage = fieldMessage;
  }
}

/** Fields of the export body whose refusal the person can act on (§5 crop, platform, version). */
const ACTIONABLE_FIELDS = ['cropArea', 'platform', 'videoType'];

function refusedField(error: unknown): string | undefined {
  if (!isApiError(error) || error.status < 400 || error.status >= 500 || !error.field) return undefined;
  return ACTIONABLE_FIELDS.some((field) => error.field === field || error.field?.startsWith(`${field}.`)) ? error.message : undefined;
}

/** How often the export is followed once the start call has answered, and during it. */
export const EXPORT_POLL_MS = 2000;
/** Consecutive failed checks before giving up (as the transcription job of §4). */
const MAX_FAILED_CHECKS = 5;
/** A render still unfinished after this long is reported as failed. */
const EXPORT_GIVE_UP_MS = 15 * 60_000;

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(new DOMException('Aborted', 'AbortError'));
    };
    if (signal?.aborted) abort();
    else signal?.addEventListener('abort', abort, { once: true });
  });
}

export interface RunExportInput {
  companyId: string;
  testimonialId: string;
  target: ExportTarget;
  body: TExportV2Body;
  signal?: AbortSignal;
  /** The render's real progress (percent) whenever the server reports one. */
  onProgress?: (percent: number) => void;
}

const isExportState = (state: TRenderState | null): state is TRenderState => Boolean(state && (!state.output || state.output === 'export'));

/**
 * Starts the export and follows it to the end: resolves with the exported video's address, rejects
 * with an ExportFailedError (or an AbortError when `signal` aborts). While the start call waits, the
 * render state is read every 2 s for its progress; when the start call answers before the render is
 * done, the state is followed until the address is stored.
 */
export async function runExport(input: RunExportInput): Promise<string> {
  const { signal, onProgress } = input;
  let finished = false;
  const follow = (jobId: string | undefined) =>
    readExportProgress({
      companyId: input.companyId,
      testimonialId: input.testimonialId,
      target: input.target,
      videoType: input.body.videoType,
      jobId,
      ...(signal ? { signal } : {}),
    });

  // Progress while the start call runs (best effort: a failed read changes nothing).
  const watcher = (async () => {
    while (!finished) {
      await sleep(EXPORT_POLL_MS, signal).catch(() => undefined);
      if (finished || signal?.aborted) return;
      try {
        const { state } = await follow(undefined);
        if (!finished && isExportState(state) && state.phase === 'rendering') onProgress?.(state.progress);
      } catch {
        // The start call's answer decides.
      }
    }
  })();

  let started: TExportV2Response;
  try {
    started = await startExport({ testimonialId: input.testimonialId, target: input.target, body: input.body, ...(signal ? { signal } : {}) });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    console.error('Export start failed', error);
    throw new ExportFailedError('Failed to start export. Please try again.', refusedField(error));
  } finally {
    finished = true;
  }
  await watcher;

  if (started.status === 'done' && started.exportedUrl) return started.exportedUrl;
  if (started.status === 'failed' || started.status === 'done') {
    console.error('Export failed', started);
    throw new ExportFailedError('Failed to start export. Please try again.');
  }

  const deadline = Date.now() + EXPORT_GIVE_UP_MS;
  let failedChecks = 0;
  while (Date.now() < deadline) {
    await sleep(EXPORT_POLL_MS, signal);
    let progress: ExportProgress;
    try {
      progress = await follow(started.jobId);
      failedChecks = 0;
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      failedChecks += 1;
      console.error('Export status check failed', error);
      if (failedChecks > MAX_FAILED_CHECKS) throw new ExportFailedError('Failed to start export. Please try again.');
      continue;
    }
    if (progress.url) return progress.url;
    const { state } = progress;
    if (isExportState(state)) {
      if (state.phase === 'failed') {
        console.error('Export render failed', state.error);
        throw new ExportFailedError('Failed to start export. Please try again.');
      }
      if (state.phase === 'rendering') onProgress?.(state.progress);
    }
  }
  console.error('Export did not finish in time');
  throw new ExportFailedError('Failed to start export. Please try again.');
}

/**
 * The export as a mutation. On success every query about this testimonial (its detail, the requests)
 * is fetched again, so the new vertical video shows up.
 */
export function useExportVideoMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runExport,
    onSuccess: (_url, { testimonialId }) => {
      void queryClient.invalidateQueries({ queryKey: requestsKeys.all });
      void queryClient.invalidateQueries({ predicate: (query) => query.queryKey.includes(testimonialId) });
    },
  });
}
