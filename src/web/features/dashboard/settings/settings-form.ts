/**
 * The settings forms as plain data: from the API's answers to form values and back, validated by the
 * contract's own schemas (the server validates the same bodies with them), and compared to know
 * whether anything changed.
 */
import { ZUpdateCompanyBody, ZVideoStyleFields, ZLogoFileInfo } from '../../../../contract/api/settings.schema.js';
import type { TProfileUser, TUpdateCompanyBody, TVideoStyleFields } from '../../../../contract/api/settings.schema.js';
import { HEX_COLOR_PATTERN } from '../../../../contract/api/common.js';
import { DEFAULT_VIDEO_STYLE, FONT_SIZE_LIMITS } from '../../../../contract/constants.js';
import type { TLanguage } from '../../../../contract/constants.js';
import type { TLogoPlate } from '../../../../contract/logo-contrast.js';
import { matchingTheme } from '../../../../contract/video-themes.js';
import type { VideoTheme } from '../../../../contract/video-themes.js';
import { fieldMessages, issueMessage } from './settings-messages';
import type { TMessage } from './settings-messages';

/* ------------------------------------------------------------------ video style */

type TSizeField = 'font_size_question' | 'font_size_subtitle';

/** The style as edited: sizes are what the person typed (a number field may hold '' or '7' for a moment). */
type TIssue31Field = 'lower_third' | 'end_card' | 'end_card_text' | 'end_card_address' | 'caption_style' | 'prepare_drafts';
export type TStyleForm = Omit<TVideoStyleFields, TSizeField | 'logo_plate' | TIssue31Field> &
  Record<TSizeField, string> & { logo_plate: TLogoPlate } & Required<Pick<TVideoStyleFields, TIssue31Field>>;
export type TStyleField = keyof TStyleForm;
export type TStyleErrors = Partial<Record<TStyleField, TMessage>>;

/** The form values of saved settings (GET or POST answer); company_logo_url is not a form field. */
export function styleToForm(settings: TVideoStyleFields): TStyleForm {
  return {
    font_size_question: String(settings.font_size_question),
    font_color_question: settings.font_color_question.toLowerCase(),
    font_style_question: settings.font_style_question,
    font_bold_question: settings.font_bold_question,
    font_size_subtitle: String(settings.font_size_subtitle),
    font_color_subtitle: settings.font_color_subtitle.toLowerCase(),
    font_style_subtitle: settings.font_style_subtitle,
    font_bold_subtitle: settings.font_bold_subtitle,
    subtitle_border: settings.subtitle_border,
    logo_url: settings.logo_url,
    background_color: settings.background_color.toLowerCase(),
    show_logo_in_videos: settings.show_logo_in_videos,
    logo_plate: settings.logo_plate ?? 'auto',
    lower_third: settings.lower_third ?? DEFAULT_VIDEO_STYLE.lower_third,
    end_card: settings.end_card ?? DEFAULT_VIDEO_STYLE.end_card,
    end_card_text: settings.end_card_text ?? DEFAULT_VIDEO_STYLE.end_card_text,
    end_card_address: settings.end_card_address ?? DEFAULT_VIDEO_STYLE.end_card_address,
    caption_style: settings.caption_style ?? DEFAULT_VIDEO_STYLE.caption_style,
    prepare_drafts: settings.prepare_drafts ?? DEFAULT_VIDEO_STYLE.prepare_drafts,
  };
}

/**
 * The defaults of spec §3, keeping the uploaded logo's address: a reset turns the logo off in videos
 * but does not delete the file the company uploaded.
 */
export function defaultStyleForm(logoUrl: string): TStyleForm {
  return styleToForm({ ...DEFAULT_VIDEO_STYLE, logo_url: logoUrl });
}

/** The form with a ready-made theme's style fields; the logo and whether videos show it are kept. */
export function themeStyleForm(form: TStyleForm, theme: VideoTheme): TStyleForm {
  const { font_size_question, font_size_subtitle, ...rest } = theme.style;
  return { ...form, ...rest, font_size_question: String(font_size_question), font_size_subtitle: String(font_size_subtitle) };
}

/** The theme whose style fields all equal the form's (as they would be saved), if any. */
export function formTheme(form: TStyleForm): VideoTheme | undefined {
  return matchingTheme(normalisedStyle(form));
}

/** A typed size: a number written in digits, or NaN (which the contract refuses). */
export function parseSize(value: string): number {
  const trimmed = value.trim();
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** What update-settings would send for these values (not yet validated). */
export function styleFormToBody(form: TStyleForm): Record<keyof TVideoStyleFields, unknown> {
  return {
    ...form,
    font_size_question: parseSize(form.font_size_question),
    font_size_subtitle: parseSize(form.font_size_subtitle),
  };
}

export type TValidation<B, E> = { ok: true; body: B } | { ok: false; errors: E };

/** The update-settings body, checked by the contract's schema; or each field's first error. */
export function validateStyle(form: TStyleForm): TValidation<TVideoStyleFields, TStyleErrors> {
  const parsed = ZVideoStyleFields.safeParse(styleFormToBody(form));
  if (parsed.success) return { ok: true, body: parsed.data };
  return { ok: false, errors: fieldMessages<TStyleField>(parsed.error) };
}

function normalisedStyle(form: TStyleForm): Record<string, unknown> {
  const size = (value: string) => (Number.isFinite(parseSize(value)) ? parseSize(value) : value.trim());
  return {
    ...form,
    font_size_question: size(form.font_size_question),
    font_size_subtitle: size(form.font_size_subtitle),
    font_color_question: form.font_color_question.trim().toLowerCase(),
    font_color_subtitle: form.font_color_subtitle.trim().toLowerCase(),
    background_color: form.background_color.trim().toLowerCase(),
  };
}

/** Whether two sets of values would save the same thing. */
export function sameStyle(a: TStyleForm, b: TStyleForm): boolean {
  const x = normalisedStyle(a);
  const y = normalisedStyle(b);
  return Object.keys(x).every((key) => Object.is(x[key], y[key]));
}

/** The fields whose values differ. */
export function changedStyleFields(a: TStyleForm, b: TStyleForm): TStyleField[] {
  const x = normalisedStyle(a);
  const y = normalisedStyle(b);
  return (Object.keys(x) as TStyleField[]).filter((key) => !Object.is(x[key], y[key]));
}

/**
 * A typed colour made whole when it is unambiguous: '#FFCC00' → '#ffcc00', 'ffcc00' → '#ffcc00',
 * '#fc0' → '#ffcc00'. Anything else is returned as typed, for the validation to point out.
 */
export function normaliseHex(value: string): string {
  const trimmed = value.trim();
  const bare = trimmed.startsWith('#') ? trimmed.slice(1) : trimmed;
  if (/^[0-9a-fA-F]{3}$/.test(bare)) {
    return `#${[...bare].map((c) => c + c).join('')}`.toLowerCase();
  }
  if (/^[0-9a-fA-F]{6}$/.test(bare)) return `#${bare}`.toLowerCase();
  return value;
}

/** Whether a colour is complete (#rrggbb), e.g. to feed a colour picker. */
export function isHexColor(value: string): boolean {
  return HEX_COLOR_PATTERN.test(value);
}

/** A size kept within the slider's range (the number field may hold anything). */
export function clampSize(value: string, min: number, max: number): number {
  const n = parseSize(value);
  if (!Number.isFinite(n)) return min;
  return Math.min(max, Math.max(min, Math.round(n)));
}

/* ------------------------------------------------------------------ account */

export interface TAccountForm {
  company_name: string;
  mail_language: TLanguage;
}
export type TAccountErrors = Partial<Record<keyof TAccountForm, TMessage>>;

/** The account values of the profile (GET /api/user/profile: user.company.name, user.mail_language). */
export function accountFromProfile(user: Pick<TProfileUser, 'company' | 'mail_language'>): TAccountForm {
  return { company_name: user.company.name, mail_language: user.mail_language };
}

/** The update-company body (the name trimmed), checked by the contract's schema; or each field's error. */
export function validateAccount(form: TAccountForm): TValidation<TUpdateCompanyBody, TAccountErrors> {
  const parsed = ZUpdateCompanyBody.safeParse(form);
  if (parsed.success) return { ok: true, body: parsed.data };
  return { ok: false, errors: fieldMessages<keyof TAccountForm>(parsed.error) };
}

export function sameAccount(a: TAccountForm, b: TAccountForm): boolean {
  return a.company_name.trim() === b.company_name.trim() && a.mail_language === b.mail_language;
}

/* ------------------------------------------------------------------ logo file */

/** The logo checks of spec §5 before any upload (the server repeats them): null when the file may go. */
export function checkLogoFile(file: { type: string; size: number }): TMessage | null {
  const parsed = ZLogoFileInfo.safeParse({ type: file.type, size: file.size });
  if (parsed.success) return null;
  // The type first: a large text file is 'not an image' before it is 'too large'.
  const issue = parsed.error.issues.find((i) => i.path[0] === 'type') ?? parsed.error.issues[0];
  return issue ? issueMessage(String(issue.path[0]), issue) : null;
}

/* ------------------------------------------------------------------ preview */

export interface TPreviewTextStyle {
  font: string;
  size: number;
  color: string;
  bold: boolean;
}

/** What the preview draws: only whole values (a half-typed colour or size shows the last good one). */
export interface TPreviewStyle {
  question: TPreviewTextStyle;
  subtitle: TPreviewTextStyle & { border: boolean };
  background: string;
  logoUrl: string | null;
  showLogo: boolean;
  /** The logo sits on the light plate (decision 172; the panel decides it from the logo's measure). */
  logoPlate?: boolean;
  /** Issue 31: the lower-third on each answer, and the end card's texts (null when it is off or empty). */
  lowerThird?: boolean;
  endCard?: { text: string; address: string } | null;
}

export function previewStyle(form: TStyleForm, fallback: TStyleForm): TPreviewStyle {
  const color = (value: string, other: string) =>
    isHexColor(value) ? value.toLowerCase() : isHexColor(other) ? other.toLowerCase() : '#ffffff';
  const size = (value: string, other: string, limits: { min: number; max: number }) => {
    const n = parseSize(value);
    const usable = Number.isInteger(n) && n >= limits.min && n <= limits.max;
    return usable ? n : clampSize(other, limits.min, limits.max);
  };
  return {
    question: {
      font: form.font_style_question,
      size: size(form.font_size_question, fallback.font_size_question, FONT_SIZE_LIMITS.question),
      color: color(form.font_color_question, fallback.font_color_question),
      bold: form.font_bold_question,
    },
    subtitle: {
      font: form.font_style_subtitle,
      size: size(form.font_size_subtitle, fallback.font_size_subtitle, FONT_SIZE_LIMITS.subtitle),
      color: color(form.font_color_subtitle, fallback.font_color_subtitle),
      bold: form.font_bold_subtitle,
      border: form.subtitle_border,
    },
    background: isHexColor(form.background_color)
      ? form.background_color.toLowerCase()
      : color(fallback.background_color, '#000000'),
    logoUrl: form.logo_url || null,
    showLogo: form.show_logo_in_videos,
    lowerThird: form.lower_third,
    endCard: form.end_card && (form.end_card_text.trim() || form.end_card_address.trim()) ? { text: form.end_card_text.trim(), address: form.end_card_address.trim() } : null,
  };
}
