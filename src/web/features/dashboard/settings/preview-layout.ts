/**
 * Where the live preview puts each piece, computed the way the renderer does
 * (src/server/media/render.ts and the studio service), so that the preview shows what the video shows.
 *
 * Everything is laid out on a frame of the renderer's reference size (960 × 540, REFERENCE_HEIGHT
 * high): the settings' sizes are pixels on such a frame. The preview draws that frame in an SVG whose
 * viewBox is this size, so the browser scales it to the preview's height exactly as ffmpeg scales it
 * to the video's height.
 *
 * - Intro card (drawtext): the question wrapped to a number of characters per line, at most six lines,
 *   line height 1.3 × size, the block centred vertically, each line centred horizontally with the top of
 *   its tallest glyph at the line's top + (line height − size) / 2; the logo 12 % of the height, centred,
 *   its top at 8 %.
 * - Subtitles (libass, SRT style on a 288-line script): size rounded to script units, the font scaled so
 *   that its Windows ascent + descent equals that size, lines stacked bottom-up from a 24-unit margin,
 *   a 2-unit black outline with the border on, a 1-unit black shadow without it.
 */
import type { PreviewFont } from './preview-fonts';
import { wrapText } from '../../../../contract/text-wrap.js';

/** The renderer's REFERENCE_HEIGHT: font sizes are pixels on a frame this high. */
export const REFERENCE_HEIGHT = 540;
/** The width of a 16:9 frame of the reference height. */
export const REFERENCE_WIDTH = 960;

/** The intro card's constants, as in the renderer. */
export const CARD = {
  lineHeight: 1.3,
  maxLines: 6,
  /** Share of the width the text may take. */
  textWidthShare: 0.82,
  /** The renderer's estimate of a character's width, in ems. */
  charWidth: 0.56,
  logoHeightShare: 0.12,
  logoTopShare: 0.08,
} as const;

/** libass's script of an SRT in ffmpeg (PlayResX × PlayResY) and the renderer's subtitle style. */
export const SUBTITLE = {
  scriptWidth: 384,
  scriptHeight: 288,
  marginV: 24,
  marginH: 10,
  outline: 2,
  shadow: 1,
} as const;

/** Preview pixels per reference pixel, for a preview frame `previewHeight` pixels high. */
export function previewScale(previewHeight: number): number {
  return previewHeight > 0 ? previewHeight / REFERENCE_HEIGHT : 0;
}

/** A size of the settings (pixels on the reference frame) in pixels of a frame `frameHeight` high. */
export function scaledSize(size: number, frameHeight: number): number {
  return size * previewScale(frameHeight);
}

const even = (n: number) => Math.max(2, Math.floor(n / 2) * 2);

export { wrapText };

/** Characters a card line holds at `size` on a `width` × `height` frame (the studio service's rule). */
export function cardMaxChars(size: number, width = REFERENCE_WIDTH, height = REFERENCE_HEIGHT): number {
  const px = scaledSize(size, height);
  return Math.max(8, Math.floor((width * CARD.textWidthShare) / (px * CARD.charWidth)));
}

export interface TextLine {
  text: string;
  /** Horizontal centre of the line. */
  x: number;
  /** The line's baseline. */
  baseline: number;
}

export interface CardLayout {
  width: number;
  height: number;
  /** CSS font size (the em), in frame pixels. */
  fontSize: number;
  lineHeight: number;
  /** 700 only when the font ships a bold file, as the renderer picks files. */
  fontWeight: 400 | 700;
  lines: TextLine[];
  /** The logo's box: centred horizontally, as high as `height`, proportional width. */
  logo: { top: number; height: number };
}

/**
 * How far the tallest glyph of a text rises above its baseline, at a font size (a canvas's
 * actualBoundingBoxAscent in the browser): drawtext puts that top, not the baseline, on its y.
 */
export type MeasureAscent = (text: string, fontSize: number) => number;

export function layoutCard(options: {
  text: string;
  size: number;
  bold: boolean;
  font: PreviewFont;
  /** Without it, the font's capital height stands in (lines nearly always hold a capital or an ascender). */
  ascent?: MeasureAscent | undefined;
  width?: number;
  height?: number;
}): CardLayout {
  const width = options.width ?? REFERENCE_WIDTH;
  const height = options.height ?? REFERENCE_HEIGHT;
  const fontSize = Math.round(scaledSize(options.size, height));
  const lineHeight = Math.round(fontSize * CARD.lineHeight);
  const words = wrapText(options.text, cardMaxChars(options.size, width, height)).slice(0, CARD.maxLines);
  const blockTop = (height - lineHeight * words.length) / 2;
  const capHeight = (fontSize * options.font.capHeight) / options.font.unitsPerEm;
  const ascent = (text: string) => {
    const measured = options.ascent?.(text, fontSize);
    return measured !== undefined && Number.isFinite(measured) && measured > 0 ? measured : capHeight;
  };
  return {
    width,
    height,
    fontSize,
    lineHeight,
    fontWeight: options.bold && options.font.hasBold ? 700 : 400,
    lines: words.map((text, i) => ({
      text,
      x: width / 2,
      baseline: blockTop + i * lineHeight + (lineHeight - fontSize) / 2 + ascent(text),
    })),
    logo: {
      top: height * CARD.logoTopShare,
      height: even(height * CARD.logoHeightShare),
    },
  };
}

/** Width of a text at a font size, in the same pixels (a canvas measure in the browser). */
export type MeasureText = (text: string, fontSize: number) => number;

/**
 * libass's default wrapping (WrapStyle 0): as few lines as fit the width, split so that they are about
 * as wide as each other, the upper lines a little wider.
 */
export function wrapSubtitle(text: string, maxWidth: number, measure: (text: string) => number): string[] {
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const whole = words.join(' ');
  const total = measure(whole);
  if (total <= maxWidth || words.length === 1) return [whole];
  const count = Math.ceil(total / maxWidth);
  const target = total / count;
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const candidate = line ? `${line} ${word}` : word;
    const filled = count - lines.length > 1 && measure(line) >= target;
    if (line && (filled || measure(candidate) > maxWidth)) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines;
}

export interface SubtitleLayout {
  width: number;
  height: number;
  /** CSS font size (the em), in frame pixels. */
  fontSize: number;
  /** libass's line height: the size the renderer asks for. */
  lineHeight: number;
  fontWeight: 400 | 700;
  lines: TextLine[];
  /** Width of the black outline around the glyphs (0 without the border). */
  outline: number;
  /** Offset of the black shadow (0 with the border). */
  shadow: number;
}

export function layoutSubtitle(options: {
  text: string;
  size: number;
  bold: boolean;
  border: boolean;
  font: PreviewFont;
  measure: MeasureText;
  width?: number;
  height?: number;
}): SubtitleLayout {
  const width = options.width ?? REFERENCE_WIDTH;
  const height = options.height ?? REFERENCE_HEIGHT;
  const unit = height / SUBTITLE.scriptHeight;
  const fontUnits = Math.round((options.size * SUBTITLE.scriptHeight) / REFERENCE_HEIGHT);
  const lineHeight = fontUnits * unit;
  const { unitsPerEm, winAscent, winDescent } = options.font;
  const fontSize = (lineHeight * unitsPerEm) / (winAscent + winDescent);
  const descent = (fontSize * winDescent) / unitsPerEm;
  const maxWidth = width - 2 * SUBTITLE.marginH * (width / SUBTITLE.scriptWidth);
  const texts = wrapSubtitle(options.text, maxWidth, (t) => options.measure(t, fontSize));
  const lastBaseline = height - SUBTITLE.marginV * unit - descent;
  return {
    width,
    height,
    fontSize,
    lineHeight,
    fontWeight: options.bold ? 700 : 400,
    lines: texts.map((text, i) => ({
      text,
      x: width / 2,
      baseline: lastBaseline - (texts.length - 1 - i) * lineHeight,
    })),
    outline: options.border ? SUBTITLE.outline * unit : 0,
    shadow: options.border ? 0 : SUBTITLE.shadow * unit,
  };
}
