import { useEffect, useRef } from 'react';
import type { ComponentType, KeyboardEvent, SVGProps } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import {
  CloseIcon,
  CreditCardIcon,
  FunnelIcon,
  HomeIcon,
  LifeBuoyIcon,
  LinkIcon,
  QuestionsIcon,
  ReceiptIcon,
  SendIcon,
  VideoIcon,
  WallIcon,
} from '../../../components/icons';
import { Logo } from '../../../components/logo';
import { useAppConfig } from '../../../lib/api/get-app-config';
import { cn } from '../../../lib/cn';
import { paths } from '../../../lib/paths';
import { useRole } from '../../../lib/use-role';

export type TNavKey = 'overview' | 'questions' | 'requests' | 'collectionLinks' | 'testimonials' | 'wall' | 'payment' | 'transactions' | 'funnel';

/** Sidebar items in the spec's order; the root item matches only exactly. */
export const NAV_ITEMS: ReadonlyArray<{
  key: TNavKey;
  to: string;
  end?: boolean;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
}> = [
  { key: 'overview', to: paths.dashboard.root, end: true, icon: HomeIcon },
  { key: 'questions', to: paths.dashboard.questions, icon: QuestionsIcon },
  { key: 'requests', to: paths.dashboard.requests, icon: SendIcon },
  { key: 'collectionLinks', to: paths.dashboard.collectionLinks, icon: LinkIcon },
  { key: 'testimonials', to: paths.dashboard.testimonials, icon: VideoIcon },
  { key: 'wall', to: paths.dashboard.wall, icon: WallIcon },
  { key: 'payment', to: paths.dashboard.payment, icon: CreditCardIcon },
  { key: 'transactions', to: paths.dashboard.transaction, icon: ReceiptIcon },
  { key: 'funnel', to: paths.dashboard.funnel, icon: FunnelIcon },
];

export const SIDEBAR_ID = 'dashboard-sidebar';

const FOCUSABLE = 'a[href], button:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface SidebarProps {
  /** Narrow screens (≤ 1024 px): an overlay drawer instead of a column. */
  drawer: boolean;
  /** The drawer is open (narrow screens). */
  open: boolean;
  /** Desktop only: icons without labels. */
  collapsed: boolean;
  /** Closes the drawer; `restoreFocus` returns focus to the menu button (Escape, overlay, close button). */
  onClose: (restoreFocus: boolean) => void;
}

/**
 * The dashboard's navigation. On desktop a sticky column that can be collapsed to icons; at 1024 px
 * and below a drawer over the page, opened by the header's menu button and closed by a link, the
 * overlay, its close button or Escape, with the focus kept inside while it is open.
 * Test ids: `dashboard-sidebar`, `nav-<key>`, `sidebar-help`, `drawer-close`, `drawer-overlay`.
 */
export function Sidebar({ drawer, open, collapsed, onClose }: SidebarProps) {
  const { t } = useTranslation();
  const { can } = useRole();
  const { data: config } = useAppConfig();
  const panel = useRef<HTMLElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const isOpenDrawer = drawer && open;
  const iconsOnly = !drawer && collapsed;

  // Opening the drawer moves focus into it; Escape closes it.
  useEffect(() => {
    if (!isOpenDrawer) return;
    closeButton.current?.focus();
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') onClose(true);
    };
    document.addEventListener('keydown', onKeyDown);
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.body.style.overflow = previousOverflow;
    };
  }, [isOpenDrawer, onClose]);

  /** Tab and Shift+Tab cycle inside the open drawer. */
  const trapFocus = (event: KeyboardEvent<HTMLElement>) => {
    if (!isOpenDrawer || event.key !== 'Tab' || !panel.current) return;
    const items = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const supportEmail = config?.supportEmail;

  return (
    <>
      {isOpenDrawer && (
        <div
          aria-hidden="true"
          data-testid="drawer-overlay"
          onClick={() => onClose(true)}
          className="fixed inset-0 z-40 bg-gray-950/40 animate-fade-in"
        />
      )}
      <aside
        ref={panel}
        id={SIDEBAR_ID}
        data-testid="dashboard-sidebar"
        data-state={drawer ? (open ? 'open' : 'closed') : collapsed ? 'collapsed' : 'expanded'}
        role={isOpenDrawer ? 'dialog' : undefined}
        aria-modal={isOpenDrawer || undefined}
        aria-label={t('dashboard.nav.label')}
        inert={drawer && !open}
        onKeyDown={trapFocus}
        className={cn(
          'overflow-clip border-r border-gray-200 bg-white',
          drawer
            ? cn(
                'fixed inset-y-0 left-0 z-50 w-72 max-w-[85vw] shadow-overlay duration-300 ease-out motion-reduce:transition-none',
                // Visible at once when opening (so focus can move in), hidden only once it has slid out.
                open ? 'visible translate-x-0 transition-transform' : 'invisible -translate-x-full transition-[transform,visibility]',
              )
            : cn('shrink-0 transition-[width] duration-200 motion-reduce:transition-none', collapsed ? 'w-16' : 'w-60'),
        )}
      >
        <div className={cn('flex flex-col', drawer ? 'h-full' : 'sticky top-16 h-[calc(100dvh-4rem)]')}>
          {drawer && (
            <div className="flex h-16 shrink-0 items-center justify-between border-b border-gray-100 px-4">
              <Logo to={paths.dashboard.root} />
              <button
                ref={closeButton}
                type="button"
                onClick={() => onClose(true)}
                aria-label={t('dashboard.nav.closeMenu')}
                data-testid="drawer-close"
                className="inline-flex size-9 items-center justify-center rounded-control text-gray-600 transition-colors hover:bg-gray-100 hover:text-gray-900"
              >
                <CloseIcon className="size-5" />
              </button>
            </div>
          )}
          <nav aria-label={t('dashboard.nav.label')} className={cn('flex-1 overflow-y-auto', iconsOnly ? 'p-3' : 'p-4')}>
            <ul className="flex flex-col gap-1">
              {/* Buying credits is an owner's (issue 32): the entry is not offered to editors and viewers. */}
              {NAV_ITEMS.filter(({ key }) => key !== 'payment' || can('buyCredits')).map(({ key, to, end, icon: Icon }) => (
                <li key={key}>
                  <NavLink
                    to={to}
                    end={end}
                    data-testid={`nav-${key}`}
                    data-tour={`nav-${key}`}
                    title={iconsOnly ? t(`dashboard.nav.${key}`) : undefined}
                    onClick={() => {
                      if (drawer) onClose(false);
                    }}
                    className={({ isActive }) =>
                      cn(
                        'flex h-10 items-center gap-3 rounded-control text-sm font-medium transition-colors',
                        iconsOnly ? 'justify-center px-0' : 'px-3',
                        isActive
                          ? 'bg-brand-50 text-brand-800'
                          : 'text-gray-600 hover:bg-gray-100 hover:text-gray-900',
                      )
                    }
                  >
                    <Icon className="size-5 shrink-0" />
                    <span className={cn(iconsOnly && 'sr-only')}>{t(`dashboard.nav.${key}`)}</span>
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          {supportEmail && (
            <div className={cn('border-t border-gray-100', iconsOnly ? 'p-3' : 'p-4')}>
              <a
                href={`mailto:${supportEmail}`}
                data-testid="sidebar-help"
                title={iconsOnly ? t('dashboard.nav.help') : undefined}
                className={cn(
                  'flex items-center gap-3 rounded-control py-2 text-sm text-gray-600 transition-colors hover:bg-gray-100 hover:text-gray-900',
                  iconsOnly ? 'justify-center px-0' : 'px-3',
                )}
              >
                <LifeBuoyIcon className="size-5 shrink-0" />
                <span className={cn('min-w-0', iconsOnly && 'sr-only')}>
                  <span className="block font-medium">{t('dashboard.nav.help')}</span>
                  <span className="block truncate text-xs text-gray-500">{supportEmail}</span>
                </span>
              </a>
            </div>
          )}
        </div>
      </aside>
    </>
  );
}
