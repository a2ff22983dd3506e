import type { TFunction } from 'i18next';
import { isApiError } from '../../../lib/api-client';
import { errorReasonText } from '../../../lib/error-reason-text';

/**
 * The server's own words for a refused call (4xx), shown under the spec's message because they say
 * what to do ('already being generated', 'unlock this testimonial'…): its reason translated when it
 * has one and `t` is given (a line of typed subtitles at fault, decision 167), else its message;
 * nothing for other failures, whose details stay in the console.
 */
export function refusalDetail(error: unknown, t?: TFunction): string | null {
  if (!isApiError(error) || error.status < 400 || error.status >= 500) return null;
  return (t ? errorReasonText(error.reason, error.params, t) : null) ?? (error.message || null);
}
