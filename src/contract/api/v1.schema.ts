/**
 * The versioned API for other software (issue 32, decision 209): `/api/v1`, authenticated by an API key
 * (`Authorization: Bearer vr_live_…`). Field names are snake_case, as in the spec. Its testimonials are
 * made by the dashboard's service (the same company scoping, the same rules for media addresses: signed,
 * short-lived, null while unpaid, withdrawn or removed).
 */
import { z } from 'zod';
import { ZId, ZIsoDateTime, ZRequestLanguage } from './common.js';
import { ZSendRequestBody } from './requests.schema.js';
import { ZTestimonialRequestSafe } from './testimonials.schema.js';

export const V1_PAGE = { defaultPerPage: 20, maxPerPage: 100 } as const;

const mediaUrl = z.string().nullable();

export const ZV1ListQuery = z.object({
  page: z.coerce
    .number({ error: 'page must be a number' })
    .int('page must be a whole number')
    .min(1, 'page must be at least 1')
    .max(100_000, 'page is too large')
    .default(1),
  per_page: z.coerce
    .number({ error: 'per_page must be a number' })
    .int('per_page must be a whole number')
    .min(1, 'per_page must be at least 1')
    .max(V1_PAGE.maxPerPage, `per_page must be at most ${V1_PAGE.maxPerPage}`)
    .default(V1_PAGE.defaultPerPage),
});
export type TV1ListQuery = z.infer<typeof ZV1ListQuery>;

/** One timed cue of a transcript: seconds from the start of the answer, its text, and its timed words when known. */
export const ZV1TranscriptCue = z.object({
  start: z.number().nonnegative(),
  end: z.number().nonnegative(),
  text: z.string(),
  words: z.array(z.object({ start: z.number(), end: z.number(), text: z.string() })).optional(),
});
export type TV1TranscriptCue = z.infer<typeof ZV1TranscriptCue>;

/** An answer's transcript: the engine's words, or the company's corrected ones (`edited`). */
export const ZV1Transcript = z.object({
  /** The transcript's language: `en` or `fr`. */
  language: z.string(),
  /** The company corrected the engine's words. */
  edited: z.boolean(),
  segments: z.array(ZV1TranscriptCue),
});
export type TV1Transcript = z.infer<typeof ZV1Transcript>;

export const ZV1Answer = z.object({
  id: ZId,
  question: z.object({ id: ZId, text: z.string() }),
  order_position: z.number().int(),
  video_url: mediaUrl,
  poster_url: mediaUrl,
  /** The enhanced version (intro and/or subtitles), when made. */
  modified_video_url: mediaUrl,
  duration_seconds: z.number().nullable(),
  removal_requested_at: ZIsoDateTime.nullable(),
  /** The answer's transcript, or null when there is none yet, or while its media are not shown (unpaid, withdrawn or removed). */
  transcript: ZV1Transcript.nullable(),
});
export type TV1Answer = z.infer<typeof ZV1Answer>;

export const ZV1Testimonial = z.object({
  id: ZId,
  customer_name: z.string(),
  customer_email: z.string().nullable(),
  customer_position: z.string().nullable(),
  status: z.string(),
  language: ZRequestLanguage,
  paid: z.boolean(),
  created_at: ZIsoDateTime,
  submitted_at: ZIsoDateTime.nullable(),
  consent_withdrawn_at: ZIsoDateTime.nullable(),
  /** The merged video, with and without subtitles, and its poster. */
  video_url: mediaUrl,
  video_url_subtitles: mediaUrl,
  poster_url: mediaUrl,
  answers: z.array(ZV1Answer),
});
export type TV1Testimonial = z.infer<typeof ZV1Testimonial>;

export const ZV1TestimonialList = z.object({
  data: z.array(ZV1Testimonial),
  page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
});
export type TV1TestimonialList = z.infer<typeof ZV1TestimonialList>;

/* ------------------------------------------------------------------ requests */

/** POST /api/v1/requests: the dashboard's "send a request", with the same fields and checks. */
export const ZV1SendRequestBody = ZSendRequestBody;
export type TV1SendRequestBody = z.input<typeof ZV1SendRequestBody>;

/** The request as stored: its status, its expiry and the customer's private link (to send it yourself with `delivery: link`). */
export const ZV1Request = ZTestimonialRequestSafe;
export type TV1Request = z.infer<typeof ZV1Request>;

/* ------------------------------------------------------------------ publications */

/** GET /api/v1/publications: the page, and optionally one testimonial's publications only. */
export const ZV1PublicationsQuery = ZV1ListQuery.extend({ testimonial_id: ZId.optional() });
export type TV1PublicationsQuery = z.infer<typeof ZV1PublicationsQuery>;

/** A live publication: its share page, its embeddable player, and how often it was played. */
export const ZV1Publication = z.object({
  id: ZId,
  testimonial_id: ZId,
  /** The studio video published, or null for an answer as recorded. */
  job_id: ZId.nullable(),
  /** The answer published as recorded, or null for a studio video. */
  response_id: ZId.nullable(),
  slug: z.string(),
  /** The share page. */
  url: z.string(),
  /** The player alone, for an `<iframe>`. */
  embed_url: z.string(),
  /** A copyable `<iframe>` snippet of the player. */
  embed_html: z.string(),
  created_at: ZIsoDateTime,
  /** The quote shown beside the video, or null. */
  quote: z.string().nullable(),
  duration_seconds: z.number().nonnegative().nullable(),
  /** Plays started so far. */
  views: z.number().int().nonnegative(),
});
export type TV1Publication = z.infer<typeof ZV1Publication>;

export const ZV1PublicationList = z.object({
  data: z.array(ZV1Publication),
  page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
});
export type TV1PublicationList = z.infer<typeof ZV1PublicationList>;

/** POST /api/v1/publications: exactly one of `job_id` (a ready studio video of this testimonial) or `response_id` (an answer as recorded). */
export const ZV1PublishBody = z
  .object({
    testimonial_id: ZId,
    job_id: ZId.optional(),
    response_id: ZId.optional(),
  })
  .refine((body) => Boolean(body.job_id) !== Boolean(body.response_id), {
    message: 'Give either a job_id (a ready studio video) or a response_id (an answer as recorded), not both.',
    path: ['job_id'],
  });
export type TV1PublishBody = z.infer<typeof ZV1PublishBody>;

export const ZV1PublishResponse = z.object({
  id: ZId,
  slug: z.string(),
  url: z.string(),
  embed_url: z.string(),
});
export type TV1PublishResponse = z.infer<typeof ZV1PublishResponse>;
