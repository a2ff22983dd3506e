import type { ParseKeys } from 'i18next';
import { EMAIL_PATTERN } from '../../../contract/api/common.js';

/**
 * The forms' zod messages are translation keys (spec §5 names them), translated where they show.
 * A value counts as filled when it is not blank (§5: values are trimmed for the required checks).
 */
export type TMessageKey = ParseKeys;

export const isFilled = (value: string) => value.trim().length > 0;
export const isEmail = (value: string) => EMAIL_PATTERN.test(value.trim());

/** The translation of a field error whose message is a key. */
export function messageKey(message: string | undefined): TMessageKey | undefined {
  return message ? (message as TMessageKey) : undefined;
}
