import { luminance } from './video-themes.js';

/**
 * Whether the company's logo reads on the background it is drawn on (issue 27, decision 172). The
 * logo job measures the mean relative luminance of the logo's opaque pixels; the logo is compared with
 * the background as one colour of that luminance would be, with WCAG's contrast ratio. Under 3:1 (the
 * WCAG minimum for graphical objects, 1.4.11) the logo is hard to see, and a light plate behind it
 * helps when the logo is darker than the plate.
 */

/** WCAG's minimum contrast for graphical objects: under it a logo is hard to see. */
export const LOGO_MIN_CONTRAST = 3;

/** The plate drawn behind a logo that needs one: a light, nearly white tile. */
export const LOGO_PLATE_COLOR = '#ffffff';

/** The plate's margin around the logo, as a share of the logo band's height (the render and the preview). */
export const LOGO_PLATE_MARGIN_RATIO = 0.14;

/** Whether the logo goes on a plate: 'auto' decides from the contrast, 'on' and 'off' are the company's choice. */
export const LOGO_PLATE_CHOICES = ['auto', 'on', 'off'] as const;
export type TLogoPlate = (typeof LOGO_PLATE_CHOICES)[number];

/** WCAG contrast ratio of two relative luminances (1 to 21). */
export function luminanceContrast(a: number, b: number): number {
  const [hi, lo] = a >= b ? [a, b] : [b, a];
  return (hi + 0.05) / (lo + 0.05);
}

/** The contrast of a logo of this luminance on a #rrggbb background, or null when the luminance is unknown. */
export function logoContrast(logoLuminance: number | null, background: string): number | null {
  if (logoLuminance === null || !/^#[0-9a-fA-F]{6}$/.test(background)) return null;
  return luminanceContrast(logoLuminance, luminance(background));
}

/** The logo is hard to see on this background (unknown luminance: not known to be hard to see). */
export function logoContrastLow(logoLuminance: number | null, background: string): boolean {
  const ratio = logoContrast(logoLuminance, background);
  return ratio !== null && ratio < LOGO_MIN_CONTRAST;
}

/**
 * Whether the logo is drawn on the light plate: always with 'on', never with 'off'; with 'auto' when it
 * is hard to see on the background and the plate gives it more contrast than the background does.
 */
export function logoOnPlate(o: { logoLuminance: number | null; background: string; plate: TLogoPlate }): boolean {
  if (o.plate !== 'auto') return o.plate === 'on';
  if (!logoContrastLow(o.logoLuminance, o.background)) return false;
  return luminanceContrast(o.logoLuminance!, luminance(LOGO_PLATE_COLOR)) > logoContrast(o.logoLuminance, o.background)!;
}
