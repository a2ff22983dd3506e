import i18n from 'i18next';
import type { BackendModule, InitOptions, ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES } from '../../contract/constants.js';
import type { TLanguage } from '../../contract/constants.js';
import { detectionOptions, setDocumentLanguage, SupportedLanguageDetector } from './detection';
import { toSupportedLanguage } from './language';

/**
 * Each language's catalogue is a chunk of its own (docs/decisions/141): the app fetches the one it
 * shows, and the other only when the visitor switches (`changeLanguage` waits for it, so the page
 * never shows keys). English is chosen when the browser offers nothing usable (spec §9). There is
 * no fallback language: `translations.test.ts` keeps the two catalogues' keys identical, so a
 * fallback would only ever cost the download of the second catalogue. The customer's recording
 * page has its own, smaller set-up (recording-i18n.ts).
 */
export type TCatalogues = Record<TLanguage, () => Promise<{ default: ResourceKey }>>;

export const CATALOGUES: TCatalogues = {
  en: () => import('./en.json'),
  fr: () => import('./fr.json'),
};

/** An i18next backend that imports a language's catalogue chunk. */
export function catalogueBackend(catalogues: TCatalogues = CATALOGUES): BackendModule {
  return {
    type: 'backend',
    callbackApi: true,
    init: () => undefined,
    read(language, _namespace, callback) {
      const lng = toSupportedLanguage(language);
      if (!lng) {
        callback(null, {});
        return;
      }
      catalogues[lng]().then(
        (module) => callback(null, module.default),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
      );
    },
  };
}

/** The app's i18next options (the detector's come from detection.ts). */
export function i18nOptions(): InitOptions {
  return {
    supportedLngs: [...LANGUAGES],
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    fallbackLng: false,
    // Start loading at once (the backend is asynchronous either way).
    initAsync: false,
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  };
}

i18n.on('languageChanged', setDocumentLanguage);

/** Settles once the current language's catalogue has arrived (main.tsx renders then). */
export const i18nReady: Promise<unknown> = i18n
  .use(catalogueBackend())
  .use(SupportedLanguageDetector)
  .use(initReactI18next)
  .init({ ...i18nOptions(), detection: detectionOptions() });

setDocumentLanguage(i18n.resolvedLanguage ?? i18n.language);

export default i18n;
