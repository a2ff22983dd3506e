/**
 * Where a question card and the subtitles go on a frame of any shape (issue 17): the answer's own size,
 * a 16:9 LinkedIn frame, or a 9:16 Reels/TikTok/Shorts frame. The renderer (ffmpeg, src/server/media/
 * render.ts) draws with these numbers and the settings preview (web) draws with the same numbers, so
 * the video shows what the preview shows.
 *
 * - Sizes of the settings are pixels on a 540-line reference frame; on another frame they scale with the
 *   frame's short side (`frameScale`), so a vertical 1080 × 1920 card and a 1920 × 1080 one use the same
 *   pixel size.
 * - Each kind of frame has a safe area: the platform's caption, buttons and profile zones of Reels,
 *   TikTok and Shorts on 9:16; a small margin elsewhere. Text and logo stay inside it.
 * - A card's question is wrapped on measured glyph widths (font-advances.ts, read from the font files
 *   ffmpeg uses), shrunk step by step down to a minimum size until it fits, and only then cut with an
 *   ellipsis. The logo has its own band at the top of the safe area; the text never enters it.
 */
import type { TFontChoice } from './constants.js';
import { FONT_ADVANCES, MEASURED_CHARSET } from './font-advances.js';
import type { Cue } from './subtitles.js';

/** The frame height the company's font sizes are chosen for. */
export const REFERENCE_SHORT_SIDE = 540;

export type FrameKind = 'answer' | 'landscape' | 'vertical' | 'square' | 'portrait';

/** Margins of the safe area, as shares of the frame's width (left, right) and height (top, bottom). */
export interface SafeMargins {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/**
 * 9:16 keeps clear of the platforms' overlays: the top 14 % (account name, tabs), the bottom 26 % (caption,
 * music line, comment box on Reels, TikTok and Shorts) and the right 14 % (like/comment/share buttons).
 */
export const SAFE_MARGINS: Record<FrameKind, SafeMargins> = {
  answer: { top: 0.07, bottom: 0.07, left: 0.07, right: 0.07 },
  landscape: { top: 0.07, bottom: 0.08, left: 0.07, right: 0.07 },
  vertical: { top: 0.14, bottom: 0.26, left: 0.07, right: 0.14 },
  // Feed posts (Instagram, LinkedIn, Facebook): nothing is drawn over the picture, but Instagram's grid
  // shows a 4:5 post cut to 3:4 (about 3.4 % off the top and the bottom) and feeds round the corners.
  square: { top: 0.07, bottom: 0.08, left: 0.07, right: 0.07 },
  portrait: { top: 0.08, bottom: 0.09, left: 0.07, right: 0.07 },
};

/** A rectangle in frame pixels. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Down to an even number, at least 2 (ffmpeg's yuv420p frames and crops have even sizes). */
export const evenSize = (n: number) => Math.max(2, Math.floor(n / 2) * 2);

/** Pixels on this frame per pixel of the settings (which are pixels on a 540-line frame). */
export const frameScale = (width: number, height: number) => Math.min(width, height) / REFERENCE_SHORT_SIDE;

/** The safe area of a frame, in whole pixels. */
export function safeArea(width: number, height: number, kind: FrameKind): Box {
  const m = SAFE_MARGINS[kind];
  const x = Math.round(width * m.left);
  const y = Math.round(height * m.top);
  return { x, y, width: Math.round(width * (1 - m.right)) - x, height: Math.round(height * (1 - m.bottom)) - y };
}

/* ------------------------------------------------------------------ measuring text */

const CHAR_INDEX = new Map([...MEASURED_CHARSET].map((c, i) => [c, i]));

/** A font of the settings, as drawn: the bold file only when the font ships one (drawtext's choice too). */
export interface FontFace {
  font: TFontChoice;
  bold: boolean;
}

/** Width of a text in pixels at a font size (pixels per em), from the font files' advance widths. */
export function textWidth(face: FontFace, text: string, fontSize: number): number {
  const table = FONT_ADVANCES[face.font] ?? FONT_ADVANCES.Arial;
  const advances = (face.bold && table.bold) || table.regular;
  // A character the font lacks is drawn by a fallback: counted as wide as an 'M' so it never overflows.
  const wide = advances[CHAR_INDEX.get('M')!]!;
  let units = 0;
  for (const c of text) {
    const i = CHAR_INDEX.get(c);
    const advance = i === undefined ? -1 : advances[i]!;
    units += advance >= 0 ? advance : wide;
  }
  return (units * fontSize) / 1000;
}

/* ------------------------------------------------------------------ the question card */

/** A line is this many times the font's pixel size high. */
export const CARD_LINE_HEIGHT_RATIO = 1.3;
/** Each step of shrinking multiplies the size by this. */
export const CARD_SHRINK_STEP = 0.9;
/** The smallest question size, in settings pixels (a smaller chosen size is kept as chosen). */
export const CARD_MIN_SIZE = 20;
/** The logo's band: its height, and the gap under it, as shares of the frame's short side. */
export const CARD_LOGO_HEIGHT_RATIO = 0.12;
export const CARD_LOGO_GAP_RATIO = 0.04;
/** Lines are measured against this share of the text box, a margin for kerning and hinting. */
export const CARD_MEASURE_SLACK = 0.96;
export const ELLIPSIS = '…';

export interface CardFitInput {
  text: string;
  width: number;
  height: number;
  kind: FrameKind;
  /** The question's size of the settings (pixels on a 540-line frame). */
  size: number;
  face: FontFace;
  /** Whether the logo is drawn (its band is then reserved at the top). */
  logo: boolean;
}

export interface CardLine {
  text: string;
  /** Measured width, in pixels. */
  width: number;
  /** The top of the line's tallest glyph (drawtext's y): the line's top + (line height − size) / 2. */
  top: number;
}

export interface CardFit {
  /** The font size drawtext is given, in whole pixels. */
  fontSize: number;
  lineHeight: number;
  lines: CardLine[];
  /** The box the lines are centred in (each line horizontally, the block vertically). */
  textBox: Box;
  /** The logo's band: the logo is scaled to fit it (height first) and centred in it; null without a logo. */
  logoBox: Box | null;
  /** Whether the size had to shrink below the chosen one. */
  shrunk: boolean;
  /** Whether the text was cut (and ends with an ellipsis). */
  truncated: boolean;
}

/**
 * The words of a text, broken only at ordinary spaces: a no-break space (French "?", ":", "»") holds its
 * neighbours together, and a lone mark typed after an ordinary space ("ok ?", "« oui »") stays with its
 * word, so no line starts with "?" or ends with "«".
 */
export function breakableWords(text: string): string[] {
  const words: string[] = [];
  let glueNext = false;
  for (const token of text.split(/[ \t\r\n]+/).filter(Boolean)) {
    if (words.length && (glueNext || /^[?!:;»%…]+$/.test(token))) words[words.length - 1] += ` ${token}`;
    else words.push(token);
    glueNext = token === '«';
  }
  return words;
}

/** Greedy wrap on measured widths; a word wider than the line is cut between characters. */
export function wrapMeasured(text: string, maxWidth: number, measure: (s: string) => number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of breakableWords(text)) {
    let w = word;
    while (measure(w) > maxWidth && w.length > 1) {
      if (line) {
        lines.push(line);
        line = '';
      }
      let cut = 1;
      while (cut < w.length && measure(w.slice(0, cut + 1)) <= maxWidth) cut++;
      lines.push(w.slice(0, cut));
      w = w.slice(cut);
    }
    const candidate = line ? `${line} ${w}` : w;
    if (!line || measure(candidate) <= maxWidth) line = candidate;
    else {
      lines.push(line);
      line = w;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** The last line kept, shortened word by word (then character by character) until it fits with an ellipsis. */
function withEllipsis(line: string, maxWidth: number, measure: (s: string) => number): string {
  let text = line.replace(/[\s.,;:!?…]+$/, '');
  while (text && measure(`${text}${ELLIPSIS}`) > maxWidth) {
    const space = text.lastIndexOf(' ');
    text = (space > 0 ? text.slice(0, space) : text.slice(0, -1)).replace(/[\s.,;:!?…]+$/, '');
  }
  return `${text}${ELLIPSIS}`;
}

/**
 * The same number of lines, as even as they can be (CSS's `text-wrap: balance`): the narrowest width that
 * still wraps the text into `count` lines, so no last line holds a lone word ("…about hiring / us?").
 */
export function balancedLines(text: string, count: number, maxWidth: number, measure: (s: string) => number): string[] {
  let lo = 0;
  let hi = maxWidth;
  let best = wrapMeasured(text, maxWidth, measure);
  for (let i = 0; i < 16 && hi - lo > 1; i++) {
    const mid = (lo + hi) / 2;
    const lines = wrapMeasured(text, mid, measure);
    // A narrower width that cuts a word between characters is no balance.
    if (lines.length <= count && lines.every((line, j) => j === 0 || !/^\S/.test(line) || breakableWords(text).some((w) => line.startsWith(w)))) {
      best = lines;
      hi = mid;
    } else lo = mid;
  }
  return best;
}

/**
 * The card's layout: the question wrapped at the chosen size; while the block is taller than the text
 * box, the size shrinks by CARD_SHRINK_STEP down to CARD_MIN_SIZE (scaled); past that the lines that do
 * not fit are dropped and the last kept line ends with an ellipsis.
 */
/** A card's bands on a frame (question card and end card alike): the logo's at the top of the safe area, the text's under it. */
function cardBands(o: { width: number; height: number; kind: FrameKind; logo: boolean }): { logoBox: Box | null; textBox: Box; maxWidth: number } {
  const safe = safeArea(o.width, o.height, o.kind);
  const short = Math.min(o.width, o.height);
  const logoHeight = o.logo ? evenSize(short * CARD_LOGO_HEIGHT_RATIO) : 0;
  const logoBox = o.logo ? { x: safe.x, y: safe.y, width: safe.width, height: logoHeight } : null;
  const reserved = o.logo ? logoHeight + Math.round(short * CARD_LOGO_GAP_RATIO) : 0;
  const textBox: Box = { x: safe.x, y: safe.y + reserved, width: safe.width, height: safe.height - reserved };
  return { logoBox, textBox, maxWidth: textBox.width * CARD_MEASURE_SLACK };
}

/**
 * The text wrapped at `size`, shrunk by CARD_SHRINK_STEP while `fits` says no, down to `minimum`: the
 * lines and the size they were wrapped at.
 */
function wrapShrinking(text: string, maxWidth: number, face: FontFace, size: number, minimum: number, fits: (lines: string[], size: number) => boolean): { lines: string[]; size: number } {
  for (;;) {
    const s = size;
    const lines = text ? wrapMeasured(text, maxWidth, (t) => textWidth(face, t, s)) : [];
    if (fits(lines, size) || size <= minimum) return { lines, size };
    size = Math.max(minimum, Math.floor(size * CARD_SHRINK_STEP));
  }
}

export function fitCard(o: CardFitInput): CardFit {
  const scale = frameScale(o.width, o.height);
  const { logoBox, textBox, maxWidth } = cardBands(o);
  const chosen = Math.max(1, Math.round(o.size * scale));
  const minimum = Math.min(chosen, Math.max(1, Math.round(CARD_MIN_SIZE * scale)));
  const lineHeightAt = (size: number) => Math.round(size * CARD_LINE_HEIGHT_RATIO);
  const wrapped = wrapShrinking(o.text, maxWidth, o.face, chosen, minimum, (lines, size) => lines.length * lineHeightAt(size) <= textBox.height);
  let lines = wrapped.lines;
  const fontSize = wrapped.size;
  const lineHeight = lineHeightAt(fontSize);
  const measure = (s: string) => textWidth(o.face, s, fontSize);
  const fitting = Math.max(1, Math.floor(textBox.height / lineHeight));
  const truncated = lines.length > fitting;
  if (!truncated && lines.length > 1) lines = balancedLines(o.text, lines.length, maxWidth, measure);
  if (truncated) {
    lines = lines.slice(0, fitting);
    lines[fitting - 1] = withEllipsis(lines[fitting - 1]!, maxWidth, measure);
  }
  const blockTop = textBox.y + (textBox.height - lines.length * lineHeight) / 2;
  return {
    fontSize,
    lineHeight,
    lines: lines.map((text, i) => ({ text, width: measure(text), top: blockTop + i * lineHeight + (lineHeight - fontSize) / 2 })),
    textBox,
    logoBox,
    shrunk: fontSize < chosen,
    truncated,
  };
}

/* ------------------------------------------------------------------ subtitles */

/** Outline width and shadow offset, as shares of the subtitle's font size. */
export const SUBTITLE_OUTLINE_RATIO = 0.08;
export const SUBTITLE_SHADOW_RATIO = 0.04;
/** The shadow's opacity: a soft drop under the outline, denser when it stands alone. */
export const SUBTITLE_SHADOW_OPACITY = { withBorder: 0.5, alone: 0.69 } as const;
/**
 * On a vertical frame subtitles are this much larger than the short side alone gives: a 9:16 video fills a
 * phone's screen, and a size of 34 then makes a line 4.4 % of the frame's height (68 → 85 px at 1920).
 */
export const SUBTITLE_VERTICAL_BOOST = 1.25;
/** A cue shows at most this many lines; a longer one is split into parts that share its time. */
export const SUBTITLE_MAX_LINES = 2;

/**
 * The subtitles' style on a frame, in frame pixels, written as an ASS script whose PlayResX × PlayResY is
 * the frame itself (so libass scales nothing). `fontSize` is libass's size: the font's Windows ascent +
 * descent (GDI's rule). Lines are centred in the safe area and stacked up from its bottom edge; the
 * bottom margin also holds the outline and the shadow, so no pixel reaches below the safe area.
 */
export interface SubtitleBox {
  fontSize: number;
  marginL: number;
  marginR: number;
  marginV: number;
  /** Outline width (0 without the border). */
  outline: number;
  /** Shadow offset: a soft drop under the outline, or alone without the border. */
  shadow: number;
  /** The shadow's opacity (0–1), semi-transparent black. */
  shadowOpacity: number;
}

export function subtitleBox(o: { width: number; height: number; kind: FrameKind; size: number; border: boolean }): SubtitleBox {
  const boost = o.kind === 'vertical' ? SUBTITLE_VERTICAL_BOOST : 1;
  const fontSize = Math.max(1, Math.round(o.size * frameScale(o.width, o.height) * boost));
  const m = SAFE_MARGINS[o.kind];
  const outline = o.border ? Math.max(1, Math.round(fontSize * SUBTITLE_OUTLINE_RATIO)) : 0;
  const shadow = Math.max(1, Math.round(fontSize * SUBTITLE_SHADOW_RATIO));
  return {
    fontSize,
    marginL: Math.round(o.width * m.left),
    marginR: Math.round(o.width * m.right),
    marginV: Math.round(o.height * m.bottom) + outline + shadow,
    outline,
    shadow,
    shadowOpacity: o.border ? SUBTITLE_SHADOW_OPACITY.withBorder : SUBTITLE_SHADOW_OPACITY.alone,
  };
}

/** The pixels per em of a subtitle of libass size `fontSize` (its Windows ascent + descent is that size). */
export function subtitleEm(face: FontFace, fontSize: number): number {
  const table = FONT_ADVANCES[face.font] ?? FONT_ADVANCES.Arial;
  return (fontSize * 1000) / table.lineUnits;
}

/**
 * Cues as the frame can show them: a cue whose text needs more than SUBTITLE_MAX_LINES lines between the
 * margins (measured with the font's advances) is split into parts of at most that many lines, each shown
 * for a share of the cue's time proportional to its length. A part ends after a sentence or clause mark
 * when one falls in its second half, so "…easy. / I would recommend…" rather than "…easy. I / would…".
 * On a vertical frame a cue of two 42-character lines thus becomes two parts instead of four lines over
 * the speaker.
 */
export function fitCuesToFrame(cues: Cue[], o: { width: number; height: number; kind: FrameKind; size: number; border: boolean; face: FontFace }): Cue[] {
  const box = subtitleBox(o);
  const em = subtitleEm(o.face, box.fontSize);
  const maxWidth = (o.width - box.marginL - box.marginR - 2 * box.outline) * CARD_MEASURE_SLACK;
  const fits = (words: string[]) => wrapMeasured(words.join(' '), maxWidth, (s) => textWidth(o.face, s, em)).length <= SUBTITLE_MAX_LINES;
  return cues.flatMap((cue) => {
    const words = breakableWords(cue.text);
    if (fits(words)) return [cue];
    const parts: string[] = [];
    let rest = words;
    while (rest.length) {
      let take = 1;
      while (take < rest.length && fits(rest.slice(0, take + 1))) take++;
      if (take < rest.length) {
        const mark = rest.slice(0, take).findLastIndex((w) => /[.!?;:,…]$/.test(w));
        if (mark + 1 >= Math.ceil(take / 2)) take = mark + 1;
      }
      parts.push(rest.slice(0, take).join(' '));
      rest = rest.slice(take);
    }
    const total = parts.reduce((n, p) => n + p.length, 0);
    let start = cue.start;
    return parts.map((text, i) => {
      const end = i === parts.length - 1 ? cue.end : start + ((cue.end - cue.start) * text.length) / total;
      const part = { start: Math.round(start * 1000) / 1000, end: Math.round(end * 1000) / 1000, text };
      start = end;
      return part;
    });
  });
}

/* ------------------------------------------------------------------ lower-third and end card (issue 31) */

/**
 * The lower-third: the customer's name (and position) on a plate of the card's background, shown from
 * `start` to `end` seconds of each answer, fading in and out over `fade`.
 */
export const LOWER_THIRD_TIMES = { start: 0.5, end: 4.5, fade: 0.3 } as const;
/** The name's and the position's sizes, as shares of the frame's short side. */
export const LOWER_THIRD_NAME_RATIO = 0.05;
export const LOWER_THIRD_TITLE_RATIO = 0.036;
/** The plate's inner margin, as a share of the name's size; its opacity (0–1). */
export const LOWER_THIRD_PADDING_RATIO = 0.5;
export const LOWER_THIRD_PLATE_OPACITY = 0.85;
/** Room kept for two lines of subtitles under the lower-third, as line heights of the subtitles' size. */
export const LOWER_THIRD_SUBTITLE_LINES = 2.4;

export interface OverlayLine {
  text: string;
  /** drawtext's x and y: the left edge and the top of the tallest glyph. */
  x: number;
  top: number;
  fontSize: number;
  width: number;
  /** Drawn in the family's regular face (the position, the address); else in the face as chosen. */
  regular?: boolean;
}

export interface LowerThirdLayout {
  /** The plate, in frame pixels (even sizes, inside the safe area). */
  plate: Box;
  name: OverlayLine;
  title: OverlayLine | null;
}

/** A line cut with an ellipsis until it fits `maxWidth` (kept whole when it fits). */
function fittedLine(text: string, maxWidth: number, measure: (s: string) => number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return measure(clean) <= maxWidth ? clean : withEllipsis(clean, maxWidth, measure);
}

/**
 * The lower-third on a frame: at the left edge of the safe area, its bottom above the room two lines of
 * subtitles take (subtitleBox of the subtitles' size), so it never covers them; the name on the first
 * line, the position under it, smaller; a long text ends with an ellipsis inside the safe width.
 */
export function lowerThirdLayout(o: {
  width: number;
  height: number;
  kind: FrameKind;
  name: string;
  title?: string | null | undefined;
  face: FontFace;
  subtitleSize: number;
  /** A line the plate stays above (word-by-word captions sit higher than line subtitles: wordCaptionClearance). */
  keepAbove?: number | undefined;
}): LowerThirdLayout {
  const safe = safeArea(o.width, o.height, o.kind);
  const short = Math.min(o.width, o.height);
  const nameSize = Math.max(8, Math.round(short * LOWER_THIRD_NAME_RATIO));
  const titleSize = Math.max(6, Math.round(short * LOWER_THIRD_TITLE_RATIO));
  const padding = Math.round(nameSize * LOWER_THIRD_PADDING_RATIO);
  const maxText = safe.width - 2 * padding;
  const name = fittedLine(o.name, maxText, (s) => textWidth(o.face, s, nameSize));
  const titleText = o.title?.trim() ? fittedLine(o.title, maxText, (s) => textWidth({ font: o.face.font, bold: false }, s, titleSize)) : null;
  const nameWidth = textWidth(o.face, name, nameSize);
  const titleWidth = titleText ? textWidth({ font: o.face.font, bold: false }, titleText, titleSize) : 0;
  const lineGap = Math.round(nameSize * 0.25);
  const textHeight = nameSize + (titleText ? lineGap + titleSize : 0);
  const plateWidth = Math.min(safe.width, evenSize(Math.ceil(Math.max(nameWidth, titleWidth)) + 2 * padding + 2));
  const plateHeight = evenSize(textHeight + 2 * padding + 1);
  const sub = subtitleBox({ width: o.width, height: o.height, kind: o.kind, size: o.subtitleSize, border: true });
  const bottom = Math.min(safe.y + safe.height, o.height - sub.marginV - Math.round(sub.fontSize * LOWER_THIRD_SUBTITLE_LINES), o.keepAbove ?? Infinity);
  const evenUp = (n: number) => Math.ceil(n / 2) * 2;
  // Its top rounded down to an even pixel, so that its bottom stays above the line it keeps above.
  const evenDown = (n: number) => Math.floor(n / 2) * 2;
  const plate: Box = { x: evenUp(safe.x), y: Math.max(evenUp(safe.y), evenDown(bottom - plateHeight)), width: Math.min(plateWidth, evenSize(safe.x + safe.width - evenUp(safe.x))), height: plateHeight };
  const x = plate.x + padding;
  return {
    plate,
    name: { text: name, x, top: plate.y + padding, fontSize: nameSize, width: nameWidth },
    title: titleText ? { text: titleText, x, top: plate.y + padding + nameSize + lineGap, fontSize: titleSize, width: titleWidth, regular: true } : null,
  };
}

/** The end card lasts this long (2–4 s: issue 31), after the last answer. */
export const END_CARD_SECONDS = 3;
/** The address's size, as a share of the call to action's. */
export const END_CARD_ADDRESS_RATIO = 0.7;
/** The gap between the call to action and the address, as a share of the call to action's size. */
export const END_CARD_GAP_RATIO = 0.6;

export interface EndCardLayout {
  /** The logo's band, as on the question card (the same scaled logo serves both); null without a logo. */
  logoBox: Box | null;
  /** The call to action's lines and the address's, each centred in the text box. */
  lines: OverlayLine[];
  textBox: Box;
}

/**
 * The end card on a frame: the logo in the question card's band at the top of the safe area, then the
 * call to action at the question's size (wrapped, shrunk like a card's question, at most two lines) and
 * the address under it, smaller, on one line; the block centred in the rest of the safe area. Either text
 * may be empty.
 */
export function endCardLayout(o: { width: number; height: number; kind: FrameKind; text: string; address: string; face: FontFace; size: number; logo: boolean }): EndCardLayout {
  const { logoBox, textBox, maxWidth } = cardBands(o);
  const scale = frameScale(o.width, o.height);
  const minimum = Math.max(1, Math.round(CARD_MIN_SIZE * scale));
  const text = o.text.trim();
  const address = o.address.trim();
  const wrapped = wrapShrinking(text, maxWidth, o.face, Math.max(1, Math.round(o.size * scale)), minimum, (lines) => lines.length <= 2);
  let cta = wrapped.lines;
  const size = wrapped.size;
  const measure = (t: string) => textWidth(o.face, t, size);
  if (cta.length > 2) cta = [cta[0]!, withEllipsis(cta[1]!, maxWidth, measure)];
  else if (cta.length === 2) cta = balancedLines(text, 2, maxWidth, measure);
  const addressSize = Math.max(1, Math.round(size * END_CARD_ADDRESS_RATIO));
  const addressFace = { font: o.face.font, bold: false };
  const addressText = address ? fittedLine(address, maxWidth, (t) => textWidth(addressFace, t, addressSize)) : '';
  const lineHeight = Math.round(size * CARD_LINE_HEIGHT_RATIO);
  const addressHeight = Math.round(addressSize * CARD_LINE_HEIGHT_RATIO);
  const gap = cta.length && addressText ? Math.round(size * END_CARD_GAP_RATIO) : 0;
  const blockHeight = cta.length * lineHeight + gap + (addressText ? addressHeight : 0);
  let y = textBox.y + Math.max(0, (textBox.height - blockHeight) / 2);
  const centred = (t: string, fontSize: number, width: number, height: number): OverlayLine => {
    const line = { text: t, x: Math.round(textBox.x + (textBox.width - width) / 2), top: Math.round(y + (height - fontSize) / 2), fontSize, width };
    y += height;
    return line;
  };
  const lines = cta.map((t) => centred(t, size, measure(t), lineHeight));
  y += gap;
  if (addressText) lines.push({ ...centred(addressText, addressSize, textWidth(addressFace, addressText, addressSize), addressHeight), regular: true });
  return { logoBox, lines, textBox };
}
