/**
 * The fonts of the live preview: the same `@fontsource` files the renderer gives ffmpeg
 * (src/server/media/fonts.ts). Their @font-face rules load with the settings chunk (font-faces.ts);
 * this module holds what the layout needs to know about each of them.
 */
import { FONT_CHOICES } from '../../../../contract/constants.js';
import type { TFontChoice } from '../../../../contract/constants.js';

export interface PreviewFont {
  /** The @font-face family (the server's FONT_MAP family). */
  family: string;
  /** Whether a 700 file ships: the card's bold uses it, and stays regular without it. */
  hasBold: boolean;
  /** Units per em of the font. */
  unitsPerEm: number;
  /**
   * OS/2 usWinAscent and usWinDescent of the shipped Latin file. libass sizes text so that their sum
   * equals the font size (GDI's rule), and puts the baseline usWinDescent above the line's bottom.
   */
  winAscent: number;
  winDescent: number;
  /** Height of capitals (OS/2 sCapHeight, or the 'H' of fonts without it): where drawtext's line top is. */
  capHeight: number;
}

/**
 * Read from node_modules/@fontsource/<package>/files/<package>-latin-400-normal.woff2 (head and OS/2
 * tables; the 700 files carry the same values). Checked against ffmpeg's libass output: capitals and
 * baselines land within a pixel of these numbers on a 540 px frame.
 */
export const PREVIEW_FONTS: Record<TFontChoice, PreviewFont> = {
  Arial: {
    family: 'Arimo',
    hasBold: true,
    unitsPerEm: 2048,
    winAscent: 2136,
    winDescent: 797,
    capHeight: 1409,
  },
  'Times New Roman': {
    family: 'Tinos',
    hasBold: true,
    unitsPerEm: 2048,
    winAscent: 1825,
    winDescent: 443,
    capHeight: 1341,
  },
  'Courier New': {
    family: 'Cousine',
    hasBold: true,
    unitsPerEm: 2048,
    winAscent: 1705,
    winDescent: 615,
    capHeight: 1349,
  },
  Georgia: {
    family: 'Gelasio',
    hasBold: true,
    unitsPerEm: 2048,
    winAscent: 2600,
    winDescent: 800,
    capHeight: 1419,
  },
  'Comic Sans MS': {
    family: 'Comic Neue',
    hasBold: true,
    unitsPerEm: 1000,
    winAscent: 1000,
    winDescent: 350,
    capHeight: 670,
  },
  'Arial Black': {
    family: 'Archivo Black',
    hasBold: false,
    unitsPerEm: 1000,
    winAscent: 1035,
    winDescent: 312,
    capHeight: 688,
  },
  Impact: {
    family: 'Anton',
    hasBold: false,
    unitsPerEm: 2048,
    winAscent: 2876,
    winDescent: 674,
    capHeight: 1760,
  },
  Verdana: {
    family: 'DejaVu Sans',
    hasBold: true,
    unitsPerEm: 2048,
    winAscent: 1901,
    winDescent: 483,
    capHeight: 1493,
  },
  'Trebuchet MS': {
    family: 'Fira Sans',
    hasBold: true,
    unitsPerEm: 1000,
    winAscent: 935,
    winDescent: 265,
    capHeight: 689,
  },
  'Andale Mono': {
    family: 'DejaVu Sans Mono',
    hasBold: true,
    unitsPerEm: 2048,
    winAscent: 1901,
    winDescent: 483,
    capHeight: 1493,
  },
};

/** The preview font of a choice; unknown names fall back to Arial, as the renderer does. */
export function previewFont(choice: string): PreviewFont {
  return (FONT_CHOICES as readonly string[]).includes(choice)
    ? PREVIEW_FONTS[choice as TFontChoice]
    : PREVIEW_FONTS.Arial;
}

/** A CSS font-family value for the preview: the shipped family, then a neutral fallback while it loads. */
export function cssFamily(font: PreviewFont): string {
  return `"${font.family}", sans-serif`;
}
