/**
 * Word-by-word captions (issue 31, decision 204), shared by the renderer (libass) and the settings
 * preview: the highlight colour of the spoken word, the caption's size and place in the frame, and how
 * a cue's words are paged so that a page holds at most two lines.
 */
import { CARD_MEASURE_SLACK, safeArea, SUBTITLE_OUTLINE_RATIO, SUBTITLE_SHADOW_RATIO, subtitleBox, subtitleEm, textWidth, type FontFace, type FrameKind } from './frame-layout.js';
import { cueWords, type Cue, type CueWord } from './subtitles.js';
import { contrastRatio, luminance } from './video-themes.js';

/** Word captions are this much larger than line subtitles of the same size setting, at most two lines. */
export const WORD_CAPTION_SCALE = 1.4;
export const WORD_CAPTION_LINES = 2;
/** Where the caption's block is centred, as a share of the safe area's height from its top: below the face, above the bottom band. */
export const WORD_CAPTION_CENTRE = 0.75;
/** The accent used when neither of the company's card colours stands out from the subtitle text on a video. */
export const WORD_HIGHLIGHT_FALLBACK = '#ffd60a';
/** A highlight must differ this much from the text colour, and be at least this light to read on a video with a dark outline. */
export const WORD_HIGHLIGHT_MIN_CONTRAST = 1.8;
export const WORD_HIGHLIGHT_MIN_LUMINANCE = 0.12;

/**
 * The colour of the spoken word: the company's card background (its brand colour), else its card text
 * colour, else a yellow accent; the first that stands out from the subtitle colour and is light enough
 * to read over a video with the dark outline.
 */
export function wordHighlight(o: { text: string; background: string; cardText: string }): string {
  const fits = (c: string) => /^#[0-9a-f]{6}$/i.test(c) && contrastRatio(c, o.text) >= WORD_HIGHLIGHT_MIN_CONTRAST && luminance(c) >= WORD_HIGHLIGHT_MIN_LUMINANCE;
  return [o.background, o.cardText].find(fits) ?? WORD_HIGHLIGHT_FALLBACK;
}

export interface WordCaptionBox {
  fontSize: number;
  outline: number;
  shadow: number;
  /** Left and right margins: the safe area's. */
  marginL: number;
  marginR: number;
  /** The vertical centre of the caption's block, in frame pixels. */
  centreY: number;
  /** The widest a line may be, in pixels. */
  maxWidth: number;
}

/** The caption's size (WORD_CAPTION_SCALE × the subtitle's for this frame), outline and place inside the safe area. */
export function wordCaptionBox(o: { width: number; height: number; kind: FrameKind; size: number; border: boolean }): WordCaptionBox {
  const line = subtitleBox(o);
  const safe = safeArea(o.width, o.height, o.kind);
  const fontSize = Math.max(1, Math.round(line.fontSize * WORD_CAPTION_SCALE));
  // An outline always: a single bright word over a busy picture needs one even when the company's subtitles have none.
  const outline = Math.max(1, Math.round(fontSize * SUBTITLE_OUTLINE_RATIO * (o.border ? 1 : 0.6)));
  const shadow = Math.max(1, Math.round(fontSize * SUBTITLE_SHADOW_RATIO));
  const maxWidth = Math.max(1, (safe.width - 2 * outline) * CARD_MEASURE_SLACK);
  return { fontSize, outline, shadow, marginL: safe.x, marginR: o.width - safe.x - safe.width, centreY: Math.round(safe.y + safe.height * WORD_CAPTION_CENTRE), maxWidth };
}

/** One page of a word caption: the words shown together (at most two lines), from its start to its end. */
export interface WordPage {
  start: number;
  end: number;
  words: CueWord[];
  /** How many of the words each line holds (one or two lines), broken here rather than by the renderer. */
  lines: number[];
}

/** Words broken greedily into lines no wider than maxWidth (a word wider than that alone on its line). */
export function wordLines(words: string[], maxWidth: number, measure: (s: string) => number): number[] {
  const lines: number[] = [];
  let line = '';
  for (const w of words) {
    if (line && measure(`${line} ${w}`) <= maxWidth) {
      line += ` ${w}`;
      lines[lines.length - 1]! += 1;
    } else {
      line = w;
      lines.push(1);
    }
  }
  return lines;
}

/**
 * The cues' words as pages of at most two lines at the caption's size (measured with the font's
 * advances). A page never spans two cues; it ends after a sentence or clause mark in its second half.
 * It shows from its first word until the next page (or its cue's end).
 */
export function wordPages(cues: Cue[], o: { width: number; height: number; kind: FrameKind; size: number; border: boolean; face: FontFace }): WordPage[] {
  const box = wordCaptionBox(o);
  const em = subtitleEm(o.face, box.fontSize);
  const lines = (words: CueWord[]) => wordLines(words.map((w) => w.text), box.maxWidth, (s) => textWidth(o.face, s, em));
  const fits = (words: CueWord[]) => lines(words).length <= WORD_CAPTION_LINES;
  const pages: WordPage[] = [];
  for (const cue of cues) {
    if (!(cue.end > cue.start) || !cue.text.trim()) continue;
    let rest = cueWords(cue);
    const first = pages.length;
    while (rest.length) {
      let take = 1;
      while (take < rest.length && fits(rest.slice(0, take + 1))) take++;
      if (take < rest.length) {
        const mark = rest.slice(0, take).findLastIndex((w) => /[.!?;:,…]$/.test(w.text));
        if (mark + 1 >= Math.ceil(take / 2)) take = mark + 1;
      }
      const words = rest.slice(0, take);
      pages.push({ start: words[0]!.start, end: cue.end, words, lines: lines(words) });
      rest = rest.slice(take);
    }
    // The first page of a cue shows from the cue's start; each page ends where the next one of its cue begins.
    pages[first]!.start = cue.start;
    for (let i = first; i < pages.length - 1; i++) pages[i]!.end = pages[i + 1]!.start;
  }
  return pages.filter((p) => p.end > p.start);
}

/**
 * Which word of a page is highlighted at each moment: word i from its start (the page's start for the
 * first) to the next word's start (the page's end for the last), so one word is always lit.
 */
export function highlightSpans(page: WordPage): { start: number; end: number; index: number }[] {
  return page.words
    .map((w, i) => ({ start: i === 0 ? page.start : Math.max(page.start, w.start), end: i === page.words.length - 1 ? page.end : Math.min(page.end, page.words[i + 1]!.start), index: i }))
    .filter((s) => s.end > s.start);
}

/**
 * The line a lower-third stays above when captions are drawn word by word (issue 31): the top of a
 * two-line caption block around its centre, its outline, and a gap of a third of a line. Line subtitles
 * sit at the bottom, and the lower-third layout keeps clear of them by itself.
 */
export function wordCaptionClearance(o: { width: number; height: number; kind: FrameKind; size: number; border: boolean }): number {
  const box = wordCaptionBox(o);
  const block = WORD_CAPTION_LINES * box.fontSize * WORD_CAPTION_LINE_HEIGHT;
  return Math.round(box.centreY - block / 2 - box.outline - box.fontSize / 3);
}

/** The height of a word caption's line, as a share of its size (libass's line spacing for these fonts, rounded up). */
export const WORD_CAPTION_LINE_HEIGHT = 1.25;
