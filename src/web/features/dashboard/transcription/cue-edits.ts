import type { TTranscription } from '../../../../contract/api/transcription.schema.js';

/**
 * The edits of subtitle lines made while listening (decision 167): add a line at the player's time,
 * set its start and end, split a line, join it with the next, remove it. Each returns new lines in
 * time order; none reads the player itself.
 */

/** A new line's default length, and the shortest a split leaves on either side. */
export const NEW_LINE_SECONDS = 2;
const MIN_PART_SECONDS = 0.2;

const ms = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** Where a line starting at `time` goes: after every line that starts before it. */
function insertionIndex(cues: TTranscription, time: number): number {
  const after = cues.findIndex((cue) => cue.start > time);
  return after === -1 ? cues.length : after;
}

/**
 * Adds an empty line at `time` (the player's), up to two seconds long, ending before the next line and
 * the answer's end. A line that was still showing at `time` is ended there. Returns the lines and the
 * new line's index.
 */
export function addCueAt(cues: TTranscription, time: number, duration: number | null): { cues: TTranscription; index: number } {
  const limit = duration && Number.isFinite(duration) ? duration : Infinity;
  const start = ms(Math.max(0, Math.min(time, limit === Infinity ? time : Math.max(0, limit - MIN_PART_SECONDS))));
  const index = insertionIndex(cues, start);
  const next = cues[index];
  const end = ms(Math.min(start + NEW_LINE_SECONDS, next ? next.start : Infinity, limit));
  const lines = cues.map((cue, i) => (i === index - 1 && cue.end > start ? { ...cue, end: start } : cue));
  lines.splice(index, 0, { start, end: end > start ? end : ms(start + MIN_PART_SECONDS), text: '' });
  return { cues: lines, index };
}

/** Sets a line's start or end (seconds, to the millisecond). The order is checked when saving. */
export function withCueTime(cues: TTranscription, index: number, edge: 'start' | 'end', seconds: number): TTranscription {
  return cues.map((cue, i) => (i === index ? { ...cue, [edge]: ms(Math.max(0, seconds)) } : cue));
}

/**
 * Splits a line in two at `time` when it falls inside the line (else at its middle); its words are
 * shared in proportion to the time on each side, at least one on each side when it has two.
 */
export function splitCue(cues: TTranscription, index: number, time: number | null): TTranscription {
  const cue = cues[index];
  if (!cue) return cues;
  const inside = time !== null && time > cue.start + MIN_PART_SECONDS && time < cue.end - MIN_PART_SECONDS;
  const at = ms(inside ? time : (cue.start + cue.end) / 2);
  const words = cue.text.trim().split(/\s+/).filter(Boolean);
  const share = cue.end > cue.start ? (at - cue.start) / (cue.end - cue.start) : 0.5;
  const cut = words.length < 2 ? words.length : Math.min(words.length - 1, Math.max(1, Math.round(words.length * share)));
  const first = { start: cue.start, end: at, text: words.slice(0, cut).join(' ') };
  const second = { start: at, end: cue.end, text: words.slice(cut).join(' ') };
  return [...cues.slice(0, index), first, second, ...cues.slice(index + 1)];
}

/** Joins a line with the next one: from the first's start to the second's end, their words together. */
export function joinWithNext(cues: TTranscription, index: number): TTranscription {
  const cue = cues[index];
  const next = cues[index + 1];
  if (!cue || !next) return cues;
  const joined = { start: cue.start, end: Math.max(cue.end, next.end), text: `${cue.text.trim()} ${next.text.trim()}`.trim() };
  return [...cues.slice(0, index), joined, ...cues.slice(index + 2)];
}

export function removeCue(cues: TTranscription, index: number): TTranscription {
  return cues.filter((_, i) => i !== index);
}

/** The line showing at `time`, else the last one that started before it, else the first (-1 without lines). */
export function lineAt(cues: TTranscription, time: number): number {
  const showing = cues.findIndex((cue) => time >= cue.start && time < cue.end);
  if (showing !== -1) return showing;
  let before = -1;
  cues.forEach((cue, i) => {
    if (cue.start <= time) before = i;
  });
  return before !== -1 ? before : cues.length ? 0 : -1;
}

/** The index of the line showing at `time` (strictly inside it), or -1. */
export function showingAt(cues: TTranscription, time: number): number {
  return cues.findIndex((cue) => time >= cue.start && time < cue.end);
}
