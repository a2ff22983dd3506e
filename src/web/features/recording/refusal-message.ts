/**
 * What the customer reads when the server refuses their link or their answers (issue 16): the
 * translation of the server's reason key, in the page's language (the request's), never the server's
 * English text. A refusal without a reason this page knows (an older or newer server, a proxy's
 * answer) is told by its status.
 */
import type { TFunction } from 'i18next';
import type { TLanguage } from '../../../contract/constants.js';
import { errorReasonText } from '../../lib/error-reason-text';
import type { Refusal } from './public-api';

/** The request's language, when the server names it with a refused link (expired, already sent). */
export function refusalLanguage(refusal: Refusal): TLanguage | null {
  const language = refusal.params.language;
  return language === 'en' || language === 'fr' ? language : null;
}

/** Whether the link's request was already answered (the page shows 'already sent', not an error). */
export function isAlreadySent(refusal: Refusal): boolean {
  return refusal.reason === 'already_sent' || refusal.status === 409;
}

/** The text of a refused link (GET /api/public/testimonial/validate/{token}). */
export function linkRefusalText(refusal: Refusal, t: TFunction): string {
  const known = errorReasonText(refusal.reason, refusal.params, t);
  if (known !== null) return known;
  switch (refusal.status) {
    case 0:
      return t('recording.offlineError');
    case 400:
    case 404:
      return t('errors.reasons.link_invalid');
    case 409:
      return t('errors.reasons.already_sent');
    case 410:
      return t('recording.refusals.expired');
    case 429:
      return t('errors.reasons.rate_limited');
    default:
      return t('recording.loadError');
  }
}

/** The text of refused answers (POST /api/public/testimonial/save). */
export function uploadRefusalText(refusal: Refusal, t: TFunction): string {
  const known = errorReasonText(refusal.reason, refusal.params, t);
  if (known !== null) return known;
  switch (refusal.status) {
    case 404:
      return t('errors.reasons.link_invalid');
    case 409:
      return t('errors.reasons.already_sent');
    case 410:
      return t('recording.refusals.expired');
    case 413:
      return t('recording.refusals.tooLarge');
    case 415:
      return t('recording.refusals.unsupported');
    case 429:
      return t('errors.reasons.rate_limited');
    default:
      return t('recording.complete.failed');
  }
}
