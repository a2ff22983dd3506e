/**
 * What the customer reads when the server refuses their link or their answers (issue 16): the
 * translation of the server's reason key, in the page's language (the request's), never the server's
 * English text. A refusal without a reason this page knows (an older or newer server, a proxy's
 * answer) is told by its status.
 */
import type { TFunction } from 'i18next';
import type { TLanguage } from '../../../contract/constants.js';
import { errorReasonText } from '../../lib/error-reason-text';
import type { TPublicQuestion } from '../../../contract/api/public.schema.js';
import type { Refusal } from './public-api';

/** The request's language, when the server names it with a refused link (expired, already sent). */
export function refusalLanguage(refusal: Refusal): TLanguage | null {
  const language = refusal.params.language;
  return language === 'en' || language === 'fr' ? language : null;
}

/**
 * Whether the link's request was already answered (the page shows 'already sent', not an error): the
 * server says so, or a 409 comes without any reason (an older server, a proxy). A 409 naming another
 * reason (the e-mail code not yet confirmed, issue 30) is that reason, never 'already sent'.
 */
export function isAlreadySent(refusal: Refusal): boolean {
  return refusal.reason === 'already_sent' || (refusal.status === 409 && !refusal.reason);
}

/** What both calls say for a refusal without a reason this page knows, by its status. */
const STATUS_TEXT = {
  404: 'errors.reasons.link_invalid',
  409: 'errors.reasons.already_sent',
  410: 'recording.refusals.expired',
  429: 'errors.reasons.rate_limited',
} as const;

type StatusKey = (typeof STATUS_TEXT)[keyof typeof STATUS_TEXT];

function refusalText(refusal: Refusal, t: TFunction, own: Record<number, StatusKey | 'recording.offlineError' | 'recording.refusals.tooLarge' | 'recording.refusals.unsupported'>, fallback: 'recording.loadError' | 'recording.complete.failed'): string {
  const known = errorReasonText(refusal.reason, refusal.params, t);
  if (known !== null) return known;
  return t(own[refusal.status] ?? STATUS_TEXT[refusal.status as keyof typeof STATUS_TEXT] ?? fallback);
}

/** The text of a refused link (GET /api/public/testimonial/validate/{token}). */
export function linkRefusalText(refusal: Refusal, t: TFunction): string {
  return refusalText(refusal, t, { 0: 'recording.offlineError', 400: 'errors.reasons.link_invalid' }, 'recording.loadError');
}

/** The text of refused answers (POST /api/public/testimonial/save). */
export function uploadRefusalText(refusal: Refusal, t: TFunction): string {
  return refusalText(refusal, t, { 413: 'recording.refusals.tooLarge', 415: 'recording.refusals.unsupported' }, 'recording.complete.failed');
}

/**
 * Where 'record again' after refused answers leads: the question of the answer the server named
 * (`answer` is 1-based, in the order the answers were sent: the questions' order, answered ones
 * only), else the first question. A chosen video refused by the server is replaced there.
 */
export function refusedQuestionIndex(refusal: Refusal | null, questions: readonly TPublicQuestion[], answered: (questionId: string) => boolean): number {
  const answer = refusal?.params.answer;
  if (typeof answer !== 'number' || !Number.isInteger(answer) || answer < 1) return 0;
  const question = questions.filter((q) => answered(q.id))[answer - 1];
  return question ? questions.indexOf(question) : 0;
}
