/**
 * The company's activity log (issue 32, decision 220): who did what and when, read from
 * `company_events`. The webhook events plus a few that only the log shows (never offered to, nor
 * delivered to, a webhook endpoint).
 */
import { z } from 'zod';
import { ZId, ZIsoDateTime } from './common.js';
import { WEBHOOK_EVENT_TYPES, type TWebhookEventType } from './webhooks.schema.js';

/** Events of the log only: a person's actions on the company itself. */
export const ACTIVITY_ONLY_EVENT_TYPES = [
  'request.sent',
  'member.added',
  'member.removed',
  'member.role_changed',
  'api_key.created',
  'api_key.revoked',
] as const;
export type TActivityOnlyEventType = (typeof ACTIVITY_ONLY_EVENT_TYPES)[number];

/** Every event the log shows. */
export const ACTIVITY_EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, ...ACTIVITY_ONLY_EVENT_TYPES] as const;
export const ZActivityEventType = z.enum(ACTIVITY_EVENT_TYPES, {
  error: 'Unknown event type',
});
export type TActivityEventType = z.infer<typeof ZActivityEventType>;

export function isWebhookEventType(type: string): type is TWebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);
}

export const ACTIVITY_LIMITS = {
  defaultLimit: 25,
  maxLimit: 100,
  maxTypes: ACTIVITY_EVENT_TYPES.length,
} as const;

/** `YYYY-MM-DD` (a whole UTC day) or an ISO date-time. */
const ZDateBound = z.union(
  [
    z.iso.date({
      error: 'Expected a date (YYYY-MM-DD) or an ISO 8601 date-time',
    }),
    ZIsoDateTime,
  ],
  {
    error: 'Expected a date (YYYY-MM-DD) or an ISO 8601 date-time',
  },
);

/** One or several values: `type=a&type=b` or `type=a,b`. */
const ZTypes = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => [
    ...new Set(
      (Array.isArray(value) ? value : [value])
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ])
  .pipe(z.array(ZActivityEventType).max(ACTIVITY_LIMITS.maxTypes));

/** `GET /api/activity` query. */
export const ZActivityQuery = z
  .object({
    type: ZTypes.optional(),
    /** A member's user id: only what they did. */
    actor: ZId.optional(),
    from: ZDateBound.optional(),
    to: ZDateBound.optional(),
    /** The spec's calls name their company: it must be the token's (never used to choose rows). */
    company_id: ZId.optional(),
    /** The previous page's `nextCursor`, as given. */
    cursor: z.string().min(1).max(200).optional(),
    limit: z.coerce
      .number({ error: 'The limit must be a number' })
      .int('The limit must be a whole number')
      .min(1, 'The limit must be 1 or more')
      .max(ACTIVITY_LIMITS.maxLimit, `The limit must be at most ${ACTIVITY_LIMITS.maxLimit}`)
      .default(ACTIVITY_LIMITS.defaultLimit),
  })
  .strict();
export type TActivityQuery = z.infer<typeof ZActivityQuery>;

/** Who did it: a member (their name and e-mail, even after they left), or null for the system or a customer. */
export const ZActivityActor = z.object({
  id: ZId,
  name: z.string(),
  email: z.string(),
});
export type TActivityActor = z.infer<typeof ZActivityActor>;

/** What it concerns: only names and ids already visible in the dashboard, never a secret or a signed address. */
export const ZActivitySubject = z.object({
  testimonialId: ZId.nullable(),
  customerName: z.string().nullable(),
  publicationId: ZId.nullable(),
  memberEmail: z.string().nullable(),
  role: z.string().nullable(),
  previousRole: z.string().nullable(),
  keyName: z.string().nullable(),
  /** render events: 'intro', 'merge', 'export'…; request.sent: 'email' | 'link'. */
  kind: z.string().nullable(),
});
export type TActivitySubject = z.infer<typeof ZActivitySubject>;

export const ZActivityEvent = z.object({
  id: ZId,
  type: ZActivityEventType,
  at: ZIsoDateTime,
  actor: ZActivityActor.nullable(),
  subject: ZActivitySubject,
});
export type TActivityEvent = z.infer<typeof ZActivityEvent>;

export const ZActivityPage = z.object({
  events: z.array(ZActivityEvent),
  /** Give it back as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
  /** The company's members, for the "who" filter (id and name only). */
  members: z.array(z.object({ id: ZId, name: z.string() })),
});
export type TActivityPage = z.infer<typeof ZActivityPage>;
