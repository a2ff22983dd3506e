/**
 * Settings: video style, profile, company and e-mail language, logo, onboarding
 * (spec: company dashboard §3 video style settings, §5, §7; issue 7).
 */
import { z } from 'zod';
import { CAPTION_STYLES, END_CARD_LIMITS, FONT_CHOICES, FONT_SIZE_LIMITS, LOGO_MAX_BYTES } from '../constants.js';
import { LOGO_PLATE_CHOICES } from '../logo-contrast.js';
import { TEXT_LIMITS, ZHexColor, ZHttpUrl, ZId, ZLanguage, requiredText } from './common.js';
import { ZCompanyRef, ZUser } from './auth.schema.js';

/* ------------------------------------------------------------------ style fields */

const fontSize = (limits: { min: number; max: number }) => {
  const message = `Font size must be between ${limits.min} and ${limits.max}`;
  return z.number({ error: message }).int('Font size must be a whole number').min(limits.min, message).max(limits.max, message);
};

export const ZFontChoice = z.enum(FONT_CHOICES, { error: 'Choose one of the available fonts' });
export type TFontChoiceValue = z.infer<typeof ZFontChoice>;

export const LOGO_URL_MESSAGE = 'Logo must be a URL';

/** logo_url: empty (no logo), an absolute http(s) URL, or a root-relative path of our own storage. */
export const ZLogoUrl = z.union(
  [z.literal(''), ZHttpUrl, z.string().max(TEXT_LIMITS.url).regex(/^\/(?!\/)\S*$/)],
  { error: LOGO_URL_MESSAGE },
);
export type TLogoUrl = z.infer<typeof ZLogoUrl>;

/** Whether the logo sits on a light plate: 'auto' (when it is hard to see), 'on' or 'off'. */
export const ZLogoPlate = z.enum(LOGO_PLATE_CHOICES, { error: 'Choose auto, on or off for the logo plate.' });

/** How subtitles are drawn (issue 31): 'line' or 'word'. */
export const ZCaptionStyle = z.enum(CAPTION_STYLES, { error: 'Choose line or word-by-word captions.' });

/** The style fields the company sets (what update-settings sends: everything but company_logo_url). */
export const ZVideoStyleFields = z.object({
  font_size_question: fontSize(FONT_SIZE_LIMITS.question),
  font_color_question: ZHexColor,
  font_style_question: ZFontChoice,
  font_bold_question: z.boolean(),
  font_size_subtitle: fontSize(FONT_SIZE_LIMITS.subtitle),
  font_color_subtitle: ZHexColor,
  font_style_subtitle: ZFontChoice,
  font_bold_subtitle: z.boolean(),
  subtitle_border: z.boolean(),
  logo_url: ZLogoUrl,
  background_color: ZHexColor,
  show_logo_in_videos: z.boolean(),
  /** The light plate behind the logo (decision 172); absent: unchanged. */
  logo_plate: ZLogoPlate.optional(),
  /** Issue 31 (absent: unchanged): the customer's name and position as each answer starts. */
  lower_third: z.boolean({ error: 'Lower third must be on or off' }).optional(),
  /** Issue 31 (absent: unchanged): the closing card after the last answer, its call to action and address. */
  end_card: z.boolean({ error: 'End card must be on or off' }).optional(),
  end_card_text: z
    .string({ error: 'The end card text must be text' })
    .trim()
    .max(END_CARD_LIMITS.text, `The end card text must be at most ${END_CARD_LIMITS.text} characters`)
    .optional(),
  end_card_address: z
    .string({ error: 'The end card address must be text' })
    .trim()
    .max(END_CARD_LIMITS.address, `The end card address must be at most ${END_CARD_LIMITS.address} characters`)
    .optional(),
  /** Issue 31 (absent: unchanged): subtitles a cue at a time or word by word. */
  caption_style: ZCaptionStyle.optional(),
  /** Issue 31 (absent: unchanged): a testimonial that arrives is paid at once when a credit is left, and its draft made. */
  prepare_drafts: z.boolean({ error: 'Preparing drafts must be on or off' }).optional(),
});
export type TVideoStyleFields = z.infer<typeof ZVideoStyleFields>;

/**
 * The video style settings as read: the fields plus the company's logo. While a new logo is being
 * prepared by its job, `logo_url` is the upload's signed address (as the upload answered) and
 * `logo_job_id` that job: the settings written back as read keep the logo; only `logo_url: ''` removes
 * it, cancelling the job (decision 177). `company_logo_url` is the logo stored now (null before the first).
 */
export const ZVideoStyleSettings = ZVideoStyleFields.extend({
  company_logo_url: z.string().nullable(),
  /** The `logo` job preparing a new logo (follow it through GET /api/jobs/{id}); absent when none is. */
  logo_job_id: ZId.optional(),
  logo_plate: ZLogoPlate,
  lower_third: z.boolean(),
  end_card: z.boolean(),
  end_card_text: z.string(),
  end_card_address: z.string(),
  caption_style: ZCaptionStyle,
  prepare_drafts: z.boolean(),
  /** The stored logo's opaque pixels as the logo job measured them: mean relative luminance (0–1), null until measured. */
  logo_luminance: z.number().min(0).max(1).nullable(),
  /** Their width-to-height ratio, null until measured. */
  logo_aspect: z.number().positive().nullable(),
});
export type TVideoStyleSettings = z.infer<typeof ZVideoStyleSettings>;

/* ------------------------------------------------------------------ GET /api/auth/settings */

export const ZGetSettingsResponse = ZVideoStyleSettings;
export type TGetSettingsResponse = z.infer<typeof ZGetSettingsResponse>;

/* ------------------------------------------------------------------ POST /api/auth/update-settings */

export const ZUpdateSettingsBody = ZVideoStyleFields;
export type TUpdateSettingsBody = z.infer<typeof ZUpdateSettingsBody>;

/** The settings as saved. */
export const ZUpdateSettingsResponse = ZVideoStyleSettings;
export type TUpdateSettingsResponse = z.infer<typeof ZUpdateSettingsResponse>;

/* ------------------------------------------------------------------ GET /api/user/profile */

/** The current user, with its company (name) and mail_language. */
export const ZProfileUser = ZUser.extend({ company: ZCompanyRef });
export type TProfileUser = z.infer<typeof ZProfileUser>;

export const ZProfileResponse = z.object({ user: ZProfileUser });
export type TProfileResponse = z.infer<typeof ZProfileResponse>;

/* ------------------------------------------------------------------ PUT /api/user/update-company */

export const ZUpdateCompanyBody = z.object({
  company_name: requiredText('Company name', TEXT_LIMITS.companyName),
  mail_language: ZLanguage,
});
export type TUpdateCompanyBody = z.infer<typeof ZUpdateCompanyBody>;

/** The profile as updated. A name used by another company answers name_exists. */
export const ZUpdateCompanyResponse = ZProfileResponse;
export type TUpdateCompanyResponse = z.infer<typeof ZUpdateCompanyResponse>;

/* ------------------------------------------------------------------ POST /api/auth/upload-logo (multipart) */

/** Multipart field name of the logo file. */
export const LOGO_FIELD = 'logo';
export const LOGO_NOT_IMAGE_MESSAGE = 'Please select an image file';
export const LOGO_TOO_LARGE_MESSAGE = 'File size must be less than 5MB';
/** A picture too big to decode cheaply, whatever its file size (limits: LOGO_PIXEL_LIMITS). */
export const LOGO_TOO_MANY_PIXELS_MESSAGE = 'This image is too large: at most 4096 × 4096 pixels (16 megapixels). Please select a smaller image.';

/**
 * What both sides check on the logo file before storing it: an image type and at most
 * LOGO_MAX_BYTES bytes. The client passes a File's `{ type, size }`; the server the part's mimetype
 * and the byte count it read.
 */
export const ZLogoFileInfo = z.object({
  type: z.string().refine((type) => type.startsWith('image/'), LOGO_NOT_IMAGE_MESSAGE),
  size: z.number().int().min(1, 'The file is empty').max(LOGO_MAX_BYTES, LOGO_TOO_LARGE_MESSAGE),
});
export type TLogoFileInfo = z.infer<typeof ZLogoFileInfo>;

/**
 * `{ logo_url, jobId }`, at once: `logo_url` is a short-lived signed address of the file as uploaded
 * (to show it right away), and `jobId` the `logo` job that makes it the company's logo (its normalised
 * copy, then served at the settings' `company_logo_url`); follow it through GET /api/jobs/{id}.
 */
export const ZUploadLogoResponse = z.object({ logo_url: z.string().min(1), jobId: ZId });
export type TUploadLogoResponse = z.infer<typeof ZUploadLogoResponse>;

/* ------------------------------------------------------------------ PUT /api/user/complete-onboarding */

// Body: ZEmptyBody.

export const ZCompleteOnboardingResponse = z.object({
  success: z.literal(true),
  onboarding_completed: z.literal(true),
});
export type TCompleteOnboardingResponse = z.infer<typeof ZCompleteOnboardingResponse>;
