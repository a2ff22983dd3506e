/**
 * The crop rounding shared by the export dialog's crop editor (web) and the renderer (server): an area
 * given as fractions of the frame becomes source pixels with even sizes and even offsets inside the
 * frame (ffmpeg's yuv420p crops). Both sides call this one function, so the rectangle the person chose
 * is the rectangle that is cut (issue 16).
 */
import { evenSize } from './frame-layout.js';

/** A crop area as fractions (0–1) of the frame, as the API takes it. */
export interface CropFractions {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A crop area in source pixels. */
export interface CropRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * A fraction computed from whole pixels (26/360) can come back a hair short (25.999…): this tolerance,
 * far below a pixel, keeps the even rounding from losing two pixels to floating point.
 */
export const CROP_PIXEL_TOLERANCE = 1e-6;

/** The frame can be cropped at all: finite, and at least 2×2 pixels. */
export const isCroppableFrame = (width: number, height: number) => Number.isFinite(width) && Number.isFinite(height) && width >= 2 && height >= 2;

/** Fractions to source pixels: even sizes inside the frame, even offsets, the offset moved back inside when needed. */
export function cropRect(area: CropFractions, width: number, height: number): CropRect {
  if (!isCroppableFrame(width, height)) throw new Error('Invalid video dimensions');
  const w = Math.min(evenSize(area.width * width + CROP_PIXEL_TOLERANCE), evenSize(width));
  const h = Math.min(evenSize(area.height * height + CROP_PIXEL_TOLERANCE), evenSize(height));
  const x = Math.min(Math.max(0, Math.round(area.x * width)), width - w);
  const y = Math.min(Math.max(0, Math.round(area.y * height)), height - h);
  return { x: x - (x % 2), y: y - (y % 2), width: w, height: h };
}

/**
 * How much a crop may be enlarged to fill its output and still look sharp (issue 27 item 13, decision
 * 169): twice its size. Past that, lanczos has no detail to draw from and the picture looks soft; the
 * crop editor warns (the export is not refused: the business may still want it).
 */
export const SHARP_UPSCALE_LIMIT = 2;

/** How many times the crop is enlarged to fill the output (its larger factor), or 0 for an empty area. */
export function upscaleFactor(area: { width: number; height: number }, output: { width: number; height: number }): number {
  if (area.width <= 0 || area.height <= 0) return 0;
  return Math.max(output.width / area.width, output.height / area.height);
}

/** Whether a crop of this size will look soft at the output's size (enlarged more than SHARP_UPSCALE_LIMIT times). */
export const isSoftCrop = (area: { width: number; height: number }, output: { width: number; height: number }): boolean =>
  upscaleFactor(area, output) > SHARP_UPSCALE_LIMIT;
