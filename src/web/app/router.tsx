import { createBrowserRouter, matchRoutes } from 'react-router';
import type { RouteObject } from 'react-router';
import { AppErrorPage } from './error-page';
import { NotFoundPage } from './not-found-page';
import { RequireAuth } from './require-auth';
import { AppLoading, RootLayout } from './root-layout';

type TDashboardScreens = typeof import('../features/dashboard/dashboard-screens');

/** A placeholder dashboard screen (later issues), loaded from the placeholders' chunk. */
function dashboardScreen(name: keyof TDashboardScreens): RouteObject['lazy'] {
  return async () => ({ Component: (await import('../features/dashboard/dashboard-screens'))[name] });
}

/** Each built screen is its own chunk (dnd-kit loads only with the questions screen). */
const dashboardRoutes: RouteObject[] = [
  {
    index: true,
    lazy: async () => ({ Component: (await import('../features/dashboard/overview/overview-screen')).OverviewScreen }),
  },
  {
    path: 'questions',
    lazy: async () => ({ Component: (await import('../features/dashboard/questions/questions-screen')).QuestionsScreen }),
  },
  {
    path: 'requests',
    lazy: async () => ({ Component: (await import('../features/dashboard/requests/requests-screen')).RequestsScreen }),
  },
  {
    path: 'request/:id',
    lazy: async () => ({
      Component: (await import('../features/dashboard/requests/request-detail-screen')).RequestDetailScreen,
    }),
  },
  {
    path: 'collection-links',
    lazy: async () => ({ Component: (await import('../features/dashboard/collection/collection-links-screen')).CollectionLinksScreen }),
  },
  {
    path: 'testimonials',
    lazy: async () => ({ Component: (await import('../features/dashboard/testimonials/testimonials-screen')).TestimonialsScreen }),
  },
  {
    path: 'testimonials/:id',
    lazy: async () => ({ Component: (await import('../features/dashboard/testimonial-detail/testimonial-detail-screen')).TestimonialDetailScreen }),
  },
  {
    path: 'wall',
    lazy: async () => ({ Component: (await import('../features/dashboard/wall/wall-screen')).WallScreen }),
  },
  {
    path: 'settings',
    lazy: async () => ({ Component: (await import('../features/dashboard/settings/settings-screen')).SettingsScreen }),
  },
  {
    path: 'payment',
    lazy: async () => ({ Component: (await import('../features/dashboard/payment/payment-screen')).PaymentScreen }),
  },
  {
    path: 'transaction',
    lazy: async () => ({
      Component: (await import('../features/dashboard/transactions/transactions-screen')).TransactionsScreen,
    }),
  },
  {
    path: 'funnel',
    lazy: async () => ({ Component: (await import('../features/dashboard/funnel/funnel-screen')).FunnelScreen }),
  },
  {
    path: 'activity',
    lazy: async () => ({ Component: (await import('../features/dashboard/activity/activity-screen')).ActivityScreen }),
  },
  // Spec: any other dashboard path shows a placeholder saying the page is under construction.
  { path: '*', lazy: dashboardScreen('UnderConstructionScreen') },
];

/**
 * Every screen is a lazily loaded chunk, so the landing page never downloads dashboard code. Each
 * chunk module exports its screen as a named component. The customer's recording page
 * (/testimonial/submit/:token) is not here: it is its own entry, recording.html, which the server
 * answers for that path (docs/decisions/125).
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootLayout,
    HydrateFallback: AppLoading,
    ErrorBoundary: AppErrorPage,
    children: [
      {
        index: true,
        lazy: async () => ({ Component: (await import('../features/landing/landing-page')).LandingPage }),
      },
      { path: 'signup', lazy: async () => ({ Component: (await import('../features/auth/signup-page')).SignupPage }) },
      { path: 'signin', lazy: async () => ({ Component: (await import('../features/auth/signin-page')).SigninPage }) },
      {
        path: 'forgot-password',
        lazy: async () => ({ Component: (await import('../features/auth/forgot-password-page')).ForgotPasswordPage }),
      },
      {
        path: 'reset-password',
        lazy: async () => ({ Component: (await import('../features/auth/reset-password-page')).ResetPasswordPage }),
      },
      {
        path: 'invitation',
        lazy: async () => ({ Component: (await import('../features/auth/invitation-page')).InvitationPage }),
      },
      {
        path: 'auth/callback',
        lazy: async () => ({ Component: (await import('../features/auth/auth-callback-page')).AuthCallbackPage }),
      },
      {
        // The guard is part of the main bundle; the dashboard's code loads behind it.
        Component: RequireAuth,
        children: [
          {
            path: 'dashboard',
            lazy: async () => ({ Component: (await import('../features/dashboard/dashboard-layout')).DashboardLayout }),
            children: dashboardRoutes,
          },
          {
            // The printable consent record (issue 29): signed in, but outside the dashboard's frame.
            path: 'dashboard/testimonials/:id/consent-record',
            lazy: async () => ({
              Component: (await import('../features/dashboard/testimonial-detail/consent-record-page')).ConsentRecordPage,
            }),
          },
        ],
      },
      { path: '*', Component: NotFoundPage },
    ],
  },
];

/**
 * The app's router. When the page arrived prerendered (the landing page, app/prerender.tsx), the
 * screens of its path are loaded first, so the router starts with them and hydrates the HTML as it
 * is instead of showing its fallback.
 */
export async function createAppRouter(options: { prerendered: boolean }) {
  if (options.prerendered) {
    const lazyMatches = (matchRoutes(routes, window.location) ?? []).filter((match) => match.route.lazy);
    await Promise.all(
      lazyMatches.map(async ({ route }) => {
        const loaded = await (route.lazy as () => Promise<Partial<RouteObject>>)();
        Object.assign(route, { ...loaded, lazy: undefined });
      }),
    );
  }
  return createBrowserRouter(routes);
}
