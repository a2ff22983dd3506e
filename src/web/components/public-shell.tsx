import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BRAND_NAME } from '../lib/brand';
import { landingSectionHref, paths } from '../lib/paths';
import { Container } from './container';
import { DeferredLanguageMenu } from './deferred-language-menu';
import { Logo } from './logo';
import { SkipLink } from './skip-link';

export interface PublicShellProps {
  children: ReactNode;
}

/** The frame of the public pages other than the landing page: logo, language, content, short footer. */
export function PublicShell({ children }: PublicShellProps) {
  const { t } = useTranslation();
  const year = new Date().getFullYear();
  return (
    <div className="flex min-h-dvh flex-col bg-gray-50">
      <SkipLink />
      <header className="border-b border-gray-200 bg-white">
        <Container className="flex h-16 items-center justify-between gap-4">
          <Logo />
          <DeferredLanguageMenu variant="compact" />
        </Container>
      </header>
      <main id="main" className="flex flex-1 items-center py-12 sm:py-16">
        <Container width="sm">{children}</Container>
      </main>
      <footer className="border-t border-gray-200 bg-white">
        <Container className="flex flex-col items-center justify-between gap-3 py-6 text-sm text-gray-500 sm:flex-row">
          <p>{t('common.copyright', { year, brand: BRAND_NAME })}</p>
          <nav aria-label={t('landing.footer.navLabel')} className="flex gap-6">
            <Link to={landingSectionHref('features')} className="rounded-control hover:text-gray-900">
              {t('nav.features')}
            </Link>
            <Link to={landingSectionHref('pricing')} className="rounded-control hover:text-gray-900">
              {t('nav.pricing')}
            </Link>
            <Link to={paths.signin} className="rounded-control hover:text-gray-900">
              {t('nav.signIn')}
            </Link>
          </nav>
        </Container>
      </footer>
    </div>
  );
}
