import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../../contract/constants.js';
import type { TLanguage } from '../../contract/constants.js';
import { LANGUAGE_NATIVE_NAMES, toSupportedLanguage } from '../i18n/language';
import { useLanguage } from '../i18n/use-language';
import { cn } from '../lib/cn';
import { CheckIcon } from './icons';
import { LanguageMenuTriggerContent, languageMenuTriggerClass } from './language-menu-trigger';
import type { TLanguageMenuVariant } from './language-menu-trigger';

export interface LanguageMenuProps {
  /** 'full' shows the language name, 'compact' its code (narrow headers; no chevron on phones). */
  variant?: TLanguageMenuVariant;
  /** Open at first render (the landing page mounts the menu when its stand-in is pressed). */
  defaultOpen?: boolean;
  /** Which edge of the trigger the menu lines up with. */
  align?: 'start' | 'end';
  className?: string;
}

/**
 * The interface language switch (Radix dropdown: keyboard operable, Escape closes, arrows move).
 * Test ids: the trigger `language-menu`, the items `language-option-en` and `language-option-fr`.
 */
export function LanguageMenu({ variant = 'full', defaultOpen, align = 'end', className }: LanguageMenuProps) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const currentName = LANGUAGE_NATIVE_NAMES[language];

  return (
    <DropdownMenu.Root {...(defaultOpen ? { defaultOpen } : {})}>
      <DropdownMenu.Trigger
        data-testid="language-menu"
        aria-label={t('language.current', { language: currentName })}
        className={languageMenuTriggerClass(className)}
      >
        <LanguageMenuTriggerContent language={language} variant={variant} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align={align}
          sideOffset={6}
          className="z-50 min-w-44 rounded-card border border-gray-200 bg-white p-1 shadow-overlay data-[state=open]:animate-fade-in"
        >
          <DropdownMenu.Label className="px-3 pt-2 pb-1 text-xs font-medium text-gray-500">
            {t('language.label')}
          </DropdownMenu.Label>
          <LanguageRadioItems
            testIdPrefix="language-option"
            itemClassName={cn(
              'flex cursor-default items-center justify-between gap-4 rounded-control px-3 py-2 text-sm text-gray-800 outline-none select-none',
              'data-[highlighted]:bg-gray-100 data-[state=checked]:font-medium data-[state=checked]:text-gray-950',
            )}
          />
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** The languages as radio items of a dropdown menu, the current one checked; choosing one switches. */
export function LanguageRadioItems({ testIdPrefix, itemClassName }: { testIdPrefix: string; itemClassName: string }) {
  const { language, setLanguage } = useLanguage();
  return (
    <DropdownMenu.RadioGroup
      value={language}
      onValueChange={(value) => {
        const next = toSupportedLanguage(value);
        if (next) void setLanguage(next);
      }}
    >
      {LANGUAGES.map((lng: TLanguage) => (
        <DropdownMenu.RadioItem key={lng} value={lng} lang={lng} data-testid={`${testIdPrefix}-${lng}`} className={itemClassName}>
          {LANGUAGE_NATIVE_NAMES[lng]}
          <DropdownMenu.ItemIndicator>
            <CheckIcon className="size-4 text-brand-700" />
          </DropdownMenu.ItemIndicator>
        </DropdownMenu.RadioItem>
      ))}
    </DropdownMenu.RadioGroup>
  );
}
