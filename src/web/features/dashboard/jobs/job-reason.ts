import type { TFunction } from 'i18next';
import type { TJobError } from '../../../../contract/api/jobs.schema.js';

/**
 * Why a job failed, in the person's language: `jobs.reasons.<reason>` with the reason's parameters
 * ({{minutes}}…); the server's English message when a reason has no translation yet.
 */
export function jobErrorText(t: TFunction, error: TJobError | null | undefined): string {
  if (!error) return t('jobs.failed');
  return t(`jobs.reasons.${error.reason}`, { ...error.params, defaultValue: error.message });
}
