import { useMutation } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZExportV2Response } from '../../../../contract/api/studio.schema.js';
import type { TExportV2Body, TExportV2Response } from '../../../../contract/api/studio.schema.js';
import { apiFetch, isApiError } from '../../../lib/api-client';

/** What is exported: one answer, or the testimonial's merged video. */
export type ExportTarget = { kind: 'response'; id: string } | { kind: 'testimonial' };

/**
 * POST /api/testimonials/response/{id}/export-v2 or POST /api/testimonials/{id}/export-v2. The server
 * answers at once `{ status: 'queued', exportedUrl: null, jobId, state }` and never waits: the export
 * is the job's output (its `outputUrl` once ready), followed with useJob.
 */
export function startExport(input: { testimonialId: string; target: ExportTarget; body: TExportV2Body }): Promise<TExportV2Response> {
  const endpoint = input.target.kind === 'response' ? API.studio.exportResponse : API.studio.exportTestimonial;
  const id = input.target.kind === 'response' ? input.target.id : input.testimonialId;
  return apiFetch(endpoint.path(id), { method: endpoint.method, body: input.body, schema: ZExportV2Response });
}

/** The export did not start; `fieldMessage` is the server's word on a refused field the person can fix. */
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

/** How the export goes on once started: the job to follow, or (an older server) the finished address. */
export type TExportStart = { jobId: string; url: null } | { jobId: null; url: string };

/**
 * Starts an export. Resolves with the job to follow; rejects with an ExportFailedError (the §8
 * message, and the server's word on a refused crop area, platform or version).
 */
export async function runExportStart(input: { testimonialId: string; target: ExportTarget; body: TExportV2Body }): Promise<TExportStart> {
  let started: TExportV2Response;
  try {
    started = await startExport(input);
  } catch (error) {
    console.error('Export start failed', error);
    throw new ExportFailedError('Failed to start export. Please try again.', refusedField(error));
  }
  if (started.status !== 'failed' && started.jobId) return { jobId: started.jobId, url: null };
  if (started.status === 'done' && started.exportedUrl) return { jobId: null, url: started.exportedUrl };
  console.error('Export failed', started);
  throw new ExportFailedError('Failed to start export. Please try again.');
}

/** The export's start call as a mutation; the dialog follows the job it answers with. */
export function useStartExportMutation() {
  return useMutation({ mutationFn: runExportStart });
}
