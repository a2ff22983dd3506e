import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZConsentRecord } from '../../../../contract/api/consent.schema.js';
import type { TConsentRecord } from '../../../../contract/api/consent.schema.js';
import { API } from '../../../../contract/api/paths.js';
import { apiFetch } from '../../../lib/api-client';
import { testimonialKeys } from './get-testimonial';

/**
 * GET /api/testimonials/{id}/consent-record (issue 29): the consent as the customer accepted it and
 * everything after it (withdrawal, removals, approvals, media deleted), oldest first. The detail screen's
 * timeline, its JSON download and the printable page all read this one answer.
 */
export function getConsentRecord(id: string, signal?: AbortSignal): Promise<TConsentRecord> {
  return apiFetch(API.consent.record.path(id), { method: API.consent.record.method, schema: ZConsentRecord, signal });
}

/** Under the testimonials' key: anything that reads the testimonials again reads the record too. */
export const consentRecordKeys = {
  detail: (id: string) => [...testimonialKeys.all, 'consent-record', id] as const,
};

export const consentRecordQueryOptions = (id: string) =>
  queryOptions({
    queryKey: consentRecordKeys.detail(id),
    queryFn: ({ signal }) => getConsentRecord(id, signal),
  });

/** The consent record of a testimonial; idle while `enabled` is false. */
export function useConsentRecord(id: string, enabled = true) {
  return useQuery({ ...consentRecordQueryOptions(id), enabled: enabled && Boolean(id) });
}
