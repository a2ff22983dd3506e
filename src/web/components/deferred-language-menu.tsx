import { useTranslation } from 'react-i18next';
import { LANGUAGE_NATIVE_NAMES } from '../i18n/language';
import { useLanguage } from '../i18n/use-language';
import { useDeferredMenu } from './deferred-menu';
import type { LanguageMenuProps } from './language-menu';
import { LanguageMenuTriggerContent, languageMenuTriggerClass } from './language-menu-trigger';

const loadLanguageMenu = () => import('./language-menu');

/**
 * The language menu of the public pages (landing, not found, error), without Radix in their first
 * paint: a stand-in trigger until pressed (deferred-menu.tsx), then the real `LanguageMenu`, open.
 */
export function DeferredLanguageMenu({ variant = 'full', align, className }: Omit<LanguageMenuProps, 'defaultOpen'>) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { mounted, standIn } = useDeferredMenu(loadLanguageMenu);
  if (mounted) {
    return <mounted.LanguageMenu variant={variant} defaultOpen {...(align ? { align } : {})} {...(className ? { className } : {})} />;
  }
  return (
    <button
      {...standIn}
      data-testid="language-menu"
      aria-label={t('language.current', { language: LANGUAGE_NATIVE_NAMES[language] })}
      className={languageMenuTriggerClass(className)}
    >
      <LanguageMenuTriggerContent language={language} variant={variant} />
    </button>
  );
}
