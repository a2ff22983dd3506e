import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { FALLBACK_LANGUAGE, LANGUAGES } from '../../contract/constants.js';
import { detectionOptions, setDocumentLanguage, SupportedLanguageDetector } from './detection';
import en from './en.json';
import fr from './fr.json';

/**
 * The app's translations: both catalogues, English chosen when the browser offers nothing usable
 * (spec §9), while `fallbackLng` (French) still serves keys missing from a language. The customer's
 * recording page has its own, smaller set-up (recording-i18n.ts).
 */
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
    detection: detectionOptions(),
  });

setDocumentLanguage(i18n.resolvedLanguage ?? i18n.language);

export default i18n;
