/**
 * View analytics of publications (issue 19): the players of the public pages send a beacon when a
 * video starts and when it passes 25, 50, 75 and 100 %; the company reads totals and a daily series.
 * Counted without cookies or personal data (docs/decisions/144-views-counted-without-personal-data.md).
 */
import { z } from 'zod';
import { ZId } from './common.js';

/** What a beacon reports: the video started, or passed a quarter of its length. */
export const VIEW_MILESTONES = ['started', 'p25', 'p50', 'p75', 'p100'] as const;
export type TViewMilestone = (typeof VIEW_MILESTONES)[number];

/**
 * POST /api/publications/views (public; JSON or a form body, as `navigator.sendBeacon` sends it) → 204;
 * 403 when its Origin is another site's. It counts only with the view token that the player's page was
 * served with (`data-view-token`, decision 155); without one it is answered the same and counts nothing.
 */
export const ZViewBeaconBody = z.object({
  slug: z.string({ error: 'slug is required' }).regex(/^[A-Za-z0-9_-]{1,64}$/, 'slug must be the slug of a publication'),
  milestone: z.enum(VIEW_MILESTONES, { error: `milestone must be one of ${VIEW_MILESTONES.join(', ')}` }),
  token: z.string().max(100, 'token must be the view token of the page').optional(),
});
export type TViewBeaconBody = z.infer<typeof ZViewBeaconBody>;

/** How many viewers reached each milestone. `started` is the number of plays. */
export const ZViewCounts = z.object({
  started: z.number().int().nonnegative(),
  p25: z.number().int().nonnegative(),
  p50: z.number().int().nonnegative(),
  p75: z.number().int().nonnegative(),
  p100: z.number().int().nonnegative(),
});
export type TViewCounts = z.infer<typeof ZViewCounts>;

/** The longest series a call may ask for, in days. */
export const VIEW_SERIES_MAX_DAYS = 90;

/** ?days= of the series calls (1–90, 30 by default). */
export const ZViewSeriesQuery = z.object({
  days: z.coerce.number().int().min(1).max(VIEW_SERIES_MAX_DAYS).default(30),
});
export type TViewSeriesQuery = z.infer<typeof ZViewSeriesQuery>;

/** One day (UTC) of a series: plays started and played to the end, and the quarters between. */
export const ZViewDay = ZViewCounts.extend({
  /** YYYY-MM-DD (UTC). */
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** The same as p100: plays watched to the end. */
  completed: z.number().int().nonnegative(),
});
export type TViewDay = z.infer<typeof ZViewDay>;

/**
 * GET /api/publications/{id}/views?days= and GET /api/testimonials/{id}/views?days=: the last `days`
 * days, oldest first, every day present (0 when nobody watched); totals since the first publication.
 */
export const ZViewSeriesResponse = z.object({
  days: z.array(ZViewDay),
  /** Every view counted, all days (a testimonial's: of all its publications, taken down ones included). */
  totals: ZViewCounts,
  /** Live publications of the subject (a publication: 1 or 0). */
  published: z.number().int().nonnegative(),
});
export type TViewSeriesResponse = z.infer<typeof ZViewSeriesResponse>;

/** GET /api/publications/plays: plays per testimonial of the company (those with at least one). */
export const ZTestimonialPlaysResponse = z.object({
  testimonials: z.array(z.object({ testimonialId: ZId, plays: z.number().int().nonnegative() })),
});
export type TTestimonialPlaysResponse = z.infer<typeof ZTestimonialPlaysResponse>;
