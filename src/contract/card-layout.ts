/**
 * What the settings preview, the crop editor and the renderer (ffmpeg) share about a question card and
 * a subtitle, so that they cannot drift apart (issue 16). Sizes are given at CARD_REFERENCE_HEIGHT and
 * scaled to the frame. The renderer (src/server/media/render.ts) writes these numbers into its filter
 * graph; the preview (web settings, preview-layout.ts) draws with them; card-layout.test.ts pins both.
 */
import { wrapText } from './text-wrap.js';

/** The frame height the company's font sizes are chosen for (the 540-line frame of the first renders). */
export const CARD_REFERENCE_HEIGHT = 540;
/** The width of a 16:9 frame of the reference height (the preview's frame). */
export const CARD_REFERENCE_WIDTH = 960;
/** At most this many lines of the question are drawn. */
export const CARD_MAX_LINES = 6;
/** A line of the question is this many times the font's pixel size high. */
export const CARD_LINE_HEIGHT_RATIO = 1.3;
/** Share of the frame's width the question's lines may use. */
export const CARD_TEXT_WIDTH_RATIO = 0.82;
/** Average glyph width as a share of the font's pixel size (the wrap's estimate). */
export const CARD_GLYPH_WIDTH_RATIO = 0.56;
/** The logo's height as a share of the frame's (rounded down to even pixels). */
export const CARD_LOGO_HEIGHT_RATIO = 0.12;
/** The logo's top, as a share of the frame's height from the top. */
export const CARD_LOGO_TOP_RATIO = 0.08;

/**
 * An SRT burned in by ffmpeg is a libass script of this size (PlayResX × PlayResY): sizes and margins
 * of the renderer's subtitle style are in its units.
 */
export const SUBTITLE_SCRIPT = {
  width: 384,
  height: 288,
  /** Bottom margin (MarginV) of the renderer's style. */
  marginV: 24,
  /** libass's default left and right margin. */
  marginH: 10,
  /** Black outline with the border on (Outline). */
  outline: 2,
  /** Black shadow without it (Shadow). */
  shadow: 1,
} as const;

/** Down to an even number, at least 2 (ffmpeg's yuv420p frames and crops have even sizes). */
export const evenSize = (n: number) => Math.max(2, Math.floor(n / 2) * 2);

/** The question's font size in pixels on a frame of this height (unrounded). */
export const cardFontPixels = (size: number, height: number) => size * (height / CARD_REFERENCE_HEIGHT);

/** How many characters of the question fit on one line of a card of this frame, at this font size. */
export function cardMaxChars(width: number, height: number, size: number): number {
  return Math.max(8, Math.floor((width * CARD_TEXT_WIDTH_RATIO) / (cardFontPixels(size, height) * CARD_GLYPH_WIDTH_RATIO)));
}

/** The question's lines on a card of this frame at this size: wrapped, at most CARD_MAX_LINES. */
export function cardLines(text: string, width: number, height: number, size: number): string[] {
  return wrapText(text, cardMaxChars(width, height, size)).slice(0, CARD_MAX_LINES);
}

/** Where the pieces of a card go on a frame of `height` pixels, for `lineCount` lines at `size`. */
export interface CardGeometry {
  /** The font size drawtext is given, in whole pixels. */
  fontSize: number;
  /** The distance between two lines' tops, in whole pixels. */
  lineHeight: number;
  /** The top of the block of lines (the block is centred vertically). */
  blockTop: number;
  /** The top of each line's tallest glyph (drawtext's y): the line's top + (line height − size) / 2. */
  lineTops: number[];
  /** The logo: centred horizontally, `height` high (even), its top at `top`. */
  logo: { top: number; height: number };
}

export function cardGeometry(o: { height: number; size: number; lineCount: number }): CardGeometry {
  const fontSize = Math.round(cardFontPixels(o.size, o.height));
  const lineHeight = Math.round(fontSize * CARD_LINE_HEIGHT_RATIO);
  const blockTop = (o.height - lineHeight * o.lineCount) / 2;
  return {
    fontSize,
    lineHeight,
    blockTop,
    lineTops: Array.from({ length: o.lineCount }, (_, i) => blockTop + i * lineHeight + (lineHeight - fontSize) / 2),
    logo: { top: o.height * CARD_LOGO_TOP_RATIO, height: evenSize(o.height * CARD_LOGO_HEIGHT_RATIO) },
  };
}

/** The subtitle's size in libass script units, from a size in pixels on a reference frame. */
export const subtitleScriptSize = (size: number) => Math.round((size * SUBTITLE_SCRIPT.height) / CARD_REFERENCE_HEIGHT);
