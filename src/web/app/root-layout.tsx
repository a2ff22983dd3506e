import { lazy, Suspense, useMemo, useState } from 'react';
import { Link, Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router';
import { AuthProvider } from '../lib/auth-context';
import { cn } from '../lib/cn';
import { NavigationContext } from '../lib/navigation';
import type { TAppLinkProps, TNavigation } from '../lib/navigation';
import { paths } from '../lib/paths';

/** react-toastify and its stylesheet, fetched only when a page that can toast is shown (decision 141). */
const Toasts = lazy(() => import('./toasts'));

/** The shared components' links (lib/navigation.tsx), inside the app: the router's. */
function routerLink(props: TAppLinkProps) {
  return <Link {...props} />;
}

/**
 * The root of every route: the auth state, scroll handling, a thin bar while the next page's code
 * loads, the router's links and location for the shared components (lib/navigation.tsx), and the
 * toasts once they can be needed.
 */
export function RootLayout() {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle';
  const { pathname } = useLocation();
  const links = useMemo<TNavigation>(() => ({ renderLink: routerLink, pathname }), [pathname]);
  // The landing page never toasts: the container comes with the first other page, and then stays.
  const [toasts, setToasts] = useState(false);
  if (!toasts && pathname !== paths.home) setToasts(true);
  return (
    <NavigationContext value={links}>
      <div
        aria-hidden="true"
        className={cn(
          'pointer-events-none fixed inset-x-0 top-0 z-[70] h-0.5 origin-left bg-brand-600 transition-[opacity,transform] duration-300',
          busy ? 'scale-x-75 opacity-100' : 'scale-x-0 opacity-0',
        )}
      />
      <AuthProvider>
        <Outlet />
      </AuthProvider>
      <ScrollRestoration />
      {toasts && (
        <Suspense fallback={null}>
          <Toasts />
        </Suspense>
      )}
    </NavigationContext>
  );
}

/** Shown while the first page's code loads (before the router has rendered anything). */
export function AppLoading() {
  return <div className="min-h-dvh bg-white" aria-busy="true" />;
}
