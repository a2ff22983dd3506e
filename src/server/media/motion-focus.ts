/**
 * The smart crop's proposal (issue 31, decision 200): where the picture moves. No face-detection model
 * runs here (see the decision), so the crop is proposed around the centre of motion: ffmpeg reads the
 * first seconds of the answer at a few frames a second, shrunk to a small grid in grey, and `tblend`
 * gives the difference of each frame with the one before. Summed over time, the differences are large
 * where someone talks and gestures and near zero on a still background.
 */

/** The analysis grid (the picture is stretched to it; the centre is returned as fractions). */
export const FOCUS_GRID = 64;
/** Frames a second, and how much of the answer is read. */
export const FOCUS_FPS = 5;
export const FOCUS_SECONDS = 10;
/** Below this mean difference per pixel and frame (of 255), the picture is still: nothing to propose. */
export const FOCUS_MIN_MOTION = 0.4;

/** ffmpeg's arguments: the differences of successive frames as raw 8-bit grey grids, one after the other. */
export function motionFocusArgs(input: string, output: string): string[] {
  return [
    '-t', String(FOCUS_SECONDS), '-i', input, '-an',
    '-vf', `fps=${FOCUS_FPS},scale=${FOCUS_GRID}:${FOCUS_GRID}:flags=area,format=gray,tblend=all_mode=difference`,
    '-f', 'rawvideo', output,
  ];
}

/**
 * The centre of motion, as fractions of the frame, from the raw difference grids: each cell's summed
 * difference less the grid's mean (the noise every cell has), weighted centroid of what remains. Null
 * when the picture barely moves. The first grid is skipped (tblend's first frame has no predecessor).
 */
export function motionCentre(raw: Uint8Array): { x: number; y: number } | null {
  const cells = FOCUS_GRID * FOCUS_GRID;
  const frames = Math.floor(raw.length / cells);
  if (frames < 2) return null;
  const energy = new Float64Array(cells);
  for (let f = 1; f < frames; f++) for (let i = 0; i < cells; i++) energy[i]! += raw[f * cells + i]!;
  let total = 0;
  for (let i = 0; i < cells; i++) total += energy[i]!;
  const mean = total / cells;
  if (mean / (frames - 1) < FOCUS_MIN_MOTION) return null;
  let weight = 0;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < cells; i++) {
    const w = Math.max(0, energy[i]! - mean);
    weight += w;
    sx += w * ((i % FOCUS_GRID) + 0.5);
    sy += w * (Math.floor(i / FOCUS_GRID) + 0.5);
  }
  if (weight <= 0) return null;
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return { x: round(sx / weight / FOCUS_GRID), y: round(sy / weight / FOCUS_GRID) };
}
