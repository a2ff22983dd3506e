/**
 * Subtitle cues and their files, shared by the server (burn-in) and the client (downloads):
 * grouping timed words into readable cues, and the SRT, TXT and JSON writers and readers.
 */
export interface Cue {
  start: number;
  end: number;
  text: string;
  /**
   * Issue 31: the cue's words with their times (an engine's word times, or shared out by characters),
   * what word-by-word captions highlight. Absent on cues stored before, and on typed cues until saved.
   */
  words?: CueWord[];
}

/** One timed word of a cue (seconds from the start of the clip). */
export interface CueWord {
  start: number;
  end: number;
  text: string;
}

export const CUE_LIMITS = { lineChars: 42, lines: 2, minSeconds: 1, maxSeconds: 6 } as const;

/** Splits a cue's text into at most two lines of at most 42 characters, on words. */
export function cueLines(text: string, lineChars: number = CUE_LIMITS.lineChars): string[] {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if (!line) line = w;
    else if (line.length + 1 + w.length <= lineChars) line += ` ${w}`;
    else {
      lines.push(line);
      line = w;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * Groups timed words (or engine segments) into cues: at most two lines of 42 characters, 1 to 6 s
 * each, never overlapping, within [0, duration].
 */
export function groupCues(words: Cue[], duration: number): Cue[] {
  const maxChars = CUE_LIMITS.lineChars * CUE_LIMITS.lines;
  const cues: Cue[] = [];
  let current: Cue | undefined;
  const flush = () => {
    if (current && current.text) cues.push(current);
    current = undefined;
  };
  for (const raw of words) {
    const text = raw.text.trim();
    if (!text) continue;
    const start = Math.max(0, Math.min(raw.start, duration));
    const end = Math.max(start, Math.min(raw.end, duration));
    if (current) {
      const joined = `${current.text} ${text}`;
      const fits = joined.length <= maxChars && cueLines(joined).length <= CUE_LIMITS.lines && end - current.start <= CUE_LIMITS.maxSeconds;
      const sentenceEnd = /[.!?…]$/.test(current.text) && current.end - current.start >= CUE_LIMITS.minSeconds;
      if (fits && !sentenceEnd) {
        current.text = joined;
        current.end = end;
        current.words!.push(...rawWords(raw, text, start, end));
        continue;
      }
      flush();
    }
    // A single long segment (an engine's sentence) is cut into pieces that fit, sharing its time.
    if (text.length > maxChars || end - start > CUE_LIMITS.maxSeconds) {
      const pieces = splitText(text, maxChars);
      const step = (end - start) / pieces.length;
      pieces.forEach((p, i) => cues.push({ start: start + i * step, end: start + (i + 1) * step, text: p }));
      continue;
    }
    current = { start, end, text, words: rawWords(raw, text, start, end) };
  }
  flush();
  // At least 1 s on screen where the next cue and the clip allow; never overlapping; at most 6 s.
  for (let i = 0; i < cues.length; i++) {
    const cue = cues[i]!;
    const limit = Math.min(cues[i + 1]?.start ?? duration, duration);
    if (cue.end - cue.start < CUE_LIMITS.minSeconds) cue.end = Math.min(limit, cue.start + CUE_LIMITS.minSeconds);
    if (cue.end > limit) cue.end = limit;
    if (cue.end - cue.start > CUE_LIMITS.maxSeconds) cue.end = cue.start + CUE_LIMITS.maxSeconds;
    cue.start = round(cue.start);
    cue.end = round(cue.end);
    // The words stay inside the cue's final time; a cue without its own (a cut sentence) shares it out.
    cue.words = cue.words?.length ? clampWords(cue.words, cue) : proportionalWords(cue);
  }
  return cues.filter((c) => c.end > c.start);
}

/** The words of one grouped item: itself when it is one word, else its words sharing its time by characters. */
function rawWords(raw: Cue, text: string, start: number, end: number): CueWord[] {
  if (raw.words?.length) return raw.words.map((w) => ({ ...w }));
  return /\s/.test(text) ? proportionalWords({ start, end, text }) : [{ start, end, text }];
}

function clampWords(words: CueWord[], cue: { start: number; end: number }): CueWord[] {
  return words.map((w) => {
    const start = round(Math.min(Math.max(w.start, cue.start), cue.end));
    return { start, end: round(Math.min(Math.max(w.end, start), cue.end)), text: w.text };
  });
}

/**
 * A cue's words sharing its time in proportion to their characters (a space counts as one): the words
 * of typed subtitles, of a cue whose text a person edited, or of an engine that gave no word times.
 */
export function proportionalWords(cue: { start: number; end: number; text: string }): CueWord[] {
  const words = cue.text.trim().split(/\s+/).filter(Boolean);
  const total = words.reduce((n, w) => n + w.length + 1, 0) - 1;
  const span = Math.max(0, cue.end - cue.start);
  let at = 0;
  return words.map((text) => {
    const start = cue.start + (span * at) / Math.max(1, total);
    at += text.length;
    const end = cue.start + (span * at) / Math.max(1, total);
    at += 1;
    return { start: round(start), end: round(end), text };
  });
}

/**
 * The words of a cue that a person may have changed, from the cue as it was (issue 31): the same text
 * keeps its words, moved and stretched with the cue's new time; a changed text (or no words before)
 * has its words re-timed by characters across the cue.
 */
export function retimedWords(cue: { start: number; end: number; text: string }, before: Cue | undefined): CueWord[] {
  const same = before?.words?.length && before.text.trim().split(/\s+/).join(' ') === cue.text.trim().split(/\s+/).join(' ') && before.words.length === cue.text.trim().split(/\s+/).length;
  if (!same || !before?.words) return proportionalWords(cue);
  const from = before.end - before.start;
  const scale = from > 0 ? (cue.end - cue.start) / from : 0;
  const at = (t: number) => round(Math.min(cue.end, Math.max(cue.start, cue.start + (t - before.start) * scale)));
  return before.words.map((w) => ({ start: at(w.start), end: at(w.end), text: w.text }));
}

/**
 * Saved lines with their words (issue 31): each line is matched to an unused stored cue of the same text
 * (the nearest in time) whose words it keeps, stretched to its time (retimedWords); other lines get theirs
 * by characters. Words a client sends are never taken as they are.
 */
export function withRetimedWords(lines: { start: number; end: number; text: string }[], stored: readonly Cue[]): Cue[] {
  const unused = new Set(stored.map((_, i) => i));
  const norm = (t: string) => t.trim().split(/\s+/).join(' ');
  return lines.map((line) => {
    let best: number | undefined;
    for (const i of unused) {
      if (norm(stored[i]!.text) !== norm(line.text)) continue;
      if (best === undefined || Math.abs(stored[i]!.start - line.start) < Math.abs(stored[best]!.start - line.start)) best = i;
    }
    if (best !== undefined) unused.delete(best);
    return { ...line, words: retimedWords(line, best === undefined ? undefined : stored[best]) };
  });
}

/** The words word-by-word captions show for a cue: its own when they spell its text, else shared by characters. */
export function cueWords(cue: Cue): CueWord[] {
  const texts = cue.text.trim().split(/\s+/).filter(Boolean);
  const own = cue.words;
  if (own && own.length === texts.length && own.every((w, i) => w.text === texts[i] && w.end >= w.start)) return clampWords(own, cue);
  return proportionalWords(cue);
}

function splitText(text: string, maxChars: number): string[] {
  const out: string[] = [];
  let piece = '';
  for (const w of text.split(/\s+/)) {
    if (!piece) piece = w;
    else if (piece.length + 1 + w.length <= maxChars) piece += ` ${w}`;
    else {
      out.push(piece);
      piece = w;
    }
  }
  if (piece) out.push(piece);
  return out;
}

const round = (n: number) => Math.round(n * 1000) / 1000;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** hh:mm:ss,mmm */
export function srtTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)},${pad(ms % 1000, 3)}`;
}

/** mm:ss.mmm (text and preview) */
export function shortTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  return `${pad(Math.floor(ms / 60_000))}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

export function toSrt(cues: Cue[]): string {
  return cues.map((c, i) => `${i + 1}\n${srtTime(c.start)} --> ${srtTime(c.end)}\n${cueLines(c.text).join('\n')}\n`).join('\n');
}

export function toTxt(cues: Cue[]): string {
  return cues.map((c) => `[${shortTime(c.start)} - ${shortTime(c.end)}] ${c.text}`).join('\n') + (cues.length ? '\n' : '');
}

export function toJson(cues: Cue[]): string {
  return JSON.stringify(cues.map((c) => ({ start: c.start, end: c.end, text: c.text })), null, 2);
}

const parseSrtTime = (t: string) => {
  const m = /^(\d+):(\d{2}):(\d{2})[,.](\d{3})$/.exec(t.trim());
  if (!m) throw new Error(`Bad SRT time: ${t}`);
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4]) / 1000;
};

export function parseSrt(srt: string): Cue[] {
  return srt
    .replace(/\r/g, '')
    .split(/\n{2,}/)
    .map((block) => block.trim().split('\n'))
    .filter((lines) => lines.length >= 3)
    .map(([, times, ...text]) => {
      const [a, b] = times!.split('-->');
      return { start: parseSrtTime(a!), end: parseSrtTime(b!), text: text.join(' ') };
    });
}

export function parseTxt(txt: string): Cue[] {
  const toSeconds = (t: string) => {
    const [m, s] = t.split(':');
    return Number(m) * 60 + Number(s);
  };
  return txt
    .split('\n')
    .map((line) => /^\[(\d{2}:\d{2}\.\d{3}) - (\d{2}:\d{2}\.\d{3})\] (.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ start: toSeconds(m[1]!), end: toSeconds(m[2]!), text: m[3]! }));
}
