import type { TLanguage } from '../../contract/constants.js';
import { LANGUAGE_NATIVE_NAMES } from '../i18n/language';
import { cn } from '../lib/cn';
import { ChevronDownIcon, GlobeIcon } from './icons';

export type TLanguageMenuVariant = 'full' | 'compact';

/** The language menu's trigger, its look: shared by the Radix menu and the landing page's stand-in. */
export function languageMenuTriggerClass(className?: string): string {
  return cn(
    'inline-flex h-9 items-center gap-1.5 rounded-control px-2 text-sm sm:px-2.5 font-medium text-gray-700',
    'transition-colors hover:bg-gray-100 hover:text-gray-900 data-[state=open]:bg-gray-100',
    className,
  );
}

/** What the trigger shows: a globe, the language ('compact': its code), a chevron (not on phones in 'compact'). */
export function LanguageMenuTriggerContent({ language, variant }: { language: TLanguage; variant: TLanguageMenuVariant }) {
  return (
    <>
      <GlobeIcon className="size-4 text-gray-500" />
      <span>{variant === 'compact' ? language.toUpperCase() : LANGUAGE_NATIVE_NAMES[language]}</span>
      <ChevronDownIcon className={cn('size-3.5 text-gray-500', variant === 'compact' && 'max-sm:hidden')} />
    </>
  );
}
