import { LANGUAGES } from '../../contract/constants.js';
import type { TLanguage } from '../../contract/constants.js';

/** Name of the cookie holding the interface language. */
export const LANGUAGE_COOKIE = 'i18next';
/** Local storage key holding the interface language (the detector's default key). */
export const LANGUAGE_STORAGE_KEY = 'i18nextLng';

/** Each language named in itself, as language menus show it. */
export const LANGUAGE_NATIVE_NAMES: Record<TLanguage, string> = {
  en: 'English',
  fr: 'Français',
};

/** Open Graph locale of each interface language. */
export const OG_LOCALES: Record<TLanguage, string> = {
  en: 'en_US',
  fr: 'fr_FR',
};

/** 'fr-CA' → 'fr', 'EN_us' → 'en'; null when the language is not offered. */
export function toSupportedLanguage(code: string | null | undefined): TLanguage | null {
  if (!code) return null;
  const base = code.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return (LANGUAGES as readonly string[]).includes(base) ? (base as TLanguage) : null;
}
