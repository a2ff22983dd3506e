/**
 * Testimonials: the testimonial request object with its responses, dashboard stats and pay-to-view
 * (spec: company dashboard §3, §4, §7; issue 6).
 *
 * Media addresses are short-lived signed URLs of ours (absolute or root-relative), and are null while
 * the testimonial is unpaid: an unpaid testimonial reveals no media.
 */
import { z } from 'zod';
import {
  ZCompanyIdQuery,
  ZId,
  ZIsoDateTime,
  ZMediaUrl,
  ZRequestLanguage,
  ZRequestStatus,
} from './common.js';
import { ZJobError, ZJobPhase, ZJobReason } from './jobs.schema.js';
import { ZExportPlatform, ZExportVideoType, ZRenderPhase, ZRenderState } from './studio.schema.js';
import { ZCustomerControl } from './consent.schema.js';

/* ------------------------------------------------------------------ GET /api/testimonials/stats */

export const ZStatsQuery = ZCompanyIdQuery;

const count = z.number().int().min(0);

/** users, questions, testimonials, completed, requested (pending) and credits. */
export const ZStatsResponse = z.object({
  users: count,
  questions: count,
  testimonials: count,
  completed: count,
  requested: count,
  credits: count,
});
export type TStatsResponse = z.infer<typeof ZStatsResponse>;

/* ------------------------------------------------------------------ testimonial response */

const mediaUrl = ZMediaUrl.nullable();

/**
 * A stored export of an answer or of the merged video (decision 161): the latest finished export of
 * one format (`platform`: 'shorts' is 9:16, 'linkedin' 16:9) cut from one version (`videoType`:
 * 'modified' is the enhanced answer or the subtitled merged video, 'original' the answer as recorded
 * or the plain merged video). A new export of the same format and version replaces it; another format
 * or version keeps its own entry. `id` is the export job's, `finished_at` when it finished.
 */
export const ZStoredExport = z.object({
  id: ZId,
  platform: ZExportPlatform,
  videoType: ZExportVideoType,
  video_url: ZMediaUrl,
  poster_url: mediaUrl,
  finished_at: ZIsoDateTime,
});
export type TStoredExport = z.infer<typeof ZStoredExport>;

/**
 * The stored exports of an answer or of the merged video, in a fixed order: by format (9:16, then
 * 16:9), then the enhanced version before the original. Empty while unpaid (no media is revealed);
 * absent from older servers.
 */
const storedExports = z.array(ZStoredExport).optional();

/** One video answer of a testimonial. */
export const ZTestimonialResponse = z.object({
  id: ZId,
  question: z.object({ id: ZId, text: z.string() }),
  /** The customer's original answer. */
  video_url: mediaUrl,
  /** The enhanced version (intro and/or subtitles). */
  modified_video_url: mediaUrl,
  intro_generated: z.boolean(),
  has_subtitles: z.boolean(),
  /** Vertical export of the modified version. */
  short_video_url: mediaUrl,
  /** Vertical export of the original. */
  short_video_url_original: mediaUrl,
  /**
   * Every stored export of this answer, the latest of each format and version (decision 161). The two
   * fields above keep the latest of each version only, whatever its format.
   */
  exports: storedExports,
  orderPosition: z.number().int().min(1),
  /** Poster image of the answer, when extracted. */
  poster_url: mediaUrl.optional(),
  /**
   * Length in seconds of the prepared video (`video_url`), probed from the stored file (issue 17: one
   * duration everywhere); null until it is prepared.
   */
  duration_seconds: z.number().min(0).nullable().optional(),
  /** Posters of the generated videos (issue 17), each a frame of its video; null without the video. */
  modified_poster_url: mediaUrl.optional(),
  short_poster_url: mediaUrl.optional(),
  short_original_poster_url: mediaUrl.optional(),
  /** The current or last render of this response (absent before any). */
  render_state: ZRenderState.nullable().optional(),
  /**
   * The preparation of the upload for playback (its transcode job, issue 16). `video_url` and
   * `poster_url` stay null until it is ready: the raw upload is never handed to a player.
   */
  media: z
    .object({
      jobId: ZId.nullable(),
      phase: ZJobPhase,
      progress: z.number().int().min(0).max(100),
      error: ZJobError.nullable(),
    })
    .optional(),
  /**
   * The customer asked for this answer to be removed (issue 29): it is left out of every output and
   * publication, and its media addresses are null. Absent from older servers.
   */
  removal_requested_at: ZIsoDateTime.nullable().optional(),
  /**
   * The part of the answer every output uses (issue 31, decision 201), in seconds of `video_url`: null
   * start is from the beginning, null end to the end. The file itself is kept whole. Absent from older servers.
   */
  trim_start: z.number().min(0).nullable().optional(),
  trim_end: z.number().min(0).nullable().optional(),
});
export type TTestimonialResponse = z.infer<typeof ZTestimonialResponse>;

/* ------------------------------------------------------------------ testimonial request */

/** The fields of a request that reveal no media: what lists and the request detail show. */
export const ZTestimonialRequestSafe = z.object({
  id: ZId,
  customer_name: z.string(),
  /** Null when the company sends the link itself and gave no address (decision 173). */
  customer_email: z.string().nullable(),
  customer_position: z.string().nullable(),
  status: ZRequestStatus,
  created_at: ZIsoDateTime,
  updated_at: ZIsoDateTime,
  expires_at: ZIsoDateTime,
  last_reminder_sent: ZIsoDateTime.nullable(),
  paid: z.boolean(),
  language: ZRequestLanguage,
  gift: z.string().nullable(),
  /**
   * How the link reached the customer: our invitation e-mail, copied by the company (decision 173), or
   * the customer came through an open collection link (issue 30).
   */
  delivery: z.enum(['email', 'link', 'collection']),
  /** The collection link the customer came through (issue 30); null otherwise or once the link is deleted. */
  collection_link_id: ZId.nullable().optional(),
  /** The IANA time zone the request's automatic reminders keep to civil hours in (issue 30). */
  time_zone: z.string().optional(),
  /** The customer's private link (the one the invitation carries), for the owning company to send itself. */
  link: z.string(),
  /** The customer withdrew their consent (issue 29); null otherwise. Absent from older servers. */
  consent_withdrawn_at: ZIsoDateTime.nullable().optional(),
  /** When the customer's address unsubscribed from the company's reminders (issue 30); given by the request's own call only. */
  email_unsubscribed_at: ZIsoDateTime.nullable().optional(),
});
export type TTestimonialRequestSafe = z.infer<typeof ZTestimonialRequestSafe>;

/**
 * Issue 31: the testimonial's draft (decision 206): the merged video with the intro card before each answer
 * and subtitles where there are any, made by the worker once the testimonial is paid and its answers
 * prepared. Its job is followed through GET /api/jobs/{job_id}, and published with POST /api/publications { jobId }.
 */
export const ZDraft = z.object({
  job_id: ZId,
  phase: ZRenderPhase,
  /** Percent, 0 to 100. */
  progress: z.number().min(0).max(100),
  /** The English message of a failure (the web translates `error_reason`). */
  error: z.string().nullable(),
  error_reason: ZJobReason.nullable(),
  /** The draft's video and poster once ready (null otherwise, or when the customer withdrew or removed an answer it holds). */
  video_url: mediaUrl,
  poster_url: mediaUrl,
  /** Whether subtitles are burned into the draft. */
  subtitled: z.boolean(),
  /** Its length in seconds once ready (cards and answers), else null. */
  duration_seconds: z.number().nullable(),
});
export type TDraft = z.infer<typeof ZDraft>;

/** A testimonial request with every field of §3, including its media and its responses. */
export const ZTestimonialRequest = ZTestimonialRequestSafe.extend({
  /** When the customer sent the answers (null until then; absent from older servers). */
  submitted_at: ZIsoDateTime.nullable().optional(),
  /** The merged video. */
  video_url: mediaUrl,
  video_url_subtitles: mediaUrl,
  has_subtitles: z.boolean(),
  short_video_url: mediaUrl,
  short_video_url_original: mediaUrl,
  /** Every stored export of the merged video, the latest of each format and version (decision 161). */
  exports: storedExports,
  /** Posters of the merged videos and the exports (issue 17), each a frame of its video; null without the video. */
  merged_poster_url: mediaUrl.optional(),
  merged_subtitles_poster_url: mediaUrl.optional(),
  short_poster_url: mediaUrl.optional(),
  short_original_poster_url: mediaUrl.optional(),
  /** Sorted by orderPosition. */
  testimonial_responses: z.array(ZTestimonialResponse),
  /** The current or last render at testimonial level (merge, merged subtitles, export). */
  render_state: ZRenderState.nullable().optional(),
  /** Withdrawal, media deletion and approvals (issue 29). Absent from older servers. */
  customer_control: ZCustomerControl.optional(),
  /** Issue 31: the draft made without being asked (decision 206); null before its job starts, absent from older servers. */
  draft: ZDraft.nullable().optional(),
});
export type TTestimonialRequest = z.infer<typeof ZTestimonialRequest>;

/* ------------------------------------------------------------------ POST /api/testimonials/pay/{id} */

// Params: ZIdParams. Body: ZEmptyBody.

/** The testimonial is paid (or already was: not charged twice); `credits` is the balance after. */
export const ZPayResponse = z.object({
  success: z.literal(true),
  paid: z.literal(true),
  credits: count,
});
export type TPayResponse = z.infer<typeof ZPayResponse>;

/** The message of the error answered when the company has no credit left. */
export const NO_CREDITS_MESSAGE = 'You have no credits left. Buy credits to view this testimonial.';
