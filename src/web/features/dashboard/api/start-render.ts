import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TLanguageCode } from '../../../../contract/api/common.js';
import type { API } from '../../../../contract/api/paths.js';
import { ZRenderJobResponse } from '../../../../contract/api/studio.schema.js';
import type { TRenderJobResponse } from '../../../../contract/api/studio.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { markRenderStarted } from './get-testimonial';

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
 * in the background and its state is read back through the testimonial detail.
 */
export function startResponseRender(endpoint: TResponseRenderEndpoint, { responseId, language }: ResponseRenderInput): Promise<TRenderJobResponse> {
  return apiFetch(endpoint.path(responseId), { method: endpoint.method, body: { language }, schema: ZRenderJobResponse });
}

/** Starts a render of the whole testimonial (merge, merge again), answering as startResponseRender. */
export function startTestimonialRender(endpoint: TTestimonialRenderEndpoint, { testimonialId, language }: TestimonialRenderInput): Promise<TRenderJobResponse> {
  return apiFetch(endpoint.path(testimonialId), { method: endpoint.method, body: { language }, schema: ZRenderJobResponse });
}

/** Starts the job, then marks it running in the cached detail (every action disabled) and reads it again. */
export function useResponseRenderMutation(endpoint: TResponseRenderEndpoint) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ResponseRenderInput) => startResponseRender(endpoint, input),
    onSuccess: (result, { companyId, testimonialId, responseId }) =>
      markRenderStarted(queryClient, { companyId, testimonialId, target: { kind: 'response', id: responseId }, state: result.state }),
  });
}

/** As useResponseRenderMutation, for a render of the whole testimonial. */
export function useTestimonialRenderMutation(endpoint: TTestimonialRenderEndpoint) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TestimonialRenderInput) => startTestimonialRender(endpoint, input),
    onSuccess: (result, { companyId, testimonialId }) =>
      markRenderStarted(queryClient, { companyId, testimonialId, target: { kind: 'testimonial' }, state: result.state }),
  });
}
