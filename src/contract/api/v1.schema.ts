/**
 * The versioned API for other software (issue 32, decision 209): `/api/v1`, authenticated by an API key
 * (`Authorization: Bearer vr_live_…`). Field names are snake_case, as in the spec. Its testimonials are
 * made by the dashboard's service (the same company scoping, the same rules for media addresses: signed,
 * short-lived, null while unpaid, withdrawn or removed).
 */
import { z } from 'zod';
import { ZId, ZIsoDateTime, ZRequestLanguage } from './common.js';

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
