import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MenuIcon } from '../../../components/icons';
import { cn } from '../../../lib/cn';
import { landingSectionHref, paths } from '../../../lib/paths';
import type { TLandingSection } from '../../../lib/paths';

const menuItemClass =
  'flex cursor-default items-center rounded-control px-3 py-2 text-sm text-gray-800 outline-none select-none data-[highlighted]:bg-gray-100';

/**
 * The landing header's phone menu, with Radix: a chunk of its own, which the header fetches when the
 * visitor points at or focuses its stand-in and mounts when it is pressed (components/deferred-menu.tsx).
 * It imports nothing from the landing page's chunk (the header hands it the sections and the
 * trigger's look): a module shared with it would cost the page's chunk its name in Vite's manifest.
 */
export interface MobileMenuProps {
  /** The page's sections, as the header links them. */
  sections: ReadonlyArray<{ section: TLandingSection; key: 'features' | 'howItWorks' | 'pricing' }>;
  /** The trigger's look, the same as the header's stand-in. */
  triggerClassName: string;
  defaultOpen?: boolean;
}

export function MobileMenu({ sections, triggerClassName, defaultOpen }: MobileMenuProps) {
  const { t } = useTranslation();
  return (
    <DropdownMenu.Root modal={false} {...(defaultOpen ? { defaultOpen } : {})}>
      <DropdownMenu.Trigger data-testid="mobile-menu" aria-label={t('nav.openMenu')} className={triggerClassName}>
        <MenuIcon className="size-5" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={10}
          className="z-50 min-w-56 rounded-card border border-gray-200 bg-white p-1 shadow-overlay data-[state=open]:animate-fade-in"
        >
          <DropdownMenu.Label className="px-3 pt-2 pb-1 text-xs font-medium text-gray-500">{t('nav.menu')}</DropdownMenu.Label>
          {sections.map(({ section, key }) => (
            <DropdownMenu.Item key={section} asChild className={menuItemClass}>
              <Link to={landingSectionHref(section)}>{t(`nav.${key}`)}</Link>
            </DropdownMenu.Item>
          ))}
          <DropdownMenu.Separator className="my-1 h-px bg-gray-200" />
          <DropdownMenu.Item asChild className={cn(menuItemClass, 'font-medium')}>
            <Link to={paths.signin}>{t('nav.signIn')}</Link>
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
