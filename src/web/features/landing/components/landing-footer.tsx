import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Container } from '../../../components/container';
import { Logo } from '../../../components/logo';
import { BRAND_NAME } from '../../../lib/brand';
import { landingSectionHref, paths } from '../../../lib/paths';

const linkClass = 'rounded-control text-sm text-gray-600 transition-colors hover:text-gray-950';

export function LandingFooter() {
  const { t } = useTranslation();
  const year = new Date().getFullYear();
  return (
    <footer className="render-when-visible border-t border-gray-200 bg-gray-50">
      <Container className="grid grid-cols-2 gap-10 py-12 sm:grid-cols-[2fr_1fr_1fr] sm:py-16">
        <div className="col-span-2 sm:col-span-1">
          <Logo />
          <p className="mt-4 max-w-xs text-sm text-gray-600">{t('landing.footer.tagline')}</p>
        </div>
        <nav aria-label={t('landing.footer.navLabel')} className="contents">
          <div>
            <h2 className="text-sm font-semibold text-gray-950">{t('landing.footer.product')}</h2>
            <ul className="mt-4 space-y-3">
              <li>
                <Link to={landingSectionHref('features')} className={linkClass}>
                  {t('nav.features')}
                </Link>
              </li>
              <li>
                <Link to={landingSectionHref('how-it-works')} className={linkClass}>
                  {t('nav.howItWorks')}
                </Link>
              </li>
              <li>
                <Link to={landingSectionHref('pricing')} className={linkClass}>
                  {t('nav.pricing')}
                </Link>
              </li>
            </ul>
          </div>
          <div>
            <h2 className="text-sm font-semibold text-gray-950">{t('landing.footer.account')}</h2>
            <ul className="mt-4 space-y-3">
              <li>
                <Link to={paths.signin} className={linkClass}>
                  {t('nav.signIn')}
                </Link>
              </li>
              <li>
                <Link to={paths.signup} className={linkClass}>
                  {t('landing.footer.createAccount')}
                </Link>
              </li>
            </ul>
          </div>
        </nav>
      </Container>
      <div className="border-t border-gray-200">
        <Container className="py-6">
          <p className="text-sm text-gray-500">{t('common.copyright', { year, brand: BRAND_NAME })}</p>
        </Container>
      </div>
    </footer>
  );
}
