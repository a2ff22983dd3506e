import { useTranslation } from 'react-i18next';
import type { TLanguageCode } from '../../../../contract/api/common.js';
import { toSupportedLanguage } from '../../../i18n/language';

/** The interface language, sent with generation calls so the e-mail and captions match it (French is the fallback, spec §9). */
export function useStudioLanguage(): TLanguageCode {
  const { i18n } = useTranslation();
  return toSupportedLanguage(i18n.resolvedLanguage ?? i18n.language) ?? 'fr';
}
