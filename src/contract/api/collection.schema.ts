/**
 * Open collection links and their QR codes (issue 30): the company's links (list, create, change,
 * delete, QR) and the customer's public calls (the link's first step, start, e-mail code).
 */
import { z } from 'zod';
import {
  TEXT_LIMITS,
  ZEmail,
  ZHexColor,
  ZId,
  ZIsoDateTime,
  ZRequestLanguage,
  optionalText,
  requiredText,
} from './common.js';
import { ZPublicQuestion, ZRequestToken } from './public.schema.js';

export const COLLECTION_LIMITS = {
  name: 80,
  maxSubmissions: 100_000,
  dailyCap: { min: 1, max: 1000, default: 50 },
  questions: 20,
  /** The e-mail code: digits, minutes it lasts, wrong tries before a new code is needed, codes sent per request. */
  code: { digits: 6, minutes: 15, attempts: 5, sends: 3 },
} as const;

/** The link's state, as the dashboard shows it and the public page refuses it. */
export const COLLECTION_LINK_STATES = ['open', 'disabled', 'expired', 'full'] as const;
export const ZCollectionLinkState = z.enum(COLLECTION_LINK_STATES);
export type TCollectionLinkState = z.infer<typeof ZCollectionLinkState>;

const SELECT_QUESTION_MESSAGE = 'Select at least one question';

/* ------------------------------------------------------------------ the company's calls */

/** A link's fields, as created and changed (PUT sends them all). */
export const ZCollectionLinkBody = z.object({
  name: requiredText('Name', COLLECTION_LIMITS.name),
  question_ids: z
    .array(ZId, { error: SELECT_QUESTION_MESSAGE })
    .min(1, SELECT_QUESTION_MESSAGE)
    .max(COLLECTION_LIMITS.questions, `A link can ask at most ${COLLECTION_LIMITS.questions} questions`)
    .refine((ids) => new Set(ids).size === ids.length, 'Each question can be selected only once'),
  language: ZRequestLanguage,
  gift: optionalText('Gift', TEXT_LIMITS.gift).nullish(),
  background_color: ZHexColor,
  /** The end of the link (ISO date-time), or null for none; must be in the future when set. */
  expires_at: ZIsoDateTime.nullish(),
  max_submissions: z
    .number({ error: 'The maximum must be a number' })
    .int('The maximum must be a whole number')
    .min(1, 'The maximum must be at least 1')
    .max(COLLECTION_LIMITS.maxSubmissions, `The maximum must be at most ${COLLECTION_LIMITS.maxSubmissions}`)
    .nullish(),
  daily_cap: z
    .number({ error: 'The daily cap must be a number' })
    .int('The daily cap must be a whole number')
    .min(COLLECTION_LIMITS.dailyCap.min, 'The daily cap must be between 1 and 1000')
    .max(COLLECTION_LIMITS.dailyCap.max, 'The daily cap must be between 1 and 1000')
    .optional(),
  enabled: z.boolean().optional(),
  email_code_required: z.boolean().optional(),
});
export type TCollectionLinkBody = z.infer<typeof ZCollectionLinkBody>;

export const ZCollectionLink = z.object({
  id: ZId,
  slug: z.string(),
  /** The public address: {appUrl}/c/{slug}. */
  url: z.string(),
  name: z.string(),
  question_ids: z.array(ZId),
  language: ZRequestLanguage,
  gift: z.string().nullable(),
  background_color: z.string(),
  expires_at: ZIsoDateTime.nullable(),
  max_submissions: z.number().int().nullable(),
  daily_cap: z.number().int(),
  enabled: z.boolean(),
  email_code_required: z.boolean(),
  state: ZCollectionLinkState,
  /** Testimonials received through the link, in all and today (UTC). */
  submissions: z.number().int(),
  submissions_today: z.number().int(),
  created_at: ZIsoDateTime,
});
export type TCollectionLink = z.infer<typeof ZCollectionLink>;

export const ZCollectionLinkList = z.array(ZCollectionLink);
export type TCollectionLinkList = z.infer<typeof ZCollectionLinkList>;

export const QR_FORMATS = ['svg', 'png'] as const;
export const ZQrQuery = z.object({ format: z.enum(QR_FORMATS, { error: "Format must be 'svg' or 'png'" }).default('svg') });

/* ------------------------------------------------------------------ the customer's calls */

export const ZSlug = z.string().regex(/^[a-z0-9-]{4,64}$/, 'This link is not valid');
export const ZSlugParams = z.object({ slug: ZSlug });

/** What the first step shows. */
export const ZPublicCollectionLink = z.object({
  name: z.string(),
  language: ZRequestLanguage,
  background_color: z.string(),
  gift: z.string().nullable(),
  email_code_required: z.boolean(),
  company: z.object({ name: z.string(), logo_url: z.string().nullable() }),
  questions: z.array(ZPublicQuestion),
  powered_by: z.boolean(),
});
export type TPublicCollectionLink = z.infer<typeof ZPublicCollectionLink>;

/** The customer's details; `website` is the honeypot, which a person never sees nor fills. */
export const ZCollectStartBody = z.object({
  name: requiredText('Name', TEXT_LIMITS.personName),
  position: optionalText('Position', TEXT_LIMITS.position).nullish(),
  email: ZEmail,
  website: z.string().max(500).optional(),
});
export type TCollectStartBody = z.infer<typeof ZCollectStartBody>;

export const ZCollectStartResponse = z.object({
  token: ZRequestToken,
  /** A code was e-mailed and must be confirmed before the upload is accepted. */
  code_required: z.boolean(),
});
export type TCollectStartResponse = z.infer<typeof ZCollectStartResponse>;

export const ZConfirmCodeBody = z.object({
  token: ZRequestToken,
  code: z.string().trim().regex(/^\d{6}$/, 'The code has 6 digits'),
});
export const ZResendCodeBody = z.object({ token: ZRequestToken });
export const ZCodeResponse = z.object({ success: z.literal(true) });
