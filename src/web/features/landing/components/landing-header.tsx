import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ButtonLink } from '../../../components/button';
import { Container } from '../../../components/container';
import { MenuIcon } from '../../../components/icons';
import { LanguageMenu } from '../../../components/language-menu';
import { Logo } from '../../../components/logo';
import { cn } from '../../../lib/cn';
import { landingSectionHref, paths } from '../../../lib/paths';
import type { TLandingSection } from '../../../lib/paths';

const SECTION_LINKS: ReadonlyArray<{ section: TLandingSection; key: 'features' | 'howItWorks' | 'pricing' }> = [
  { section: 'features', key: 'features' },
  { section: 'how-it-works', key: 'howItWorks' },
  { section: 'pricing', key: 'pricing' },
];

const menuItemClass =
  'flex cursor-default items-center rounded-control px-3 py-2 text-sm text-gray-800 outline-none select-none data-[highlighted]:bg-gray-100';

/** Sticky header: logo, section anchors (a menu on phones), language, sign in, get started. */
export function LandingHeader() {
  const { t } = useTranslation();
  return (
    <header className="sticky top-0 z-40 border-b border-gray-200/80 bg-white/90 backdrop-blur-md">
      <Container className="flex h-16 items-center gap-2">
        <Logo className="lg:mr-6" />
        <nav aria-label={t('nav.main')} className="hidden lg:block">
          <ul className="flex items-center gap-1">
            {SECTION_LINKS.map(({ section, key }) => (
              <li key={section}>
                <Link
                  to={landingSectionHref(section)}
                  className="inline-flex h-9 items-center rounded-control px-3 text-sm font-medium whitespace-nowrap text-gray-600 transition-colors hover:bg-gray-100 hover:text-gray-900"
                >
                  {t(`nav.${key}`)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>

        <div className="ml-auto flex items-center gap-1 sm:gap-2">
          <LanguageMenu variant="compact" />
          <div className="hidden sm:block">
            <ButtonLink to={paths.signin} variant="ghost" size="md">
              {t('nav.signIn')}
            </ButtonLink>
          </div>
          <ButtonLink to={paths.signup} variant="primary" size="md" data-testid="get-started">
            {t('nav.getStarted')}
          </ButtonLink>

          <DropdownMenu.Root modal={false}>
            <DropdownMenu.Trigger
              data-testid="mobile-menu"
              aria-label={t('nav.openMenu')}
              className="inline-flex size-9 items-center justify-center rounded-control text-gray-700 transition-colors hover:bg-gray-100 data-[state=open]:bg-gray-100 lg:hidden"
            >
              <MenuIcon className="size-5" />
            </DropdownMenu.Trigger>
            <DropdownMenu.Portal>
              <DropdownMenu.Content
                align="end"
                sideOffset={10}
                className="z-50 min-w-56 rounded-card border border-gray-200 bg-white p-1 shadow-overlay data-[state=open]:animate-fade-in"
              >
                <DropdownMenu.Label className="px-3 pt-2 pb-1 text-xs font-medium text-gray-500">
                  {t('nav.menu')}
                </DropdownMenu.Label>
                {SECTION_LINKS.map(({ section, key }) => (
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
        </div>
      </Container>
    </header>
  );
}
