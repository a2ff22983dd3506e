import type { TFunction } from 'i18next';
import { isErrorReason, type TErrorParams } from '../../contract/error-reasons.js';

/**
 * The translation of a server's reason key (`errors.reasons.<reason>`, with its parameters), or null
 * for a reason this client does not know (a server newer than the page). No schema code: the
 * customer's recording page uses it.
 */
export function errorReasonText(reason: string | null | undefined, params: TErrorParams | undefined, t: TFunction): string | null {
  if (!isErrorReason(reason)) return null;
  return t(`errors.reasons.${reason}`, { ...params });
}
