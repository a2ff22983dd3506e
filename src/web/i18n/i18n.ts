import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import type { DetectorOptions } from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, FALLBACK_LANGUAGE, LANGUAGES } from '../../contract/constants.js';
import type { TLanguage } from '../../contract/constants.js';
import { cookieDomainFor } from './cookie-domain';
import { LANGUAGE_COOKIE, LANGUAGE_STORAGE_KEY, toSupportedLanguage } from './language';
import en from './en.json';
import fr from './fr.json';

const ONE_YEAR_IN_MINUTES = 60 * 24 * 365;

/**
 * The browser detector, narrowed to the languages we offer: regional codes reduce to their base
 * language, and when nothing usable is found English is chosen (spec §9), while `fallbackLng`
 * (French) still serves keys missing from a language.
 */
class SupportedLanguageDetector extends LanguageDetector {
  override detect(order?: DetectorOptions['order']): string[] {
    const found = super.detect(order);
    const codes = Array.isArray(found) ? found : found ? [found] : [];
    const usable = codes.map(toSupportedLanguage).filter((lng): lng is TLanguage => lng !== null);
    return usable.length > 0 ? [...new Set(usable)] : [DEFAULT_LANGUAGE];
  }
}

function setDocumentLanguage(lng: string | undefined): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = toSupportedLanguage(lng) ?? DEFAULT_LANGUAGE;
}

const cookieDomain = typeof window === 'undefined' ? undefined : cookieDomainFor(window.location.hostname);

i18n.on('languageChanged', setDocumentLanguage);

void i18n
  .use(SupportedLanguageDetector)
  .use(initReactI18next)
  .init({
    resources: {
      en: { translation: en },
      fr: { translation: fr },
    },
    supportedLngs: [...LANGUAGES],
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    fallbackLng: FALLBACK_LANGUAGE,
    initAsync: false,
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
    detection: {
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
    },
  });

setDocumentLanguage(i18n.resolvedLanguage ?? i18n.language);

export default i18n;
