import { isApiError } from '../../../lib/api-client';

/**
 * The server's own words for a refused call (4xx), shown under the spec's message because they say
 * what to do ('already being generated', 'unlock this testimonial'…); nothing for other failures,
 * whose details stay in the console.
 */
export function refusalDetail(error: unknown): string | null {
  return isApiError(error) && error.status >= 400 && error.status < 500 && error.message ? error.message : null;
}
