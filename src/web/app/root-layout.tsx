import { Outlet, ScrollRestoration, useNavigation } from 'react-router';
import { AuthProvider } from '../lib/auth-context';
import { cn } from '../lib/cn';

/** The root of every route: the auth state, scroll handling, and a thin bar while the next page's code loads. */
export function RootLayout() {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle';
  return (
    <>
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
    </>
  );
}

/** Shown while the first page's code loads (before the router has rendered anything). */
export function AppLoading() {
  return <div className="min-h-dvh bg-white" aria-busy="true" />;
}
