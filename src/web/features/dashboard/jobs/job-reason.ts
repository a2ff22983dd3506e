import type { TFunction } from 'i18next';
import { JOB_REASON_MESSAGES, JOB_REASONS, type TJobError } from '../../../../contract/api/jobs.schema.js';

/**
 * Why a job failed, in the person's language: `jobs.reasons.<reason>` with the reason's parameters
 * ({{minutes}}…); the server's English message when a reason has no translation yet.
 */
export function jobErrorText(t: TFunction, error: TJobError | null | undefined): string {
  if (!error) return t('jobs.failed');
  return t(`jobs.reasons.${error.reason}`, { ...error.params, defaultValue: error.message });
}

/**
 * A server message that is a job reason's English message (a merged transcription's answer carries
 * only the message), in the person's language; any other text as it is.
 */
export function jobMessageText(t: TFunction, message: string): string {
  const reason = JOB_REASONS.find((r) => JOB_REASON_MESSAGES[r] === message);
  return reason ? t(`jobs.reasons.${reason}`) : message;
}
