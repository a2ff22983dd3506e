/**
 * Where the live preview puts each piece: the question card and the subtitles laid out by the renderer's
 * own rules, src/contract/frame-layout.ts (issue 17), so that the preview shows what the video shows.
 *
 * - Each format is a frame of the video's own size (the answer as recorded, a LinkedIn 16:9 export, a 1:1
 *   or 4:5 feed post, a Reels/TikTok/Shorts 9:16 export), of the kind the renderer gives that export
 *   (render.ts exportFrame), so each is composed with that kind's safe area. The preview draws it in an SVG whose viewBox is that frame, so the
 *   browser scales the whole picture down as one.
 * - Card: `fitCard` wraps the question on measured widths, shrinks it step by step to a minimum, cuts it
 *   with an ellipsis only past that, and reserves the logo's band. drawtext puts the top of a line's
 *   tallest glyph on the line's `top`; an SVG text is placed by its baseline, so the preview adds the
 *   line's ink ascent (a canvas measure, or the font's capital height without one).
 * - Subtitles: `subtitleBox` gives libass's size, margins, outline and shadow in frame pixels (the ASS
 *   script's PlayRes is the frame). libass sizes a font so that its Windows ascent + descent equal the
 *   size (GDI's rule), wraps with WrapStyle 0 into balanced lines, centres them between the left and
 *   right margins (Alignment 2) and stacks them up from the bottom margin.
 */
import { EXPORT_PLATFORM_SPECS } from '../../../../contract/api/studio.schema.js';
import { fontChoice } from '../../../../contract/constants.js';
import { fitCard, fitCuesToFrame, REFERENCE_SHORT_SIDE, safeArea, subtitleBox } from '../../../../contract/frame-layout.js';
import type { Box, FrameKind, SubtitleBox } from '../../../../contract/frame-layout.js';
import { previewFont } from './preview-fonts.js';

/* ------------------------------------------------------------------ frames */

/** The formats the preview can show, in the order of its switch: the answer, then the exports from wide to tall. */
export const PREVIEW_FORMATS = ['answer', 'landscape', 'square', 'portrait', 'vertical'] as const;
export type TPreviewFormat = (typeof PREVIEW_FORMATS)[number];

export interface PreviewFrame {
  width: number;
  height: number;
  kind: FrameKind;
}

/**
 * The frame of each format: the answer as recorded (a 16:9 frame of the reference height, the size the
 * settings' pixels are chosen on), and the four export sizes (studio.schema.ts) with the kind the
 * renderer composes them as (render.ts exportFrame: 'square' and 'portrait' by platform).
 */
export const PREVIEW_FRAMES: Record<TPreviewFormat, PreviewFrame> = {
  answer: { width: Math.round((REFERENCE_SHORT_SIDE * 16) / 9), height: REFERENCE_SHORT_SIDE, kind: 'answer' },
  landscape: { width: EXPORT_PLATFORM_SPECS.linkedin.width, height: EXPORT_PLATFORM_SPECS.linkedin.height, kind: 'landscape' },
  square: { width: EXPORT_PLATFORM_SPECS.square.width, height: EXPORT_PLATFORM_SPECS.square.height, kind: 'square' },
  portrait: { width: EXPORT_PLATFORM_SPECS.portrait.width, height: EXPORT_PLATFORM_SPECS.portrait.height, kind: 'portrait' },
  vertical: { width: EXPORT_PLATFORM_SPECS.shorts.width, height: EXPORT_PLATFORM_SPECS.shorts.height, kind: 'vertical' },
};

/** The width-to-height ratio each format's switch shows ('answer' has none: the answer keeps its own). */
export const PREVIEW_RATIOS: Record<TPreviewFormat, string | null> = {
  answer: null,
  landscape: EXPORT_PLATFORM_SPECS.linkedin.aspect,
  square: EXPORT_PLATFORM_SPECS.square.aspect,
  portrait: EXPORT_PLATFORM_SPECS.portrait.aspect,
  vertical: EXPORT_PLATFORM_SPECS.shorts.aspect,
};

/** A font name of the settings as the renderer reads it: unknown names fall back to Arial (the contract's rule). */
export { fontChoice };

/** The zones a platform draws over a 9:16 video (its safe area's margins), in frame pixels; none elsewhere. */
export function overlayZones(frame: PreviewFrame): { top: Box; bottom: Box; right: Box } | null {
  if (frame.kind !== 'vertical') return null;
  const safe = safeArea(frame.width, frame.height, frame.kind);
  const bottomTop = safe.y + safe.height;
  const right = safe.x + safe.width;
  return {
    top: { x: 0, y: 0, width: frame.width, height: safe.y },
    bottom: { x: 0, y: bottomTop, width: frame.width, height: frame.height - bottomTop },
    right: { x: right, y: safe.y, width: frame.width - right, height: safe.height },
  };
}

/* ------------------------------------------------------------------ the question card */

export interface TextLine {
  text: string;
  /** Horizontal centre of the line. */
  x: number;
  /** drawtext's y: the top of the line's tallest glyph. */
  top: number;
  /** Where the SVG text's baseline goes for that top. */
  baseline: number;
}

export interface CardLayout {
  frame: PreviewFrame;
  /** The font size drawtext is given, in frame pixels (also the CSS em of the preview's text). */
  fontSize: number;
  lineHeight: number;
  /** 700 only when the font ships a bold file, as the renderer picks files. */
  fontWeight: 400 | 700;
  lines: TextLine[];
  textBox: Box;
  /** The logo's band (the logo is scaled to fit it and centred in it); null without a logo. */
  logoBox: Box | null;
  shrunk: boolean;
  truncated: boolean;
}

/**
 * How far the tallest glyph of a text rises above its baseline, at a font size (a canvas's
 * actualBoundingBoxAscent in the browser): drawtext puts that top, not the baseline, on its y.
 */
export type MeasureAscent = (text: string, fontSize: number) => number;

export function layoutCard(options: {
  text: string;
  /** The question's size of the settings (pixels on a 540-line frame). */
  size: number;
  bold: boolean;
  /** A font of the settings (FONT_CHOICES). */
  font: string;
  frame: PreviewFrame;
  /** Whether the logo is drawn: its band is then reserved. */
  logo: boolean;
  /** Without it, the font's capital height stands in (lines nearly always hold a capital or an ascender). */
  ascent?: MeasureAscent | undefined;
}): CardLayout {
  const { frame } = options;
  const font = previewFont(options.font);
  const fit = fitCard({
    text: options.text,
    width: frame.width,
    height: frame.height,
    kind: frame.kind,
    size: options.size,
    face: { font: fontChoice(options.font), bold: options.bold },
    logo: options.logo,
  });
  const capHeight = (fit.fontSize * font.capHeight) / font.unitsPerEm;
  const ascent = (text: string) => {
    const measured = options.ascent?.(text, fit.fontSize);
    return measured !== undefined && Number.isFinite(measured) && measured > 0 ? measured : capHeight;
  };
  const x = fit.textBox.x + fit.textBox.width / 2;
  return {
    frame,
    fontSize: fit.fontSize,
    lineHeight: fit.lineHeight,
    fontWeight: options.bold && font.hasBold ? 700 : 400,
    lines: fit.lines.map((line) => ({ text: line.text, x, top: line.top, baseline: line.top + ascent(line.text) })),
    textBox: fit.textBox,
    logoBox: fit.logoBox,
    shrunk: fit.shrunk,
    truncated: fit.truncated,
  };
}

/** A size in frame pixels as a size of the settings (pixels on a 540-line frame), rounded. */
export function settingsSize(pixels: number, frame: PreviewFrame): number {
  return Math.round((pixels * REFERENCE_SHORT_SIDE) / Math.min(frame.width, frame.height));
}

/* ------------------------------------------------------------------ subtitles */

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
  frame: PreviewFrame;
  /** The renderer's style in frame pixels (Fontsize, margins, Outline, Shadow). */
  box: SubtitleBox;
  /** CSS font size (the em), in frame pixels: libass's size scaled by the font's ascent + descent. */
  fontSize: number;
  /** libass's line height: the size the renderer asks for. */
  lineHeight: number;
  fontWeight: 400 | 700;
  lines: TextLine[];
  /** Width of the black outline around the glyphs (0 without the border). */
  outline: number;
  /** Offset of the semi-transparent black shadow. */
  shadow: number;
  /** The shadow's opacity (libass draws it in the style's BackColour). */
  shadowOpacity: number;
}

export function layoutSubtitle(options: {
  text: string;
  size: number;
  bold: boolean;
  border: boolean;
  font: string;
  frame: PreviewFrame;
  measure: MeasureText;
}): SubtitleLayout {
  const { frame } = options;
  const box = subtitleBox({ width: frame.width, height: frame.height, kind: frame.kind, size: options.size, border: options.border });
  const { unitsPerEm, winAscent, winDescent } = previewFont(options.font);
  const lineHeight = box.fontSize;
  const fontSize = (lineHeight * unitsPerEm) / (winAscent + winDescent);
  const ascent = (fontSize * winAscent) / unitsPerEm;
  const descent = (fontSize * winDescent) / unitsPerEm;
  const maxWidth = frame.width - box.marginL - box.marginR;
  // A sample too long for two lines is shown as the video shows it: its first part (fitCuesToFrame).
  const face = { font: fontChoice(options.font), bold: options.bold };
  const [first] = fitCuesToFrame([{ start: 0, end: 1, text: options.text }], { width: frame.width, height: frame.height, kind: frame.kind, size: options.size, border: options.border, face });
  const texts = wrapSubtitle(first?.text ?? '', maxWidth, (t) => options.measure(t, fontSize));
  const lastBaseline = frame.height - box.marginV - descent;
  const x = box.marginL + maxWidth / 2;
  return {
    frame,
    box,
    fontSize,
    lineHeight,
    fontWeight: options.bold ? 700 : 400,
    lines: texts.map((text, i) => {
      const baseline = lastBaseline - (texts.length - 1 - i) * lineHeight;
      return { text, x, top: baseline - ascent, baseline };
    }),
    outline: box.outline,
    shadow: box.shadow,
    shadowOpacity: box.shadowOpacity,
  };
}
