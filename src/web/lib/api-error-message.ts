import type { TFunction } from 'i18next';
import { ERROR_CODES } from '../../contract/errors.js';
import { isApiError } from './api-client';

/**
 * The text shown for a failed call (spec §8): the auth errorKey translated under `auth.errors.<key>`,
 * else the backend code under `errors.codes.<code>`, else 'auth.generic'.
 */
export function apiErrorMessage(error: unknown, t: TFunction): string {
  if (isApiError(error) && error.status !== 0) {
    if (error.errorKey) return t(`auth.errors.${error.errorKey}`);
    if ((ERROR_CODES as readonly string[]).includes(error.code) && error.code !== 'unknown') {
      return t(`errors.codes.${error.code}`);
    }
  }
  return t('auth.generic');
}
