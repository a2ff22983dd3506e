/**
 * The messages of the settings forms: the contract's validation issues and the server's errors, as
 * keys under `settings.errors` (spec §5 and §8). The contract writes its messages in English for the
 * API; the interface shows them in the person's language.
 */
import type { TFunction } from 'i18next';
import type { z } from 'zod';
import { HEX_COLOR_MESSAGE, TEXT_LIMITS } from '../../../../contract/api/common.js';
import { LOGO_NOT_IMAGE_MESSAGE, LOGO_TOO_LARGE_MESSAGE, LOGO_TOO_MANY_PIXELS_MESSAGE } from '../../../../contract/api/settings.schema.js';
import { END_CARD_LIMITS, FONT_SIZE_LIMITS } from '../../../../contract/constants.js';
import { ERROR_CODES } from '../../../../contract/errors.js';
import type { TErrorCode } from '../../../../contract/errors.js';
import { isApiError } from '../../../lib/api-client';

export type TSettingsErrorKey =
  | 'companyRequired'
  | 'companyTooLong'
  | 'nameExists'
  | 'language'
  | 'fontSize'
  | 'fontSizeWhole'
  | 'hexColor'
  | 'font'
  | 'logoUrl'
  | 'notImage'
  | 'notImageKinds'
  | 'tooLarge'
  | 'tooManyPixels'
  | 'emptyFile'
  | 'damagedImage'
  | 'generic'
  | 'uploadGeneric'
  | 'endCardTextTooLong'
  | 'endCardAddressTooLong'
  | 'onOff';

/**
 * What to show: a translated message (`settings.errors.<key>`), a backend code's translation
 * (`errors.codes.<code>`), or the server's own text.
 */
export type TMessage =
  { key: TSettingsErrorKey; values?: Record<string, number> } | { code: TErrorCode } | { text: string };

/** The contract's whole-number message of the font sizes. */
const WHOLE_NUMBER_MESSAGE = 'Font size must be a whole number';

/** The message of one validation issue of the contract's settings schemas, by field. */
export function issueMessage(field: string, issue: Pick<z.core.$ZodIssue, 'code' | 'message'>): TMessage {
  switch (field) {
    case 'font_size_question':
    case 'font_size_subtitle': {
      if (issue.message === WHOLE_NUMBER_MESSAGE) return { key: 'fontSizeWhole' };
      const limits = field === 'font_size_question' ? FONT_SIZE_LIMITS.question : FONT_SIZE_LIMITS.subtitle;
      return { key: 'fontSize', values: { min: limits.min, max: limits.max } };
    }
    case 'font_color_question':
    case 'font_color_subtitle':
    case 'background_color':
      return { key: 'hexColor' };
    case 'font_style_question':
    case 'font_style_subtitle':
      return { key: 'font' };
    case 'logo_url':
      return { key: 'logoUrl' };
    case 'end_card_text':
      return { key: 'endCardTextTooLong', values: { max: END_CARD_LIMITS.text } };
    case 'end_card_address':
      return { key: 'endCardAddressTooLong', values: { max: END_CARD_LIMITS.address } };
    case 'lower_third':
    case 'end_card':
      return { key: 'onOff' };
    case 'company_name':
      return issue.code === 'too_big'
        ? { key: 'companyTooLong', values: { max: TEXT_LIMITS.companyName } }
        : { key: 'companyRequired' };
    case 'mail_language':
      return { key: 'language' };
    case 'type':
    case 'size':
      // The logo file (ZLogoFileInfo).
      if (issue.message === LOGO_NOT_IMAGE_MESSAGE) return { key: 'notImage' };
      if (issue.message === LOGO_TOO_LARGE_MESSAGE) return { key: 'tooLarge' };
      return { key: 'emptyFile' };
    default:
      return issue.message === HEX_COLOR_MESSAGE ? { key: 'hexColor' } : { text: issue.message };
  }
}

/** The first issue of each field, as messages. */
export function fieldMessages<F extends string>(error: z.ZodError): Partial<Record<F, TMessage>> {
  const out: Partial<Record<F, TMessage>> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '') as F;
    if (!(field in out)) out[field] = issueMessage(field, issue);
  }
  return out;
}

/** Server texts the interface knows and translates (the contract's and the logo service's). */
const KNOWN_SERVER_TEXTS: readonly [(text: string) => boolean, TSettingsErrorKey][] = [
  [(text) => text === LOGO_NOT_IMAGE_MESSAGE, 'notImage'],
  [(text) => text.startsWith(LOGO_NOT_IMAGE_MESSAGE), 'notImageKinds'],
  [(text) => text === LOGO_TOO_LARGE_MESSAGE, 'tooLarge'],
  [(text) => text === LOGO_TOO_MANY_PIXELS_MESSAGE, 'tooManyPixels'],
  [(text) => text.startsWith('This image is damaged or incomplete'), 'damagedImage'],
];

/**
 * A failed save or upload (spec §8): the server's error field if present, otherwise a generic message.
 * The server writes English; texts the interface knows, name_exists and, outside English, the backend
 * code are shown translated, so a French page never shows an English sentence.
 */
export function failureMessage(error: unknown, fallback: 'generic' | 'uploadGeneric', language: string): TMessage {
  if (!isApiError(error) || error.status === 0) return { key: fallback };
  if (error.code === 'name_exists') return { key: 'nameExists' };
  const text = error.message.trim();
  const known = KNOWN_SERVER_TEXTS.find(([matches]) => matches(text));
  if (known) return { key: known[1] };
  if (!text) return { key: fallback };
  if (language.toLowerCase().startsWith('en')) return { text };
  if ((ERROR_CODES as readonly string[]).includes(error.code) && error.code !== 'unknown') return { code: error.code };
  return { key: fallback };
}

/** The text of a message in the current language. */
export function messageText(t: TFunction, message: TMessage): string {
  if ('key' in message) return t(`settings.errors.${message.key}`, message.values ?? {});
  if ('code' in message) return t(`errors.codes.${message.code}`);
  return message.text;
}
