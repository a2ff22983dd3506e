/** Every route of the web app, in one typed table; links and redirects are built from it. */
export const paths = {
  home: '/',
  signup: '/signup',
  signin: '/signin',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  authCallback: '/auth/callback',
  recording: (token: string) => `/testimonial/submit/${encodeURIComponent(token)}`,
  dashboard: {
    root: '/dashboard',
    questions: '/dashboard/questions',
    requests: '/dashboard/requests',
    request: (id: string) => `/dashboard/request/${encodeURIComponent(id)}`,
    testimonials: '/dashboard/testimonials',
    testimonial: (id: string) => `/dashboard/testimonials/${encodeURIComponent(id)}`,
    settings: '/dashboard/settings',
    payment: '/dashboard/payment',
    transaction: '/dashboard/transaction',
    wall: '/dashboard/wall',
  },
} as const;

/** Anchors of the landing page sections. */
export const landingSections = {
  features: 'features',
  howItWorks: 'how-it-works',
  pricing: 'pricing',
} as const;
export type TLandingSection = (typeof landingSections)[keyof typeof landingSections];

/** Link to a landing section from anywhere in the app. */
export function landingSectionHref(section: TLandingSection): string {
  return `${paths.home}#${section}`;
}
