import type { TFunction } from 'i18next';
import { ERROR_CODES } from '../../contract/errors.js';
import { isApiError } from './api-client';
import { errorReasonText } from './error-reason-text';

export { errorReasonText };

/**
 * The text shown for a failed call: the server's reason translated under `errors.reasons.<reason>`
 * when this client knows it (issue 16), else (spec §8) the auth errorKey under `auth.errors.<key>`,
 * else the backend code under `errors.codes.<code>`, else 'auth.generic'.
 */
export function apiErrorMessage(error: unknown, t: TFunction): string {
  if (isApiError(error) && error.status !== 0) {
    const reasoned = errorReasonText(error.reason, error.params, t);
    if (reasoned !== null) return reasoned;
    if (error.errorKey) return t(`auth.errors.${error.errorKey}`);
    if ((ERROR_CODES as readonly string[]).includes(error.code) && error.code !== 'unknown') {
      return t(`errors.codes.${error.code}`);
    }
  }
  return t('auth.generic');
}
