/**
 * Where the live preview puts each piece, computed the way the renderer does
 * (src/server/media/render.ts and the studio service), so that the preview shows what the video shows.
 * The numbers and the card's geometry come from src/contract/card-layout.ts, which the renderer uses too.
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
import type { PreviewFont } from './preview-fonts.js';
import {
  CARD_GLYPH_WIDTH_RATIO,
  CARD_LINE_HEIGHT_RATIO,
  CARD_LOGO_HEIGHT_RATIO,
  CARD_LOGO_TOP_RATIO,
  CARD_MAX_LINES,
  CARD_REFERENCE_HEIGHT,
  CARD_REFERENCE_WIDTH,
  CARD_TEXT_WIDTH_RATIO,
  cardGeometry,
  cardLines,
  cardMaxChars as contractCardMaxChars,
  SUBTITLE_SCRIPT,
  subtitleScriptSize,
} from '../../../../contract/card-layout.js';
import { wrapText } from '../../../../contract/text-wrap.js';

/** The renderer's REFERENCE_HEIGHT: font sizes are pixels on a frame this high. */
export const REFERENCE_HEIGHT = CARD_REFERENCE_HEIGHT;
/** The width of a 16:9 frame of the reference height. */
export const REFERENCE_WIDTH = CARD_REFERENCE_WIDTH;

/** The intro card's constants, as in the renderer (src/contract/card-layout.ts). */
export const CARD = {
  lineHeight: CARD_LINE_HEIGHT_RATIO,
  maxLines: CARD_MAX_LINES,
  /** Share of the width the text may take. */
  textWidthShare: CARD_TEXT_WIDTH_RATIO,
  /** The renderer's estimate of a character's width, in ems. */
  charWidth: CARD_GLYPH_WIDTH_RATIO,
  logoHeightShare: CARD_LOGO_HEIGHT_RATIO,
  logoTopShare: CARD_LOGO_TOP_RATIO,
} as const;

/** libass's script of an SRT in ffmpeg (PlayResX × PlayResY) and the renderer's subtitle style. */
export const SUBTITLE = {
  scriptWidth: SUBTITLE_SCRIPT.width,
  scriptHeight: SUBTITLE_SCRIPT.height,
  marginV: SUBTITLE_SCRIPT.marginV,
  marginH: SUBTITLE_SCRIPT.marginH,
  outline: SUBTITLE_SCRIPT.outline,
  shadow: SUBTITLE_SCRIPT.shadow,
} as const;

/** Preview pixels per reference pixel, for a preview frame `previewHeight` pixels high. */
export function previewScale(previewHeight: number): number {
  return previewHeight > 0 ? previewHeight / REFERENCE_HEIGHT : 0;
}

/** A size of the settings (pixels on the reference frame) in pixels of a frame `frameHeight` high. */
export function scaledSize(size: number, frameHeight: number): number {
  return size * previewScale(frameHeight);
}

export { wrapText };

/** Characters a card line holds at `size` on a `width` × `height` frame (the renderer's rule, from the contract). */
export function cardMaxChars(size: number, width = REFERENCE_WIDTH, height = REFERENCE_HEIGHT): number {
  return contractCardMaxChars(width, height, size);
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
  const words = cardLines(options.text, width, height, options.size);
  const { fontSize, lineHeight, lineTops, logo } = cardGeometry({ height, size: options.size, lineCount: words.length });
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
      baseline: lineTops[i]! + ascent(text),
    })),
    logo,
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
  const fontUnits = subtitleScriptSize(options.size);
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
