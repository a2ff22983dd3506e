import { useTranslation } from 'react-i18next';
import { DEFAULT_LANGUAGE } from '../../contract/constants.js';
import type { TLanguage } from '../../contract/constants.js';
import { toSupportedLanguage } from './language';

/** The current interface language, reduced to 'en' or 'fr', and a setter that persists it. */
export function useLanguage(): { language: TLanguage; setLanguage: (lng: TLanguage) => Promise<void> } {
  const { i18n } = useTranslation();
  const language = toSupportedLanguage(i18n.resolvedLanguage ?? i18n.language) ?? DEFAULT_LANGUAGE;
  const setLanguage = async (lng: TLanguage) => {
    await i18n.changeLanguage(lng);
  };
  return { language, setLanguage };
}
