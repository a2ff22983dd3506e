/**
 * The crop maths of the export dialog (spec: company dashboard §3 crop area, §5 crop validation,
 * §9 frame preview): pure functions, no DOM.
 *
 * The area is kept in source pixels with every value even (x, y, width and height), exactly as the
 * server's renderer rounds it (media/render.ts `cropPixels`): the fractions sent back to pixels on the
 * server give the very same rectangle the person chose. The aspect ratio is driven by the longer side
 * of the area (the height for 9:16, the width for 16:9), so the largest area of a 640×360 source for
 * 9:16 is 202×360, not 202×358.
 */
import { ZCropArea } from '../../../../contract/api/studio.schema.js';
import type { TCropArea } from '../../../../contract/api/studio.schema.js';
import { cropRect } from '../../../../contract/crop.js';

export interface Size {
  width: number;
  height: number;
}

/** A crop area in source pixels. */
export interface PixelArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Which corner a resize handle sits on. */
export type Corner = 'nw' | 'ne' | 'sw' | 'se';

/** The default preview cap (§9: preview width capped at 800 px; here neither side exceeds it). */
export const PREVIEW_MAX_SIDE = 800;

/** The smallest area offered, as a share of the largest one (a crop of a few pixels is never meant). */
const MIN_SHARE = 0.1;

/** Down to an even number (never below 0). */
export function evenFloor(value: number): number {
  return Math.max(0, Math.floor(value / 2) * 2);
}

/** To the nearest even number. */
function evenRound(value: number): number {
  return Math.round(value / 2) * 2;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** The source can be cropped at all: finite, and at least 2×2 pixels. */
export function isUsableSource(source: Size): boolean {
  return Number.isFinite(source.width) && Number.isFinite(source.height) && source.width >= 2 && source.height >= 2;
}

/** Portrait ratios (width / height < 1) are driven by the height, the others by the width. */
function drivenByHeight(ratio: number): boolean {
  return ratio < 1;
}

/** The area's size for a value of its driving side, both sides even and inside the source. */
function sizeFromDriver(driver: number, ratio: number, source: Size): Size {
  const maxWidth = evenFloor(source.width);
  const maxHeight = evenFloor(source.height);
  if (drivenByHeight(ratio)) {
    const height = Math.min(maxHeight, Math.max(2, evenFloor(driver)));
    return { width: Math.min(maxWidth, Math.max(2, evenFloor(height * ratio))), height };
  }
  const width = Math.min(maxWidth, Math.max(2, evenFloor(driver)));
  return { width, height: Math.min(maxHeight, Math.max(2, evenFloor(width / ratio))) };
}

function driverOf(size: Size, ratio: number): number {
  return drivenByHeight(ratio) ? size.height : size.width;
}

/** The largest value of the driving side whose area fits the source with the ratio kept. */
function maxDriver(source: Size, ratio: number): number {
  return drivenByHeight(ratio)
    ? evenFloor(Math.min(source.height, source.width / ratio))
    : evenFloor(Math.min(source.width, source.height * ratio));
}

/** The smallest value of the driving side offered: a tenth of the largest, the other side ≥ 2 px. */
function minDriver(source: Size, ratio: number): number {
  const max = maxDriver(source, ratio);
  const otherAtLeastTwo = drivenByHeight(ratio) ? Math.ceil(2 / ratio) : Math.ceil(2 * ratio);
  const wanted = Math.max(2, otherAtLeastTwo + (otherAtLeastTwo % 2), evenFloor(max * MIN_SHARE));
  return Math.min(max, wanted);
}

/** The largest area of `ratio` (width / height) that fits the source. */
export function maxAreaSize(source: Size, ratio: number): Size {
  return sizeFromDriver(maxDriver(source, ratio), ratio, source);
}

/** The smallest area of `ratio` that the controls allow. */
export function minAreaSize(source: Size, ratio: number): Size {
  return sizeFromDriver(minDriver(source, ratio), ratio, source);
}

/** Places an area of `size` at (x, y), moved as little as needed to lie inside the source, even. */
function place(x: number, y: number, size: Size, source: Size): PixelArea {
  return {
    x: clamp(evenRound(x), 0, evenFloor(source.width - size.width)),
    y: clamp(evenRound(y), 0, evenFloor(source.height - size.height)),
    width: size.width,
    height: size.height,
  };
}

/** The starting area (§2, §9): centred, and as large as the ratio allows. */
export function initialArea(source: Size, ratio: number): PixelArea {
  const size = maxAreaSize(source, ratio);
  return place((source.width - size.width) / 2, (source.height - size.height) / 2, size, source);
}

/** The area moved by (dx, dy) source pixels, stopped at the frame's edges. */
export function moveArea(area: PixelArea, dx: number, dy: number, source: Size): PixelArea {
  return place(area.x + dx, area.y + dy, area, source);
}

/** The area with its top-left corner at (x, y), as typed in the X and Y fields. */
export function setPosition(area: PixelArea, position: { x?: number; y?: number }, source: Size): PixelArea {
  return place(position.x ?? area.x, position.y ?? area.y, area, source);
}

/** The area at a new size (a value of its driving side), its centre kept as far as the frame allows. */
export function resizeAroundCentre(area: PixelArea, driver: number, ratio: number, source: Size): PixelArea {
  const size = sizeFromDriver(clamp(driver, minDriver(source, ratio), maxDriver(source, ratio)), ratio, source);
  const centreX = area.x + area.width / 2;
  const centreY = area.y + area.height / 2;
  return place(centreX - size.width / 2, centreY - size.height / 2, size, source);
}

/** The keyboard step in source pixels: about 1 % of the frame's longer side, even, at least 2. */
export function keyboardStep(source: Size): number {
  return Math.max(2, evenRound(Math.max(source.width, source.height) / 100));
}

/** Grows (steps > 0) or shrinks (steps < 0) the area by keyboard steps of its driving side. */
export function resizeBySteps(area: PixelArea, steps: number, ratio: number, source: Size): PixelArea {
  return resizeAroundCentre(area, driverOf(area, ratio) + steps * keyboardStep(source), ratio, source);
}

/**
 * The area whose width (or height) is the largest one not above `value`, as typed in the W or H
 * field (of the sizes that give it, the one closest to the ratio); its top-left corner is kept,
 * moved only if the new size would leave the frame.
 */
export function setDimension(area: PixelArea, dimension: 'width' | 'height', value: number, ratio: number, source: Size): PixelArea {
  const min = minDriver(source, ratio);
  const max = maxDriver(source, ratio);
  const ratioError = (size: Size) => Math.abs(size.width / size.height - ratio);
  let best = sizeFromDriver(min, ratio, source);
  for (let driver = min; driver <= max; driver += 2) {
    const size = sizeFromDriver(driver, ratio, source);
    if (size[dimension] > value) break;
    if (size[dimension] > best[dimension] || ratioError(size) < ratioError(best)) best = size;
  }
  return place(area.x, area.y, best, source);
}

/**
 * The area while a corner handle is dragged to `pointer` (source pixels): the opposite corner stays
 * where it was, the ratio is kept and the area never leaves the frame.
 */
export function resizeFromCorner(start: PixelArea, corner: Corner, pointer: { x: number; y: number }, ratio: number, source: Size): PixelArea {
  const west = corner === 'nw' || corner === 'sw';
  const north = corner === 'nw' || corner === 'ne';
  const anchorX = west ? start.x + start.width : start.x;
  const anchorY = north ? start.y + start.height : start.y;
  const roomX = west ? anchorX : source.width - anchorX;
  const roomY = north ? anchorY : source.height - anchorY;
  const wantedWidth = Math.max(0, west ? anchorX - pointer.x : pointer.x - anchorX);
  const wantedHeight = Math.max(0, north ? anchorY - pointer.y : pointer.y - anchorY);
  // The pointer's larger pull wins, expressed on the driving side.
  const wanted = drivenByHeight(ratio) ? Math.max(wantedHeight, wantedWidth / ratio) : Math.max(wantedWidth, wantedHeight * ratio);
  const room = drivenByHeight(ratio) ? Math.min(roomY, roomX / ratio) : Math.min(roomX, roomY * ratio);
  const min = minDriver(source, ratio);
  const driver = clamp(wanted, min, Math.max(min, evenFloor(room)));
  let size = sizeFromDriver(driver, ratio, source);
  // sizeFromDriver floors each side; the room may still be odd on the anchored side's edge.
  while ((size.width > roomX || size.height > roomY) && driverOf(size, ratio) > min) {
    size = sizeFromDriver(driverOf(size, ratio) - 2, ratio, source);
  }
  return place(west ? anchorX - size.width : anchorX, north ? anchorY - size.height : anchorY, size, source);
}

/** An area in any state (a new source, a new ratio) brought back to a valid one of `ratio`. */
export function normaliseArea(area: PixelArea, ratio: number, source: Size): PixelArea {
  return resizeAroundCentre(area, driverOf(area, ratio), ratio, source);
}

/**
 * A nudge added to the width and height fractions: (26 / 360) × 360 is 25.999… in floating point,
 * which the renderer's floor-to-even would turn into 24. The nudge is far below the contract's
 * tolerance on x + width ≤ 1 (CROP_EPSILON, 1e-6) and far below a pixel.
 */
export const FRACTION_NUDGE = 1e-9;

/** Source pixels to the fractions the API takes (§3); fractionsToPixels gives the same pixels back. */
export function pixelsToFractions(area: PixelArea, source: Size): TCropArea {
  return {
    x: area.x / source.width,
    y: area.y / source.height,
    width: Math.min(1, area.width / source.width + FRACTION_NUDGE),
    height: Math.min(1, area.height / source.height + FRACTION_NUDGE),
  };
}

/**
 * Fractions to source pixels, rounded by the contract's `cropRect` (src/contract/crop.ts), the very
 * function the server's renderer uses (media/render.ts `cropPixels`): even sizes inside the frame,
 * even offsets. For an area made by pixelsToFractions from even pixels, this gives them back.
 */
export function fractionsToPixels(area: TCropArea, source: Size): PixelArea {
  return cropRect(area, source.width, source.height);
}

export type CropValidation = { ok: true; area: TCropArea } | { ok: false; field: keyof TCropArea; message: string };

/** The §5 check of the contract (the server runs the same one), with the first failing field. */
export function validateCropArea(area: unknown): CropValidation {
  const parsed = ZCropArea.safeParse(area);
  if (parsed.success) return { ok: true, area: parsed.data };
  const issue = parsed.error.issues[0];
  const field = issue?.path[0];
  return {
    ok: false,
    field: field === 'x' || field === 'y' || field === 'width' || field === 'height' ? field : 'x',
    message: issue?.message ?? 'Invalid crop area',
  };
}

/**
 * The preview's size (§9): the source scaled down so that neither side exceeds `maxSide` (800 px),
 * nor the room available (`maxWidth`, `maxHeight`, e.g. the dialog's width on a phone). Never enlarged.
 */
export function previewSize(source: Size, limits: { maxSide?: number; maxWidth?: number; maxHeight?: number } = {}): Size & { scale: number } {
  const maxSide = limits.maxSide ?? PREVIEW_MAX_SIDE;
  const scale = Math.min(
    1,
    maxSide / source.width,
    maxSide / source.height,
    (limits.maxWidth ?? Number.POSITIVE_INFINITY) / source.width,
    (limits.maxHeight ?? Number.POSITIVE_INFINITY) / source.height,
  );
  return {
    width: Math.max(1, Math.floor(source.width * scale)),
    height: Math.max(1, Math.floor(source.height * scale)),
    scale,
  };
}

/** Where a frame is taken (§9): 1 s in, capped at the duration when it is known. */
export function frameTime(duration: number, preferred = 1): number {
  if (!Number.isFinite(duration) || duration <= 0) return preferred;
  return Math.min(preferred, duration);
}

/**
 * Where the crop editor takes its frame of an answer (issue 17): 1 s in (§9), later in a longer clip,
 * where the customer has settled after pressing record and looks at the camera: a fifth of the way
 * in, at most 3 s (5 s → 1 s, 10 s → 2 s, 20 s → 3 s). A clip under 2 s: its middle. An unknown
 * duration (a WebM as recorded): 1 s.
 */
export function answerFrameTime(duration: number): number {
  if (!Number.isFinite(duration) || duration <= 0) return 1;
  if (duration < 2) return duration / 2;
  return Math.min(3, Math.max(1, duration / 5));
}

/**
 * The area of another format made with the same run (issue 31): as large as its ratio allows, centred
 * where the chosen area is centred (moved as little as needed to fit), so it frames the same speaker.
 */
export function areaAround(area: PixelArea, ratio: number, source: Size): PixelArea {
  const size = maxAreaSize(source, ratio);
  return place(area.x + area.width / 2 - size.width / 2, area.y + area.height / 2 - size.height / 2, size, source);
}

/**
 * The starting area around a point (the smart crop's centre of motion, as fractions of the source): as
 * large as the ratio allows, centred on the point, moved as little as needed to fit (issue 31).
 */
export function areaAt(focus: { x: number; y: number }, source: Size, ratio: number): PixelArea {
  const size = maxAreaSize(source, ratio);
  return place(focus.x * source.width - size.width / 2, focus.y * source.height - size.height / 2, size, source);
}
