/**
 * The request funnel (issue 30): counts per step for a period, the breakdowns per collection link and per
 * language, one request's timeline, and the customer page's progress beacon.
 */
import { z } from 'zod';
import { REQUEST_LANGUAGES } from '../constants.js';
import { ZId, ZIsoDateTime } from './common.js';
import { ZRequestToken } from './public.schema.js';

/** The steps of an invitation (a request the company sent or copied), in order. */
export const INVITATION_STEPS = ['sent', 'delivered', 'opened', 'device_ok', 'first_answer', 'submitted'] as const;
/** The steps of a collection link: its visitors, then the requests they started. */
export const LINK_STEPS = ['link_opened', 'sent', 'opened', 'device_ok', 'first_answer', 'submitted'] as const;
export const FUNNEL_STEPS = ['link_opened', 'sent', 'delivered', 'opened', 'device_ok', 'first_answer', 'submitted'] as const;
export type TFunnelStep = (typeof FUNNEL_STEPS)[number];

/** The longest period one funnel covers (a year and a day, so a leap year fits). */
export const FUNNEL_MAX_DAYS = 366;

const DATE_MESSAGE = 'Expected a date like 2026-11-28';
/** A calendar day, YYYY-MM-DD, that exists. */
export const ZCalendarDay = z
  .string({ error: DATE_MESSAGE })
  .regex(/^\d{4}-\d{2}-\d{2}$/, DATE_MESSAGE)
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, DATE_MESSAGE);

const dayNumber = (s: string) => Date.parse(`${s}T00:00:00Z`) / 86_400_000;

/**
 * `GET /api/funnel?from&to&link_id&language`. The period is in the company's time zone, both days included.
 * Without `from`/`to` the server takes the last 30 days. An empty `link_id`/`language` means all.
 */
export const ZFunnelQuery = z
  .object({
    from: ZCalendarDay.optional(),
    to: ZCalendarDay.optional(),
    link_id: z.union([ZId, z.literal('')]).optional(),
    language: z.union([z.enum(REQUEST_LANGUAGES), z.literal('')]).optional(),
  })
  .refine((q) => (q.from === undefined) === (q.to === undefined), { message: 'Give both ends of the period, or neither', path: ['to'] })
  .refine((q) => !q.from || !q.to || dayNumber(q.from) <= dayNumber(q.to), { message: 'The period must end on or after its first day', path: ['to'] })
  .refine((q) => !q.from || !q.to || dayNumber(q.to) - dayNumber(q.from) < FUNNEL_MAX_DAYS, {
    message: `The period may cover at most ${FUNNEL_MAX_DAYS} days`,
    path: ['from'],
  });
export type TFunnelQuery = z.infer<typeof ZFunnelQuery>;

/** One bar of the funnel: how many reached the step, and what share of the previous step did (null for the first, or after 0). */
export const ZFunnelStepCount = z.object({
  step: z.enum(FUNNEL_STEPS),
  count: z.number().int().nonnegative(),
  conversion: z.number().nonnegative().nullable(),
});
export type TFunnelStepCount = z.infer<typeof ZFunnelStepCount>;

export const ZFunnelSection = z.object({
  steps: z.array(ZFunnelStepCount),
  /** Requests of the section whose e-mail the receiving server refused. */
  bounced: z.number().int().nonnegative(),
});
export type TFunnelSection = z.infer<typeof ZFunnelSection>;

/** The counts of one row of a breakdown (a link or a language). */
export const ZFunnelRowCounts = z.object({
  /** Visitors of the link(s) (0 for invitations). */
  link_opened: z.number().int().nonnegative(),
  sent: z.number().int().nonnegative(),
  opened: z.number().int().nonnegative(),
  device_ok: z.number().int().nonnegative(),
  first_answer: z.number().int().nonnegative(),
  submitted: z.number().int().nonnegative(),
  bounced: z.number().int().nonnegative(),
  /** submitted / sent, null when nothing was sent. */
  conversion: z.number().nonnegative().nullable(),
});
export type TFunnelRowCounts = z.infer<typeof ZFunnelRowCounts>;

export const ZFunnelLinkRow = ZFunnelRowCounts.extend({ link_id: ZId, name: z.string() });
export type TFunnelLinkRow = z.infer<typeof ZFunnelLinkRow>;

export const ZFunnelLanguageRow = ZFunnelRowCounts.extend({ language: z.enum(REQUEST_LANGUAGES) });
export type TFunnelLanguageRow = z.infer<typeof ZFunnelLanguageRow>;

export const ZFunnel = z.object({
  from: z.string(),
  to: z.string(),
  /** The company's time zone the days are counted in. */
  time_zone: z.string(),
  link_id: ZId.nullable(),
  language: z.enum(REQUEST_LANGUAGES).nullable(),
  /** Requests the company sent by e-mail or as a copied link. */
  invitations: ZFunnelSection,
  /** Collection links: visitors (by the day of their visit), then the requests they started. */
  links: ZFunnelSection,
  /** Every collection link of the company (the filter's choices), oldest first. */
  link_choices: z.array(z.object({ id: ZId, name: z.string() })),
  by_link: z.array(ZFunnelLinkRow),
  by_language: z.array(ZFunnelLanguageRow),
});
export type TFunnel = z.infer<typeof ZFunnel>;

/* ------------------------------------------------------------------ one request's timeline */

export const TIMELINE_KINDS = ['sent', 'delivered', 'bounced', 'reminded', 'opened', 'device_ok', 'first_answer', 'submitted', 'unsubscribed'] as const;
export type TTimelineKind = (typeof TIMELINE_KINDS)[number];

export const ZTimelineEvent = z.object({
  kind: z.enum(TIMELINE_KINDS),
  at: ZIsoDateTime,
  /** For 'reminded': whether the reminder was automatic. */
  automatic: z.boolean().nullable(),
  /** For 'sent': how the request reached the customer. */
  via: z.enum(['email', 'link', 'collection']).nullable(),
  /** For 'bounced': the receiving server's reply code (e.g. 550). */
  smtp_code: z.number().int().nullable(),
});
export type TTimelineEvent = z.infer<typeof ZTimelineEvent>;

export const ZRequestTimeline = z.object({ request_id: ZId, events: z.array(ZTimelineEvent) });
export type TRequestTimeline = z.infer<typeof ZRequestTimeline>;

/* ------------------------------------------------------------------ the progress beacon */

export const PROGRESS_STEPS = ['device_ok', 'first_answer'] as const;
export type TProgressStep = (typeof PROGRESS_STEPS)[number];

/** `POST /api/public/testimonial/progress`: the customer's page reports a step (answered 204, whatever the token). */
export const ZProgressBody = z.object({ token: ZRequestToken, step: z.enum(PROGRESS_STEPS) });
export type TProgressBody = z.infer<typeof ZProgressBody>;
