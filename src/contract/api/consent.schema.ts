/**
 * The customer stays in control (issue 29): their receipt and private page, consent withdrawal, the
 * removal of one answer, the approval of the final cut, and the company's consent record.
 *
 * The customer's side is server-rendered HTML (`CUSTOMER_PAGES`); the company's side is JSON calls
 * (API.consent in paths.ts), typed here. Every date is ISO 8601.
 */
import { z } from 'zod';
import { ZId, ZIsoDateTime, ZRequestLanguage } from './common.js';

/** The customer's pages, each addressed by a token of its own (256 random bits, base64url, stored hashed). */
export const CUSTOMER_PAGES = {
  /** Their testimonial page, linked from the receipt e-mail. */
  page: (token: string) => `/my-testimonial/${token}`,
  /** The approval of one final cut, linked from the approval e-mail. */
  approval: (token: string) => `/approve/${token}`,
} as const;

/** A customer page token: 32 random bytes in base64url (43 characters). */
export const CUSTOMER_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** How long the company waits between two approval e-mails about the same video (like request reminders). */
export const APPROVAL_REMINDER_INTERVAL_HOURS = 24;

/** The longest comment a customer may write when asking for changes. */
export const APPROVAL_COMMENT_MAX = 2000;

/* ------------------------------------------------------------------ approvals */

export const APPROVAL_STATES = ['pending', 'approved', 'changes_requested', 'cancelled'] as const;
export const ZApprovalState = z.enum(APPROVAL_STATES);
export type TApprovalState = z.infer<typeof ZApprovalState>;

/** One approval asked of the customer, about a ready render (`jobId`) or an answer as recorded (`responseId`). */
export const ZApproval = z.object({
  id: ZId,
  jobId: ZId.nullable(),
  responseId: ZId.nullable(),
  state: ZApprovalState,
  /** The customer's comment when they asked for changes. */
  comment: z.string().nullable(),
  requestedAt: ZIsoDateTime,
  /** When the approval e-mail was last sent (first or reminder). */
  lastSentAt: ZIsoDateTime,
  reminderCount: z.number().int().min(0),
  /** When the company may remind again (lastSentAt + 24 h); null once decided. */
  canRemindAt: ZIsoDateTime.nullable(),
  decidedAt: ZIsoDateTime.nullable(),
});
export type TApproval = z.infer<typeof ZApproval>;

/** POST /api/testimonials/{id}/approvals: ask the customer to approve one video (exactly one of the two). */
export const ZRequestApprovalBody = z
  .object({ jobId: ZId.optional(), responseId: ZId.optional() })
  .refine((b) => (b.jobId === undefined) !== (b.responseId === undefined), { message: 'Name either jobId or responseId.', path: ['jobId'] });
export type TRequestApprovalBody = z.infer<typeof ZRequestApprovalBody>;

/** PUT /api/testimonials/{id}/approval-required: this testimonial's switch; null follows the company's setting. */
export const ZSetApprovalRequiredBody = z.object({ required: z.boolean().nullable() });
export type TSetApprovalRequiredBody = z.infer<typeof ZSetApprovalRequiredBody>;
export const ZApprovalRequiredResponse = z.object({
  /** Whether publishing waits for the customer's approval, all things considered. */
  approval_required: z.boolean(),
  /** This testimonial's own switch (null: the company's setting applies). */
  approval_required_override: z.boolean().nullable(),
});
export type TApprovalRequiredResponse = z.infer<typeof ZApprovalRequiredResponse>;

/** PUT /api/user/approval-setting: the company's default (off unless set). */
export const ZCompanyApprovalSettingBody = z.object({ approval_required: z.boolean() });
export const ZCompanyApprovalSettingResponse = z.object({ approval_required: z.boolean() });
export type TCompanyApprovalSettingResponse = z.infer<typeof ZCompanyApprovalSettingResponse>;

/* ------------------------------------------------------------------ the testimonial's control state (detail) */

/** What the detail screen shows of the customer's control over a testimonial (in ZTestimonialRequest.customer_control). */
export const ZCustomerControl = z.object({
  consent_withdrawn_at: ZIsoDateTime.nullable(),
  /** When the media will be deleted by the retention job (withdrawn, not deleted yet). */
  media_deletion_due_at: ZIsoDateTime.nullable(),
  media_deleted_at: ZIsoDateTime.nullable(),
  approval_required: z.boolean(),
  approval_required_override: z.boolean().nullable(),
  /** Every approval asked, newest first. */
  approvals: z.array(ZApproval),
});
export type TCustomerControl = z.infer<typeof ZCustomerControl>;

/** POST /api/testimonials/{id}/delete-media: the company deletes a withdrawn testimonial's media before the retention period. */
export const ZDeleteMediaResponse = z.object({ media_deleted_at: ZIsoDateTime });
export type TDeleteMediaResponse = z.infer<typeof ZDeleteMediaResponse>;

/* ------------------------------------------------------------------ the consent record */

export const CONSENT_EVENT_KINDS = [
  'given',
  'withdrawn',
  'removal_requested',
  'approval_requested',
  'approval_reminded',
  'approved',
  'changes_requested',
  'media_deleted',
] as const;
export const ZConsentEventKind = z.enum(CONSENT_EVENT_KINDS);
export type TConsentEventKind = z.infer<typeof ZConsentEventKind>;

export const ZConsentEvent = z.object({
  kind: ZConsentEventKind,
  at: ZIsoDateTime,
  /** The customer's address and browser for their own actions (given, withdrawn, removal, approved, changes), else null. */
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** The answer concerned (a removal), with its question. */
  responseId: ZId.nullable(),
  question: z.string().nullable(),
  /** The approval concerned, and the customer's comment when they asked for changes. */
  approvalId: ZId.nullable(),
  comment: z.string().nullable(),
});
export type TConsentEvent = z.infer<typeof ZConsentEvent>;

/** GET /api/testimonials/{id}/consent-record: the consent given and everything after it, oldest first. */
export const ZConsentRecord = z.object({
  testimonial: z.object({
    id: ZId,
    customer_name: z.string(),
    customer_email: z.string().nullable(),
    language: ZRequestLanguage,
    submitted_at: ZIsoDateTime.nullable(),
  }),
  company: z.object({ name: z.string() }),
  /** The consent as accepted (null before the submission). */
  consent: z
    .object({
      text: z.string(),
      textVersion: z.string(),
      language: z.string(),
      acceptedAt: ZIsoDateTime,
      ip: z.string(),
      userAgent: z.string().nullable(),
      withdrawnAt: ZIsoDateTime.nullable(),
      withdrawnIp: z.string().nullable(),
    })
    .nullable(),
  events: z.array(ZConsentEvent),
  generatedAt: ZIsoDateTime,
});
export type TConsentRecord = z.infer<typeof ZConsentRecord>;
