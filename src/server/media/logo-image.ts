import { readFile, rm, writeFile } from 'node:fs/promises';
import { LOGO_PIXEL_LIMITS } from '../../contract/constants.js';
import type { MediaToolkit } from './ffmpeg.js';

/**
 * The company logo as a picture: its size read from the file's header (no decoding, so a 16000×16000
 * PNG of 800 KB costs nothing to refuse; ffprobe would decode it, 0.8 GB and seconds here), and the
 * normalised copy that everything shows.
 */

export interface Dimensions {
  width: number;
  height: number;
}

/** Width and height as the file's header declares them, or null when the header cannot be read. */
export function imageDimensions(data: Buffer, extension: string): Dimensions | null {
  try {
    const found = extension === 'png' ? png(data) : extension === 'jpg' ? jpeg(data) : extension === 'webp' ? webp(data) : extension === 'gif' ? gif(data) : null;
    return found && found.width > 0 && found.height > 0 ? found : null;
  } catch {
    return null; // a read past the end: a cut header
  }
}

/** Whether a picture of this size may be decoded at all. */
export function withinLogoLimits(d: Dimensions): boolean {
  return d.width <= LOGO_PIXEL_LIMITS.maxSide && d.height <= LOGO_PIXEL_LIMITS.maxSide && d.width * d.height <= LOGO_PIXEL_LIMITS.maxPixels;
}

function png(b: Buffer): Dimensions | null {
  if (b.subarray(12, 16).toString('latin1') !== 'IHDR') return null;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

/** GIF: the logical screen, which bounds every frame ffmpeg's decoder produces. */
function gif(b: Buffer): Dimensions | null {
  return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
}

/** JPEG: the first frame header (SOF0–SOF15 but DHT, JPG and DAC), found by walking the segments before the first scan. */
function jpeg(b: Buffer): Dimensions | null {
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or a scan before any frame header
    const length = b.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: b.readUInt16BE(at + 7), height: b.readUInt16BE(at + 5) };
    }
    at += 2 + length;
  }
  return null;
}

/** WebP: the largest of the canvas (VP8X) and the bitstreams' sizes (VP8, VP8L) among its chunks. */
function webp(b: Buffer): Dimensions | null {
  let width = 0;
  let height = 0;
  let at = 12;
  while (at + 8 <= b.length) {
    const kind = b.subarray(at, at + 4).toString('latin1');
    const size = b.readUInt32LE(at + 4);
    const data = at + 8;
    if (kind === 'VP8X') {
      width = Math.max(width, b.readUIntLE(data + 4, 3) + 1);
      height = Math.max(height, b.readUIntLE(data + 7, 3) + 1);
    } else if (kind === 'VP8 ') {
      width = Math.max(width, b.readUInt16LE(data + 6) & 0x3fff);
      height = Math.max(height, b.readUInt16LE(data + 8) & 0x3fff);
    } else if (kind === 'VP8L') {
      const bits = b.readUInt32LE(data + 1);
      width = Math.max(width, (bits & 0x3fff) + 1);
      height = Math.max(height, ((bits >>> 14) & 0x3fff) + 1);
    }
    at = data + size + (size % 2);
  }
  return width && height ? { width, height } : null;
}

/**
 * Writes the normalised logo: the first picture of `input`, at most LOGO_PIXEL_LIMITS.storedSide on
 * its long side (never enlarged), same aspect, as an RGBA PNG (transparency kept, metadata dropped).
 * Rejects when the picture does not decode cleanly; the decoder itself refuses a picture over the pixel
 * limit, whatever the header said.
 */
export async function normaliseLogo(media: Pick<MediaToolkit, 'runFfmpeg'>, input: string, output: string): Promise<void> {
  const side = LOGO_PIXEL_LIMITS.storedSide;
  await media.runFfmpeg(
    [
      '-max_pixels', String(LOGO_PIXEL_LIMITS.maxPixels),
      '-i', input,
      '-frames:v', '1',
      '-vf', `scale='min(${side},iw)':'min(${side},ih)':force_original_aspect_ratio=decrease:flags=lanczos,setsar=1,format=rgba`,
      '-c:v', 'png', '-f', 'image2', '-update', '1',
      output,
    ],
    { timeoutMs: 60_000, failOnErrors: 'all' },
  );
}

/** What the logo's opaque pixels look like (decision 172): their mean relative luminance and their shape. */
export interface LogoMeasure {
  /** Mean WCAG relative luminance of the opaque pixels, weighted by their opacity (0 black – 1 white). */
  luminance: number;
  /** Width-to-height ratio of the opaque pixels' bounding box (a wide wordmark is 3 or more). */
  aspect: number;
}

/** A pixel at least this opaque (of 255) counts as part of the logo. */
const OPAQUE_ALPHA = 32;

/** The sRGB channel (0–255) to linear light, as WCAG's relative luminance defines it. */
const LINEAR = Array.from({ length: 256 }, (_, v) => {
  const c = v / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

/** The measure of raw RGBA pixels, `width` a row; null when no pixel is opaque (an empty picture). */
export function measureRgba(rgba: Buffer, width: number, height: number): LogoMeasure | null {
  let weight = 0;
  let sum = 0;
  let [minX, minY, maxX, maxY] = [width, height, -1, -1];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 4;
      const alpha = rgba[at + 3]!;
      if (alpha < OPAQUE_ALPHA) continue;
      const w = alpha / 255;
      weight += w;
      sum += w * (0.2126 * LINEAR[rgba[at]!]! + 0.7152 * LINEAR[rgba[at + 1]!]! + 0.0722 * LINEAR[rgba[at + 2]!]!);
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  if (maxX < 0) return null;
  return { luminance: Math.min(1, Math.max(0, sum / weight)), aspect: (maxX - minX + 1) / (maxY - minY + 1) };
}

/**
 * Measures a normalised logo (an RGBA PNG of at most LOGO_PIXEL_LIMITS.storedSide a side): ffmpeg
 * decodes it to raw RGBA in `scratch`, which is read and measured here. Null when nothing is opaque.
 */
export async function measureLogo(media: Pick<MediaToolkit, 'runFfmpeg'>, png: Buffer, scratch: string): Promise<LogoMeasure | null> {
  const size = imageDimensions(png, 'png');
  if (!size) return null;
  const input = `${scratch}.png`;
  const raw = `${scratch}.rgba`;
  await writeFile(input, png);
  try {
    await media.runFfmpeg(['-i', input, '-frames:v', '1', '-vf', 'format=rgba', '-f', 'rawvideo', '-y', raw], { timeoutMs: 60_000, failOnErrors: 'all' });
    const rgba = await readFile(raw);
    if (rgba.length !== size.width * size.height * 4) return null;
    return measureRgba(rgba, size.width, size.height);
  } finally {
    await rm(input, { force: true });
    await rm(raw, { force: true });
  }
}
