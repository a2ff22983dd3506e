/**
 * Testimonial requests: list, send, remind, detail (spec: company dashboard §3 send payload, §4,
 * §5 request form, §7; issue 4).
 */
import { z } from 'zod';
import { DEFAULT_REQUEST_EXPIRY_DAYS } from '../constants.js';
import {
  TEXT_LIMITS,
  ZCompanyIdQuery,
  ZEmail,
  ZId,
  ZIsoDateTime,
  ZRequestLanguage,
  optionalText,
  requiredText,
} from './common.js';
import { ZTestimonialRequest, ZTestimonialRequestSafe } from './testimonials.schema.js';

export const REQUEST_EXPIRY_LIMITS = { min: 1, max: 365, default: DEFAULT_REQUEST_EXPIRY_DAYS } as const;

/* ------------------------------------------------------------------ GET /api/testimonials/requests */

export const ZRequestsListQuery = ZCompanyIdQuery;

/** The company's requests, newest first. Media are not included (see request/{id}). */
export const ZRequestsListResponse = z.array(ZTestimonialRequestSafe);
export type TRequestsListResponse = z.infer<typeof ZRequestsListResponse>;

/* ------------------------------------------------------------------ POST /api/testimonials/request */

export const SELECT_QUESTION_MESSAGE = 'Select at least one question';

/** How the private link reaches the customer (decision 173): our e-mail, or the company sends it itself. */
export const REQUEST_DELIVERIES = ['email', 'link'] as const;
export const ZRequestDelivery = z.enum(REQUEST_DELIVERIES, { error: "Delivery must be 'email' or 'link'" });
export type TRequestDelivery = z.infer<typeof ZRequestDelivery>;

export const EMAIL_NEEDED_FOR_DELIVERY_MESSAGE =
  "Enter the customer's e-mail address, or choose to copy the link and send it yourself.";

/**
 * The send payload. `delivery` is 'email' when absent (the spec's payload); with 'link' no e-mail is
 * sent and `customer_email` may be empty or absent.
 */
export const ZSendRequestBody = z.object({
  delivery: ZRequestDelivery.optional(),
  customer_email: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? null : value),
    ZEmail.nullish(),
  ),
  customer_name: requiredText('Customer name', TEXT_LIMITS.personName),
  customer_position: optionalText('Customer position', TEXT_LIMITS.position).nullish(),
  question_ids: z
    .array(ZId, { error: SELECT_QUESTION_MESSAGE })
    .min(1, SELECT_QUESTION_MESSAGE)
    .refine((ids) => new Set(ids).size === ids.length, 'Each question can be selected only once'),
  language: ZRequestLanguage,
  gift: optionalText('Gift', TEXT_LIMITS.gift).nullish(),
  /** Days until the link expires; the server uses REQUEST_EXPIRY_LIMITS.default when absent. */
  expires_in_days: z
    .number({ error: 'Expiry must be a number of days' })
    .int('Expiry must be a whole number of days')
    .min(REQUEST_EXPIRY_LIMITS.min, 'Expiry must be between 1 and 365 days')
    .max(REQUEST_EXPIRY_LIMITS.max, 'Expiry must be between 1 and 365 days')
    .optional(),
}).superRefine((body, issues) => {
  if ((body.delivery ?? 'email') === 'email' && !body.customer_email) {
    issues.addIssue({ code: 'custom', path: ['customer_email'], message: EMAIL_NEEDED_FOR_DELIVERY_MESSAGE });
  }
});
export type TSendRequestBody = z.infer<typeof ZSendRequestBody>;

/** The stored request (the client does not use it, the spec says; tests and future screens may). */
export const ZSendRequestResponse = z.object({ testimonial: ZTestimonialRequestSafe });
export type TSendRequestResponse = z.infer<typeof ZSendRequestResponse>;

/* ------------------------------------------------------------------ POST /api/testimonials/request/{id}/remind */

// Params: ZIdParams.
export const ZRemindBody = z.object({ company_id: ZId });
export type TRemindBody = z.infer<typeof ZRemindBody>;

/** The reminder went out; last_reminder_sent is its time. */
export const ZRemindResponse = z.object({
  success: z.literal(true),
  last_reminder_sent: ZIsoDateTime,
});
export type TRemindResponse = z.infer<typeof ZRemindResponse>;

/* ------------------------------------------------------------------ GET /api/testimonials/request/{id} */

// Params: ZIdParams.
export const ZRequestDetailQuery = ZCompanyIdQuery;

/**
 * `{ testimonial, error_credit }`. testimonial is null when the company has no credits to view it
 * (error_credit true) or when it does not exist (error_credit false). Unpaid: media fields are null.
 */
export const ZRequestDetailResponse = z.object({
  testimonial: ZTestimonialRequest.nullable(),
  error_credit: z.boolean(),
});
export type TRequestDetailResponse = z.infer<typeof ZRequestDetailResponse>;

/* ------------------------------------------------------------------ GET /api/testimonials/request-safe/{id} */

// Params: ZIdParams.
export const ZRequestSafeQuery = ZCompanyIdQuery;

/** The request without media, for the request detail page. */
export const ZRequestSafeResponse = z.object({ testimonial: ZTestimonialRequestSafe });
export type TRequestSafeResponse = z.infer<typeof ZRequestSafeResponse>;
