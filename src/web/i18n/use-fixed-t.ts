import type { TFunction } from 'i18next';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TLanguage } from '../../contract/constants.js';

/**
 * A translator fixed to `language`, for text shown in a language other than the interface's (a
 * request's preview speaks the customer's language). The app loads only the catalogue it shows
 * (decision 141), so the other one is fetched here first: until it has arrived, the hook gives null
 * and the caller shows its loading state, never a message key (issue 27).
 */
export function useFixedT(language: TLanguage): TFunction | null {
  const { i18n } = useTranslation();
  const [, setArrived] = useState(0);
  const loaded = i18n.hasResourceBundle(language, 'translation');
  useEffect(() => {
    if (loaded) return;
    let cancelled = false;
    void i18n.loadLanguages(language).then(() => {
      if (!cancelled) setArrived((n) => n + 1);
    });
    return () => {
      cancelled = true;
    };
  }, [i18n, language, loaded]);
  return loaded ? i18n.getFixedT(language) : null;
}
