/**
 * The rules every saved or burnt-in set of subtitle lines follows, whoever wrote them (an engine or a
 * person typing them, decision 167): in time order without overlap, each ending after it starts, within
 * the answer, with text, and not too many. Shared by the server (which refuses with the reason) and the
 * editor (which says the same before saving). No zod here: the reasons are error-reasons.ts keys.
 */
import type { TErrorParams, TErrorReason } from './error-reasons.js';

export interface TimedLine {
  start: number;
  end: number;
  text: string;
}

/** At most this many lines for one answer (an answer lasts 20 s; this bounds a lying client). */
export const MAX_SUBTITLE_LINES = 300;
/** Rounding of the times (ms) and of the answer's measured length: a line may end this much past it. */
export const SUBTITLE_END_TOLERANCE_SECONDS = 0.05;

export interface CueProblem {
  reason: TErrorReason;
  params: TErrorParams;
  /** The 0-based index of the line at fault, when one is. */
  index: number | null;
}

/** The first problem of these lines (null when they can be saved). `duration` is the answer's length in seconds, when known. */
export function cueProblem(lines: readonly TimedLine[], duration: number | null | undefined): CueProblem | null {
  if (lines.length > MAX_SUBTITLE_LINES) return { reason: 'subtitle_too_many_lines', params: { max: MAX_SUBTITLE_LINES }, index: null };
  for (const [index, line] of lines.entries()) {
    const params = { line: index + 1 };
    if (!line.text.trim()) return { reason: 'subtitle_line_empty', params, index };
    if (!(line.end > line.start)) return { reason: 'subtitle_line_timing', params, index };
    const previous = index > 0 ? lines[index - 1]! : null;
    if (previous && line.start < previous.end - 0.0005) return { reason: 'subtitle_line_overlap', params, index };
    if (duration && line.end > duration + SUBTITLE_END_TOLERANCE_SECONDS) {
      return { reason: 'subtitle_line_after_end', params: { ...params, seconds: Math.round(duration * 10) / 10 }, index };
    }
  }
  return null;
}
