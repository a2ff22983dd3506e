/**
 * Word-by-word captions as ASS events for libass (issue 31, decision 204): for each page of at most
 * two lines (wordPages), one Dialogue per spoken word, the same text each time with that word in the
 * highlight colour. libass lays the same text out identically, so only the colour moves. Drawn in the
 * render's single pass by the `ass` filter, like line subtitles.
 */
import { highlightSpans, wordCaptionBox, wordPages } from '../../contract/word-captions.js';
import type { Cue } from '../../contract/subtitles.js';
import { assTime, literalAssText, type Frame, type SubtitleStyle } from './render.js';

/** #rrggbb as an ASS colour override value (&HBBGGRR&). */
const overrideColour = (c: string) => `&H${c.slice(5, 7)}${c.slice(3, 5)}${c.slice(1, 3)}&`.toUpperCase();

/** The style line's fields that differ from line subtitles: size, outline, shadow, centred (alignment 5) between the safe area's sides. */
export function wordCaptionStyle(o: { style: SubtitleStyle; frame: Frame }) {
  const b = wordCaptionBox({ ...o.frame, size: o.style.size, border: o.style.border });
  return { fontSize: b.fontSize, outline: b.outline, shadow: b.shadow, alignment: 5, marginL: b.marginL, marginR: b.marginR, marginV: 0, centreY: b.centreY };
}

/** The Dialogue lines of the cues as word-by-word captions (the highlight colour in `style.highlight`). */
export function wordCaptionEvents(o: { cues: Cue[]; style: SubtitleStyle; frame: Frame }): string[] {
  const s = wordCaptionStyle(o);
  const highlight = overrideColour(o.style.highlight ?? '#ffd60a');
  const x = Math.round((s.marginL + o.frame.width - s.marginR) / 2);
  const events: string[] = [];
  for (const page of wordPages(o.cues, { ...o.frame, size: o.style.size, border: o.style.border, face: o.style.face })) {
    for (const span of highlightSpans(page)) {
      let i = 0;
      const text = page.lines
        .map((count) =>
          page.words
            .slice(i, (i += count))
            .map((w, k) => (i - count + k === span.index ? `{\\1c${highlight}}${literalAssText(w.text)}{\\r}` : literalAssText(w.text)))
            .join(' '),
        )
        .join('\\N');
      // Broken into lines here (wordPages measured them): no wrapping by libass (\q2), centred on the safe area at centreY.
      events.push(`Dialogue: 0,${assTime(span.start)},${assTime(span.end)},Default,,0,0,0,,{\\an5\\pos(${x},${s.centreY})\\q2}${text}`);
    }
  }
  return events;
}
