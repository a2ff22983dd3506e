import LanguageDetector from 'i18next-browser-languagedetector';
import type { DetectorOptions } from 'i18next-browser-languagedetector';
import { DEFAULT_LANGUAGE } from '../../contract/constants.js';
import type { TLanguage } from '../../contract/constants.js';
import { cookieDomainFor } from './cookie-domain';
import { LANGUAGE_COOKIE, LANGUAGE_STORAGE_KEY, toSupportedLanguage } from './language';

const ONE_YEAR_IN_MINUTES = 60 * 24 * 365;

/**
 * The browser detector, narrowed to the languages we offer: regional codes reduce to their base
 * language, and when nothing usable is found English is chosen (spec §9). Used by the app and by
 * the recording page's own entry, so both read and keep the preference the same way.
 */
export class SupportedLanguageDetector extends LanguageDetector {
  override detect(order?: DetectorOptions['order']): string[] {
    const found = super.detect(order);
    const codes = Array.isArray(found) ? found : found ? [found] : [];
    const usable = codes.map(toSupportedLanguage).filter((lng): lng is TLanguage => lng !== null);
    return usable.length > 0 ? [...new Set(usable)] : [DEFAULT_LANGUAGE];
  }
}

/** Where the language preference is read from and kept (spec §3: a cookie and local storage). */
export function detectionOptions(): DetectorOptions {
  const cookieDomain = typeof window === 'undefined' ? undefined : cookieDomainFor(window.location.hostname);
  return {
    order: ['cookie', 'localStorage', 'navigator'],
    caches: ['cookie', 'localStorage'],
    lookupCookie: LANGUAGE_COOKIE,
    lookupLocalStorage: LANGUAGE_STORAGE_KEY,
    cookieMinutes: ONE_YEAR_IN_MINUTES,
    cookieOptions: {
      path: '/',
      sameSite: 'lax',
      ...(cookieDomain ? { domain: cookieDomain } : {}),
    },
  };
}

/** `<html lang>` follows the interface language. */
export function setDocumentLanguage(lng: string | undefined): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = toSupportedLanguage(lng) ?? DEFAULT_LANGUAGE;
}
