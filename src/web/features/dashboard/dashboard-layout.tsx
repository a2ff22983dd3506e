import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';
import { ButtonLink } from '../../components/button';
import { ArrowLeftIcon } from '../../components/icons';
import { LanguageMenu } from '../../components/language-menu';
import { Logo } from '../../components/logo';
import { SkipLink } from '../../components/skip-link';
import { UserMenu } from '../../components/user-menu';
import { cn } from '../../lib/cn';
import { paths } from '../../lib/paths';

type TNavKey = 'overview' | 'questions' | 'requests' | 'testimonials' | 'payment' | 'transactions';

/** Sidebar items in the spec's order; the root item matches only exactly. */
const NAV_ITEMS: ReadonlyArray<{ key: TNavKey; to: string; end?: boolean }> = [
  { key: 'overview', to: paths.dashboard.root, end: true },
  { key: 'questions', to: paths.dashboard.questions },
  { key: 'requests', to: paths.dashboard.requests },
  { key: 'testimonials', to: paths.dashboard.testimonials },
  { key: 'payment', to: paths.dashboard.payment },
  { key: 'transactions', to: paths.dashboard.transaction },
];

/**
 * The dashboard frame: header (language, user menu), navigation and a centred content column. The
 * route guard (app/require-auth.tsx) lets only signed-in people in. The credit balance joins it later.
 */
export function DashboardLayout() {
  const { t } = useTranslation();

  const navLinks = (orientation: 'vertical' | 'horizontal') =>
    NAV_ITEMS.map((item) => (
      <li key={item.key} className={orientation === 'horizontal' ? 'shrink-0' : undefined}>
        <NavLink
          to={item.to}
          end={item.end}
          className={({ isActive }) =>
            cn(
              'flex items-center rounded-control px-3 text-sm font-medium transition-colors',
              orientation === 'vertical' ? 'h-9' : 'h-8 whitespace-nowrap',
              isActive ? 'bg-gray-100 text-gray-950' : 'text-gray-600 hover:bg-gray-50 hover:text-gray-900',
            )
          }
        >
          {t(`dashboard.nav.${item.key}`)}
        </NavLink>
      </li>
    ));

  return (
    <div className="flex min-h-dvh flex-col bg-gray-50">
      <SkipLink />
      <header className="sticky top-0 z-40 border-b border-gray-200 bg-white">
        <div className="flex h-16 items-center justify-between gap-4 px-4 sm:px-6">
          <Logo to={paths.dashboard.root} />
          <div className="flex items-center gap-2">
            <LanguageMenu variant="compact" />
            <div className="hidden sm:block">
              <ButtonLink to={paths.home} variant="ghost" size="sm" leadingIcon={<ArrowLeftIcon className="size-4" />}>
                {t('dashboard.nav.backToSite')}
              </ButtonLink>
            </div>
            <UserMenu />
          </div>
        </div>
        <nav aria-label={t('dashboard.nav.label')} className="border-t border-gray-100 min-[1025px]:hidden">
          <ul className="flex gap-1 overflow-x-auto px-4 py-2 sm:px-6">{navLinks('horizontal')}</ul>
        </nav>
      </header>
      <div className="flex flex-1">
        <aside className="hidden w-60 shrink-0 border-r border-gray-200 bg-white min-[1025px]:block">
          <nav aria-label={t('dashboard.nav.label')} className="sticky top-16 p-4">
            <ul className="flex flex-col gap-1">{navLinks('vertical')}</ul>
          </nav>
        </aside>
        <main id="main" className="min-w-0 flex-1">
          <div className="mx-auto w-full max-w-5xl px-4 py-8 sm:px-6 lg:px-8 lg:py-12">
            <Outlet />
          </div>
        </main>
      </div>
    </div>
  );
}
