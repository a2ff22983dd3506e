import type { QueryClient } from '@tanstack/react-query';
import { consentRecordKeys } from './get-consent-record';
import { testimonialKeys } from './get-testimonial';

/** The testimonial a consent call changed, named as its queries are. */
export interface TConsentSubject {
  companyId: string;
  testimonialId: string;
}

/** After a consent or approval call: reads the testimonial's detail and its consent record again. */
export function invalidateConsentSubject(queryClient: QueryClient, { companyId, testimonialId }: TConsentSubject): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: testimonialKeys.detail(companyId, testimonialId) }),
    queryClient.invalidateQueries({ queryKey: consentRecordKeys.detail(testimonialId) }),
  ]).then(() => undefined);
}
