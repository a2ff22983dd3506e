import i18n from 'i18next';
import type { BackendModule, ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGES } from '../../contract/constants.js';
import type { TLanguage } from '../../contract/constants.js';
import { detectionOptions, setDocumentLanguage, SupportedLanguageDetector } from './detection';
import { toSupportedLanguage } from './language';

/** Each language's messages of the recording page, a chunk of their own, loaded when spoken. */
const catalogues: Record<TLanguage, () => Promise<{ default: ResourceKey }>> = {
  en: () => import('./recording-messages.en'),
  fr: () => import('./recording-messages.fr'),
};

const recordingMessages: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read: (language, _namespace, callback) => {
    const load = catalogues[toSupportedLanguage(language) ?? DEFAULT_LANGUAGE];
    load().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

/**
 * The translations of the customer's recording page (its own entry, docs/decisions/125): the same
 * detection and kept preference as the app, but only the messages the page reads, and only in the
 * language it speaks. The browser's language first; the request's language once the link is read
 * (`changeLanguage` then loads that language's messages). No fallback language: both catalogues hold
 * every key (translations.test.ts), and a fallback would load the other language too.
 */
export async function initRecordingI18n(): Promise<typeof i18n> {
  i18n.on('languageChanged', setDocumentLanguage);
  await i18n
    .use(SupportedLanguageDetector)
    .use(recordingMessages)
    .use(initReactI18next)
    .init({
      supportedLngs: [...LANGUAGES],
      nonExplicitSupportedLngs: true,
      load: 'languageOnly',
      fallbackLng: false,
      interpolation: { escapeValue: false },
      react: { useSuspense: false },
      detection: detectionOptions(),
    });
  return i18n;
}
