/**
 * Trims of an answer (issue 31, decision 201): the part of the answer every output uses, set without
 * recording again; the file itself is kept whole. Shared by the server (which refuses with the reason)
 * and the trim editor (which says the same before saving, and nudges by a frame). No zod here: the
 * reasons are error-reasons.ts keys.
 */
import type { TErrorParams, TErrorReason } from "./error-reasons.js";

/** What is kept is at least this long (seconds). */
export const TRIM_MIN_SECONDS = 1;
/** One frame of the outputs (30 fps): the keyboard's small step, and the precision times are stored at. */
export const TRIM_FRAME_SECONDS = 1 / 30;
/** The answer's measured length is rounded: an end this close to it (or past it by this) is "to the end". */
export const TRIM_END_TOLERANCE_SECONDS = 0.05;

/** A trim as stored and sent: null start is "from the beginning", null end "to the end". */
export interface Trim {
  start: number | null;
  end: number | null;
}

export interface TrimProblem {
  reason: TErrorReason;
  params: TErrorParams;
  field: "start" | "end" | null;
}

/** m:ss.t of a time in seconds, as the messages say it. */
export function trimClock(seconds: number): string {
  const tenths = Math.max(0, Math.round(seconds * 10));
  const m = Math.floor(tenths / 600);
  const s = (tenths % 600) / 10;
  return `${m}:${s < 10 ? "0" : ""}${s.toFixed(1)}`;
}

/** The first problem of a trim of an answer lasting `duration` seconds (null when it can be saved). */
export function trimProblem(
  trim: Trim,
  duration: number | null | undefined,
): TrimProblem | null {
  if (!duration || duration <= 0)
    return { reason: "trim_not_ready", params: {}, field: null };
  const params = { duration: trimClock(duration) };
  const start = trim.start ?? 0;
  const end = trim.end ?? duration;
  if (start < 0 || start >= duration)
    return { reason: "trim_start_outside", params, field: "start" };
  if (end <= 0 || end > duration + TRIM_END_TOLERANCE_SECONDS)
    return { reason: "trim_end_outside", params, field: "end" };
  if (end - start < TRIM_MIN_SECONDS - 0.0005)
    return {
      reason: "trim_too_short",
      params: { seconds: TRIM_MIN_SECONDS },
      field: "end",
    };
  return null;
}

/**
 * The trim as stored, from a valid one: times to the millisecond, a start at 0 and an end at the
 * answer's end (within TRIM_END_TOLERANCE_SECONDS) stored as null, so an untouched side follows the file.
 */
export function normalisedTrim(trim: Trim, duration: number): Trim {
  const ms = (n: number) => Math.round(n * 1000) / 1000;
  const start =
    trim.start === null || trim.start <= 0.0005 ? null : ms(trim.start);
  const end =
    trim.end === null || trim.end >= duration - TRIM_END_TOLERANCE_SECONDS
      ? null
      : ms(trim.end);
  return { start, end };
}

/**
 * The part of the answer an output uses, in seconds of its file, or null when it is used whole.
 * Without a known length, an open end runs to `fallbackEnd` (the longest answer accepted).
 */
export function keptPart(
  trim: Trim,
  duration: number | null | undefined,
  fallbackEnd: number,
): { start: number; end: number } | null {
  if (trim.start === null && trim.end === null) return null;
  return { start: trim.start ?? 0, end: trim.end ?? duration ?? fallbackEnd };
}

/**
 * Timed lines (subtitles) of the whole answer brought to the kept part: shifted by its start, those
 * outside it left out, those across a cut clipped to it. Their words' times (word-by-word captions,
 * issue 31) move with them, clipped to the line: a word said in the cut part lasts no time.
 */
export function cuesInKept<
  T extends {
    start: number;
    end: number;
    words?: { start: number; end: number }[] | undefined;
  },
>(cues: readonly T[], kept: { start: number; end: number } | null): T[] {
  if (!kept) return [...cues];
  const length = kept.end - kept.start;
  return cues
    .map((cue) => {
      const start = Math.max(0, cue.start - kept.start);
      const end = Math.min(length, cue.end - kept.start);
      const clip = (t: number) =>
        Math.min(end, Math.max(start, t - kept.start));
      const words = cue.words?.map((w) => ({
        ...w,
        start: clip(w.start),
        end: clip(w.end),
      }));
      return { ...cue, start, end, ...(words ? { words } : {}) };
    })
    .filter((cue) => cue.end - cue.start > 0.05);
}
