/**
 * Subtitle cues and their files, shared by the server (burn-in) and the client (downloads):
 * grouping timed words into readable cues, and the SRT, TXT and JSON writers and readers.
 */
export interface Cue {
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
    current = { start, end, text };
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
  }
  return cues.filter((c) => c.end > c.start);
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
