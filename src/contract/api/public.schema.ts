/**
 * The customer's public calls: validate a request token and save the recorded answers
 * (spec: public pages §3 public testimonial and recording, §5, §7, §8; issue 5).
 * These calls carry no credentials and are never refreshed. Errors answer `{ error, code }` (ZApiError).
 */
import { z } from 'zod';
import { RECORDING } from '../constants.js';
import {
  TEXT_LIMITS,
  ZHexColor,
  ZId,
  ZRequestLanguage,
  optionalText,
  requiredText,
} from './common.js';

/* ------------------------------------------------------------------ token */

export const INVALID_LINK_MESSAGE = 'This testimonial link is not valid';

/** The request token of the customer's link: URL-safe characters only. */
export const ZRequestToken = z
  .string({ error: INVALID_LINK_MESSAGE })
  .min(1, INVALID_LINK_MESSAGE)
  .max(200, INVALID_LINK_MESSAGE)
  .regex(/^[A-Za-z0-9_-]+$/, INVALID_LINK_MESSAGE);
export type TRequestToken = z.infer<typeof ZRequestToken>;

/* ------------------------------------------------------------------ GET /api/public/testimonial/validate/{token} */

export const ZValidateTokenParams = z.object({ token: ZRequestToken });
export type TValidateTokenParams = z.infer<typeof ZValidateTokenParams>;

export const ZPublicTestimonial = z.object({
  id: ZId,
  background_color: ZHexColor,
  customer_name: z.string(),
  customer_position: z.string().nullable(),
  customer_email: z.string().nullable(),
  /** 'french' selects French on the page, anything else English. */
  language: ZRequestLanguage,
  /** The text offered in exchange, if any. */
  gift: z.string().nullable(),
  company: z.object({
    name: z.string(),
    logo_url: z.string().nullable(),
  }),
});
export type TPublicTestimonial = z.infer<typeof ZPublicTestimonial>;

export const ZPublicQuestion = z.object({ id: ZId, text: z.string() });
export type TPublicQuestion = z.infer<typeof ZPublicQuestion>;

/** `{ testimonial, questions }`, questions in the request's order. */
export const ZValidateTokenResponse = z.object({
  testimonial: ZPublicTestimonial,
  questions: z.array(ZPublicQuestion),
  /**
   * Added by issue 27: whether the page shows a small "Video testimonials by {brand}" line. False
   * unless the operator sets CUSTOMER_PAGES_POWERED_BY: the customer's pages belong to the business.
   */
  powered_by: z.boolean(),
});
export type TValidateTokenResponse = z.infer<typeof ZValidateTokenResponse>;

/* ------------------------------------------------------------------ POST /api/public/testimonial/save (multipart) */

/** Multipart field name of the video files, repeated once per answer. */
export const SAVE_VIDEO_FIELD = 'videos';

/** Video types accepted: what MediaRecorder gives in Chromium/Firefox (WebM) and Safari (MP4). */
export const ACCEPTED_VIDEO_MIME_TYPES = ['video/webm', 'video/mp4'] as const;

/** Default upper bound of one answer's file; the server's limit is configurable. */
export const DEFAULT_VIDEO_MAX_BYTES = 60 * 1024 * 1024;

/** File name of the i-th answer: video0.webm, video1.webm… (video0.mp4… when recorded as MP4). */
export function videoFileName(index: number, extension: 'webm' | 'mp4' = 'webm'): string {
  return `video${index}.${extension}`;
}

/** Reads the index back from a file name made by videoFileName; null if it is not one. */
export function videoFileIndex(fileName: string): number | null {
  const match = /^video(\d{1,3})\.(webm|mp4)$/.exec(fileName);
  return match ? Number(match[1]) : null;
}

/** Multipart names of the indexed fields: `questionIds[0]`, `bgColors[0]`… */
export const saveFieldName = {
  questionId: (index: number) => `questionIds[${index}]`,
  bgColor: (index: number) => `bgColors[${index}]`,
} as const;

/** The version of the image-rights consent text the customer accepted (stored with the submission). */
export const CONSENT_TEXT_VERSION = 'image-rights-v1';

export const NAME_REQUIRED_MESSAGE = 'Please enter your name before proceeding';
export const NO_RECORDINGS_MESSAGE = 'No recordings to submit.';

const ZSaveTestimonialFieldsShape = z.object({
  /** questionIds[i]: the question answered by video{i}. */
  questionIds: z.array(ZId, { error: NO_RECORDINGS_MESSAGE }).min(1, NO_RECORDINGS_MESSAGE),
  /** bgColors[i]: the background the question of video{i} was shown on (default #000000). */
  bgColors: z.array(ZHexColor),
  /** The customer's name. */
  name: requiredText('Name', TEXT_LIMITS.personName, NAME_REQUIRED_MESSAGE),
  /** The customer's position (may be empty). */
  title: optionalText('Title', TEXT_LIMITS.position).optional(),
  testimonialId: ZId,
  token: ZRequestToken,
  /** CONSENT_TEXT_VERSION of the text shown and accepted (issue 5: consent is stored). */
  consentVersion: requiredText('Consent version', 100, 'The image-rights authorisation must be accepted'),
});

/**
 * The non-file fields of the save call, once the server has gathered the indexed multipart fields
 * into arrays. One file per entry of questionIds, matched by index (video{i} ↔ questionIds[i]).
 */
export const ZSaveTestimonialFields = ZSaveTestimonialFieldsShape.superRefine((fields, ctx) => {
  if (fields.bgColors.length !== fields.questionIds.length) {
    ctx.addIssue({
      code: 'custom',
      path: ['bgColors'],
      message: 'There must be one background colour per answer',
    });
  }
  if (new Set(fields.questionIds).size !== fields.questionIds.length) {
    ctx.addIssue({
      code: 'custom',
      path: ['questionIds'],
      message: 'Each question can be answered only once',
    });
  }
});
export type TSaveTestimonialFields = z.infer<typeof ZSaveTestimonialFields>;

/** The recording limits the server checks on every file (duration plus tolerance, in seconds). */
export const SAVE_LIMITS = {
  maxDurationSeconds: RECORDING.maxSeconds + RECORDING.durationToleranceSeconds,
  defaultBackgroundColor: RECORDING.defaultBackgroundColor,
} as const;

/**
 * The testimonial is completed. A retried submission of the same answers answers the same body.
 * responses: the stored answers, one per question, in the order sent.
 */
export const ZSaveTestimonialResponse = z.object({
  success: z.literal(true),
  testimonialId: ZId,
  responses: z.array(z.object({ id: ZId, questionId: ZId })),
  /**
   * The customer's own page (issue 29), on the first save of a request without the customer's e-mail
   * (delivery 'link'): the only place they get it. Others receive it in their receipt e-mail.
   */
  customerPageUrl: z.string().optional(),
});
export type TSaveTestimonialResponse = z.infer<typeof ZSaveTestimonialResponse>;
