import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../../components/button';
import { CompanySwitcher } from '../../../components/company-switcher';
import { CoinsIcon, MenuIcon, PanelLeftIcon } from '../../../components/icons';
import { LanguageMenu } from '../../../components/language-menu';
import { Logo } from '../../../components/logo';
import { UserMenu } from '../../../components/user-menu';
import { creditForm } from '../../../lib/credits';
import { paths } from '../../../lib/paths';
import { useRole } from '../../../lib/use-role';
import { SIDEBAR_ID } from './sidebar';

export interface DashboardHeaderProps {
  /** Narrow screens: the menu button opens the drawer; on desktop it collapses the sidebar. */
  drawer: boolean;
  /** Phones: the credits and the language switch move into the user menu. */
  phone: boolean;
  drawerOpen: boolean;
  collapsed: boolean;
  onMenuClick: () => void;
  menuButtonRef: Ref<HTMLButtonElement>;
  /** The balance, once known (hidden while loading or after an error). */
  credits: number | undefined;
  userMenuOpen: boolean;
  onUserMenuOpenChange: (open: boolean) => void;
  userMenuPinned: boolean;
}

/**
 * The dashboard header: menu button, logo, the credit balance with 'Buy credits' (only when the
 * balance is known), the language switch and the user menu. Test ids: `sidebar-toggle`,
 * `header-credits`, `header-buy-credits`.
 */
export function DashboardHeader({
  drawer,
  phone,
  drawerOpen,
  collapsed,
  onMenuClick,
  menuButtonRef,
  credits,
  userMenuOpen,
  onUserMenuOpenChange,
  userMenuPinned,
}: DashboardHeaderProps) {
  const { t } = useTranslation();
  const { can, companies } = useRole();
  const menuLabel = drawer
    ? t('dashboard.nav.openMenu')
    : collapsed
      ? t('dashboard.nav.expandSidebar')
      : t('dashboard.nav.collapseSidebar');

  return (
    <header className="sticky top-0 z-30 border-b border-gray-200 bg-white">
      <div className="flex h-16 items-center justify-between gap-3 px-3 sm:px-4">
        <div className="flex min-w-0 items-center gap-2">
          <button
            ref={menuButtonRef}
            type="button"
            onClick={onMenuClick}
            aria-label={menuLabel}
            aria-controls={SIDEBAR_ID}
            aria-expanded={drawer ? drawerOpen : !collapsed}
            data-testid="sidebar-toggle"
            className="inline-flex size-9 shrink-0 items-center justify-center rounded-control text-gray-600 transition-colors hover:bg-gray-100 hover:text-gray-900"
          >
            {drawer ? <MenuIcon className="size-5" /> : <PanelLeftIcon className="size-5" />}
          </button>
          <span className={phone && companies.length > 1 ? 'hidden' : 'contents'}>
            <Logo to={paths.dashboard.root} />
          </span>
          <CompanySwitcher compact={phone} />
        </div>
        <div className="flex items-center gap-1.5 sm:gap-2">
          {/* Hidden by CSS too, so a window narrowed to a phone's width fits at once, before React re-renders. */}
          {!phone && credits !== undefined && (
            <div className="hidden items-center gap-2 md:flex">
              <span
                data-testid="header-credits"
                className="inline-flex h-8 items-center gap-1.5 rounded-full border border-gray-200 bg-gray-50 px-3 text-sm font-medium text-gray-800 tabular-nums"
              >
                <CoinsIcon className="size-4 text-gray-500" />
                {t(`dashboard.header.credits.${creditForm(credits)}`, { count: credits })}
              </span>
              {can('buyCredits') && (
                <ButtonLink to={paths.dashboard.payment} variant="secondary" size="sm" data-testid="header-buy-credits">
                  {t('dashboard.header.buyCredits')}
                </ButtonLink>
              )}
            </div>
          )}
          {!phone && (
            <div className="hidden md:block">
              <LanguageMenu variant="compact" />
            </div>
          )}
          <UserMenu
            open={userMenuOpen}
            onOpenChange={onUserMenuOpenChange}
            pinned={userMenuPinned}
            compact={phone}
            credits={credits}
          />
        </div>
      </div>
    </header>
  );
}
