import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ButtonLink } from '../../../components/button';
import { Container } from '../../../components/container';
import { DeferredLanguageMenu } from '../../../components/deferred-language-menu';
import { useDeferredMenu } from '../../../components/deferred-menu';
import { MenuIcon } from '../../../components/icons';
import { Logo } from '../../../components/logo';
import { landingSectionHref, paths } from '../../../lib/paths';
import type { TLandingSection } from '../../../lib/paths';

const SECTION_LINKS: ReadonlyArray<{ section: TLandingSection; key: 'features' | 'howItWorks' | 'pricing' }> = [
  { section: 'features', key: 'features' },
  { section: 'how-it-works', key: 'howItWorks' },
  { section: 'pricing', key: 'pricing' },
];

/** The phone menu's trigger, its look: the stand-in's and the Radix menu's (mobile-menu.tsx). */
const MOBILE_MENU_TRIGGER_CLASS =
  'inline-flex size-9 items-center justify-center rounded-control text-gray-700 transition-colors hover:bg-gray-100 data-[state=open]:bg-gray-100 lg:hidden';

/** The phone menu (Radix), a chunk fetched on the visitor's first sign of interest (decision 141). */
const loadMobileMenu = () => import('./mobile-menu');

/** Sticky header: logo, section anchors (a menu on phones), language, sign in, get started. */
export function LandingHeader() {
  const { t } = useTranslation();
  const mobileMenu = useDeferredMenu(loadMobileMenu);
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
          <DeferredLanguageMenu variant="compact" />
          <div className="hidden sm:block">
            <ButtonLink to={paths.signin} variant="ghost" size="md">
              {t('nav.signIn')}
            </ButtonLink>
          </div>
          <ButtonLink to={paths.signup} variant="primary" size="md" data-testid="get-started">
            {t('nav.getStarted')}
          </ButtonLink>

          {mobileMenu.mounted ? (
            <mobileMenu.mounted.MobileMenu sections={SECTION_LINKS} triggerClassName={MOBILE_MENU_TRIGGER_CLASS} defaultOpen />
          ) : (
            <button {...mobileMenu.standIn} data-testid="mobile-menu" aria-label={t('nav.openMenu')} className={MOBILE_MENU_TRIGGER_CLASS}>
              <MenuIcon className="size-5" />
            </button>
          )}
        </div>
      </Container>
    </header>
  );
}
