/** Every route of the web app, in one typed table; links and redirects are built from it. */
export const paths = {
  home: '/',
  signup: '/signup',
  signin: '/signin',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  authCallback: '/auth/callback',
  /** An invitation's link (issue 32): `/invitation#token=…`, the token in the fragment. */
  invitation: '/invitation',
  recording: (token: string) => `/testimonial/submit/${encodeURIComponent(token)}`,
  /** An open collection link's public address (issue 30). */
  collect: (slug: string) => `/c/${encodeURIComponent(slug)}`,
  dashboard: {
    root: '/dashboard',
    questions: '/dashboard/questions',
    requests: '/dashboard/requests',
    collectionLinks: '/dashboard/collection-links',
    request: (id: string) => `/dashboard/request/${encodeURIComponent(id)}`,
    testimonials: '/dashboard/testimonials',
    testimonial: (id: string) => `/dashboard/testimonials/${encodeURIComponent(id)}`,
    /** The printable consent record of a testimonial (issue 29), outside the dashboard's frame. */
    consentRecord: (id: string) => `/dashboard/testimonials/${encodeURIComponent(id)}/consent-record`,
    settings: '/dashboard/settings',
    payment: '/dashboard/payment',
    transaction: '/dashboard/transaction',
    wall: '/dashboard/wall',
    /** The request funnel (issue 30). */
    funnel: '/dashboard/funnel',
    /** The company's activity log (issue 32). */
    activity: '/dashboard/activity',
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
