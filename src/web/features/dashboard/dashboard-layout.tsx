import { useCallback, useEffect, useRef, useState } from 'react';
import { Outlet } from 'react-router';
import { SkipLink } from '../../components/skip-link';
import { useAuth } from '../../lib/auth-context';
import { MEDIA, useMediaQuery } from '../../lib/use-media-query';
import { useStats } from './api/get-stats';
import { DashboardHeader } from './components/dashboard-header';
import { Sidebar } from './components/sidebar';
import { useOnboardingTour } from './onboarding/use-onboarding-tour';

const COLLAPSED_KEY = 'sidebarCollapsed';

function readCollapsed(): boolean {
  try {
    return localStorage.getItem(COLLAPSED_KEY) === 'true';
  } catch {
    return false;
  }
}

/**
 * The dashboard frame (spec §2): header with the credit balance always in sight, the sidebar (a
 * collapsible column on desktop, a drawer at 1024 px and below) and a centred content column. The
 * route guard (app/require-auth.tsx) lets only signed-in people in; every screen marks itself
 * noindex. The onboarding tour starts from here.
 */
export function DashboardLayout() {
  const { user } = useAuth();
  const drawer = useMediaQuery(MEDIA.drawer);
  const phone = useMediaQuery(MEDIA.mobile);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [collapsed, setCollapsed] = useState(readCollapsed);
  const [userMenuOpen, setUserMenuOpen] = useState(false);
  const [userMenuPinned, setUserMenuPinned] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const stats = useStats(user?.company_id);
  const isDrawerOpen = drawer && drawerOpen;

  useEffect(() => {
    // Spec §8: a failed credits or stats fetch is only logged; the balance is simply not shown.
    if (stats.error) console.warn('GET /api/testimonials/stats failed.', stats.error);
  }, [stats.error]);

  const onMenuClick = () => {
    if (drawer) {
      setDrawerOpen(true);
      return;
    }
    setCollapsed((current) => {
      const next = !current;
      try {
        localStorage.setItem(COLLAPSED_KEY, String(next));
      } catch {
        // The choice then lasts for this page only.
      }
      return next;
    });
  };

  /** Set when the drawer closes by Escape, the overlay or its close button: focus goes back to the menu button. */
  const restoreFocus = useRef(false);
  const closeDrawer = useCallback((refocus: boolean) => {
    restoreFocus.current = refocus;
    setDrawerOpen(false);
  }, []);
  // After the commit: the header is no longer inert then, so the button can take focus.
  useEffect(() => {
    if (isDrawerOpen || !restoreFocus.current) return;
    restoreFocus.current = false;
    menuButton.current?.focus();
  }, [isDrawerOpen]);

  const pinUserMenu = useCallback((pinned: boolean) => {
    setUserMenuPinned(pinned);
    setUserMenuOpen(pinned);
  }, []);

  useOnboardingTour({ setDrawerOpen, setUserMenuPinned: pinUserMenu });

  return (
    <div className="flex min-h-dvh flex-col bg-gray-50">
      <SkipLink />
      <div inert={isDrawerOpen} className="contents">
        <DashboardHeader
          drawer={drawer}
          phone={phone}
          drawerOpen={isDrawerOpen}
          collapsed={collapsed}
          onMenuClick={onMenuClick}
          menuButtonRef={menuButton}
          credits={stats.data?.credits}
          userMenuOpen={userMenuOpen}
          onUserMenuOpenChange={setUserMenuOpen}
          userMenuPinned={userMenuPinned}
        />
      </div>
      <div className="flex flex-1">
        <Sidebar drawer={drawer} open={drawerOpen} collapsed={collapsed} onClose={closeDrawer} />
        <main id="main" inert={isDrawerOpen} className="min-w-0 flex-1">
          <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:px-6 sm:py-8 lg:px-8 lg:py-10">
            {/* Keyed by the active company: a switch remounts every screen, so none keeps another company's data. */}
            <div key={user?.company_id ?? 'none'} className="contents">
              <Outlet />
            </div>
          </div>
        </main>
      </div>
    </div>
  );
}
