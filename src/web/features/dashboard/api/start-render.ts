import { useMutation } from '@tanstack/react-query';
import type { TLanguageCode } from '../../../../contract/api/common.js';
import type { API } from '../../../../contract/api/paths.js';
import { ZRenderJobResponse } from '../../../../contract/api/studio.schema.js';
import type { TRenderJobResponse } from '../../../../contract/api/studio.schema.js';
import { apiFetch } from '../../../lib/api-client';

/** The render start calls about one answer, and those about the whole testimonial (body `{ language }`). */
export type TResponseRenderEndpoint = typeof API.studio.generateIntro | typeof API.studio.regenerate;
export type TTestimonialRenderEndpoint = typeof API.studio.merge | typeof API.studio.regenerateMerged;

export interface ResponseRenderInput {
  companyId: string;
  testimonialId: string;
  responseId: string;
  /** The interface language, for the 'your video is ready' e-mail. */
  language: TLanguageCode;
}

export interface TestimonialRenderInput {
  companyId: string;
  testimonialId: string;
  language: TLanguageCode;
}

/**
 * Starts a render of one answer. It answers at once with the job and its queued state; the work runs
 * in the background and is followed through GET /api/jobs/{jobId}.
 */
export function startResponseRender(endpoint: TResponseRenderEndpoint, { responseId, language }: ResponseRenderInput): Promise<TRenderJobResponse> {
  return apiFetch(endpoint.path(responseId), { method: endpoint.method, body: { language }, schema: ZRenderJobResponse });
}

/** Starts a render of the whole testimonial (merge, merge again), answering as startResponseRender. */
export function startTestimonialRender(endpoint: TTestimonialRenderEndpoint, { testimonialId, language }: TestimonialRenderInput): Promise<TRenderJobResponse> {
  return apiFetch(endpoint.path(testimonialId), { method: endpoint.method, body: { language }, schema: ZRenderJobResponse });
}

/**
 * A render start of one answer as a mutation. The caller follows the job it answers with (the detail
 * page: markRenderStarted, then useJob).
 */
export function useResponseRenderMutation(endpoint: TResponseRenderEndpoint) {
  return useMutation({ mutationFn: (input: ResponseRenderInput) => startResponseRender(endpoint, input) });
}

/** As useResponseRenderMutation, for a render of the whole testimonial. */
export function useTestimonialRenderMutation(endpoint: TTestimonialRenderEndpoint) {
  return useMutation({ mutationFn: (input: TestimonialRenderInput) => startTestimonialRender(endpoint, input) });
}
