/** Business constants shared by the web app and the server (spec: both documents, §9). */

export const LANGUAGES = ['en', 'fr'] as const;
export type TLanguage = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: TLanguage = 'fr';
export const DEFAULT_LANGUAGE: TLanguage = 'en';

/** Languages of a testimonial request, as the send payload names them. */
export const REQUEST_LANGUAGES = ['english', 'french'] as const;
export type TRequestLanguage = (typeof REQUEST_LANGUAGES)[number];

export const PASSWORD_MIN_LENGTH = 6;

export const RECORDING = {
  maxSeconds: 20,
  countdownSeconds: 3,
  /** Server-side tolerance on the duration of an uploaded answer. */
  durationToleranceSeconds: 1,
  defaultBackgroundColor: '#000000',
} as const;

export const CREDITS_PER_VIEW = 1;

export const QUESTION_MAX_LENGTH = 500;

export const BREAKPOINTS = {
  /** Sidebar becomes an overlay drawer at this width and below. */
  drawerMax: 1024,
  /** Tables become cards below this width; requests page is 'mobile' below it. */
  mobileBelow: 768,
} as const;

export const TIMINGS = {
  signupStepExitMs: 300,
  signupFadeInMs: 500,
  googleSignupRedirectMs: 100,
  signinQueryMessageMs: 5000,
  resetRedirectMs: 3000,
  toastAutoCloseMs: 3000,
  requestSuccessMs: 4000,
  detailBannerMs: 10_000,
  processingStepMs: 2000,
  processingMax: 30,
  transcriptionPollMs: 3000,
  transcriptionMaxFailures: 5,
  onboardingStartMs: 1200,
  onboardingSidebarDelayMs: 500,
} as const;

export const LOGO_MAX_BYTES = 5_242_880;
/**
 * A logo's picture: refused beyond `maxSide` pixels on a side or `maxPixels` in all (decoding costs
 * memory and time in proportion, whatever the file's size), and stored at most `storedSide` pixels on
 * its long side, which is what renders, e-mails and pages use.
 */
export const LOGO_PIXEL_LIMITS = { maxSide: 4096, maxPixels: 16_777_216, storedSide: 1024 } as const;

export const FONT_SIZE_LIMITS = {
  question: { min: 12, max: 72 },
  subtitle: { min: 12, max: 48 },
} as const;

export const FONT_CHOICES = [
  'Andale Mono',
  'Arial',
  'Arial Black',
  'Comic Sans MS',
  'Courier New',
  'Georgia',
  'Impact',
  'Times New Roman',
  'Trebuchet MS',
  'Verdana',
] as const;
export type TFontChoice = (typeof FONT_CHOICES)[number];

/**
 * A font of the settings, or `fallback` for a name that is not one (an old row, a hand-edited value): the
 * renderer and the settings preview read font names through this one rule.
 */
export const fontChoice = (name: string | null | undefined, fallback: TFontChoice = 'Arial'): TFontChoice =>
  (FONT_CHOICES as readonly string[]).includes(name ?? '') ? (name as TFontChoice) : fallback;

/** A new company's style: the first ready-made theme (src/contract/video-themes.ts), no logo yet. */
export const DEFAULT_VIDEO_STYLE = {
  font_size_question: 40,
  font_color_question: '#ffffff',
  font_style_question: 'Trebuchet MS',
  font_bold_question: true,
  font_size_subtitle: 34,
  font_color_subtitle: '#ffffff',
  font_style_subtitle: 'Trebuchet MS',
  font_bold_subtitle: true,
  subtitle_border: true,
  logo_url: '',
  background_color: '#15171f',
  show_logo_in_videos: false,
  /** The light plate behind the logo: automatic, when the logo is hard to see on the background (decision 172). */
  logo_plate: 'auto',
  /** Issue 31: the name and position lower-third, and the end card, off until the company turns them on. */
  lower_third: false,
  end_card: false,
  end_card_text: '',
  end_card_address: '',
  caption_style: 'line',
  /** Issue 31: pay for a testimonial on arrival (when a credit is left) and make its draft (decision 207); off by default. */
  prepare_drafts: false,
} as const;

/** Issue 31: how subtitles are drawn: a cue at a time ('line') or word by word, the spoken word highlighted ('word'). */
export const CAPTION_STYLES = ['line', 'word'] as const;
export type TCaptionStyle = (typeof CAPTION_STYLES)[number];

/** Issue 31: the end card's call to action and address, kept short enough for a 1:1 frame. */
export const END_CARD_LIMITS = { text: 60, address: 80 } as const;

export interface CreditPackage {
  /** Stable identifier of the package; the Stripe price id is configured per id on the server. */
  id: 'starter' | 'small' | 'medium' | 'large' | 'extra_large';
  name: string;
  credits: number;
  /** Euros per video. */
  unitPrice: number;
  /** Euros for the package. */
  totalPrice: number;
  /** Discount against the Starter unit price, as shown ('-20%'), or empty. */
  discountText: string;
  discountPercent: number;
  featured: boolean;
}

export const CREDIT_PACKAGES: readonly CreditPackage[] = [
  { id: 'starter', name: 'Starter', credits: 5, unitPrice: 15, totalPrice: 75, discountText: '', discountPercent: 0, featured: false },
  { id: 'small', name: 'Small', credits: 10, unitPrice: 12, totalPrice: 120, discountText: '-20%', discountPercent: 20, featured: false },
  { id: 'medium', name: 'Medium', credits: 25, unitPrice: 10, totalPrice: 250, discountText: '-33%', discountPercent: 33, featured: true },
  { id: 'large', name: 'Large', credits: 50, unitPrice: 8, totalPrice: 400, discountText: '-47%', discountPercent: 47, featured: false },
  { id: 'extra_large', name: 'Extra Large', credits: 150, unitPrice: 6, totalPrice: 900, discountText: '-60%', discountPercent: 60, featured: false },
];

export const CURRENCY = 'eur';

/** '75 €' in French, '€75' otherwise (spec §9). Thousands grouped per language. */
export function formatPrice(amount: number, lang: string): string {
  const isFrench = lang.toLowerCase().startsWith('fr');
  const hasCents = !Number.isInteger(amount);
  const n = new Intl.NumberFormat(isFrench ? 'fr-FR' : 'en-GB', {
    minimumFractionDigits: hasCents ? 2 : 0,
    maximumFractionDigits: 2,
  }).format(amount);
  return isFrench ? `${n}\u00a0€` : `€${n}`;
}

/** The credit label is singular at 1 or fewer, plural otherwise. */
export function isCreditPlural(count: number): boolean {
  return count > 1;
}

/** Request statuses (pending, completed, expired). */
export const REQUEST_STATUSES = ['pending', 'completed', 'expired'] as const;
export type TRequestStatus = (typeof REQUEST_STATUSES)[number];

export const DEFAULT_REQUEST_EXPIRY_DAYS = 30;
