import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Box } from '../../contract/frame-layout.js';

/**
 * Reading rendered frames in tests (issue 17): a frame grabbed by ffmpeg, its words and their boxes read
 * by tesseract (Debian's tesseract-ocr), and coloured regions found in its pixels.
 */
const run = promisify(execFile);

export interface Word {
  text: string;
  box: Box;
}

/**
 * Grabs the frame at `seconds` (optionally a `crop` of it, scaled `zoom` times) as a picture under the
 * system's temp folder, kept there to look at. With `light`, only the pixels whose every channel is
 * lighter than it (0–255) are kept, drawn black on white (a PGM): white subtitles read alone, without their
 * outline, their shadow and the picture under them.
 */
export async function grabFrame(video: string, seconds: number, name: string, o: { light?: number; crop?: string; zoom?: number } = {}): Promise<string> {
  const filters = [...(o.crop ? [`crop=${o.crop}`] : []), ...(o.zoom ? [`scale=iw*${o.zoom}:ih*${o.zoom}:flags=lanczos`] : [])];
  const vf = filters.length ? ['-vf', filters.join(',')] : [];
  const png = path.join(os.tmpdir(), `vr-frame-${name}.png`);
  await run('ffmpeg', ['-v', 'error', '-y', '-ss', String(seconds), '-i', video, '-frames:v', '1', ...vf, '-update', '1', png]);
  if (o.light === undefined) return png;
  const { width, height, rgb } = await rawPixels(png);
  const gray = Buffer.alloc(width * height);
  for (let i = 0; i < gray.length; i++) gray[i] = Math.min(rgb[3 * i]!, rgb[3 * i + 1]!, rgb[3 * i + 2]!) > o.light ? 0 : 255;
  const pgm = path.join(os.tmpdir(), `vr-frame-${name}-light.pgm`);
  await writeFile(pgm, Buffer.concat([Buffer.from(`P5\n${width} ${height}\n255\n`), gray]));
  return pgm;
}

async function rawPixels(png: string): Promise<{ width: number; height: number; rgb: Buffer }> {
  const { stdout: size } = await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', png]);
  const [width, height] = size.trim().split(',').map(Number) as [number, number];
  const { stdout } = await run('ffmpeg', ['-v', 'error', '-i', png, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
  return { width, height, rgb: stdout };
}

/** The words tesseract reads in a picture (block mode, `--psm 6`), each with its box in the picture's pixels. */
export async function readWords(png: string): Promise<Word[]> {
  const { stdout } = await run('tesseract', [png, '-', '--psm', '6', 'tsv'], { maxBuffer: 8 * 1024 * 1024 });
  return stdout
    .split('\n')
    .slice(1)
    .map((line) => line.split('\t'))
    .filter((f) => f[0] === '5' && f[11]?.trim() && Number(f[10]) > 0)
    .map((f) => ({ text: f[11]!.trim(), box: { x: Number(f[6]), y: Number(f[7]), width: Number(f[8]), height: Number(f[9]) } }));
}

/** Lower case, letters and digits only: what is compared of a text and its reading. */
export const normalisedWords = (text: string) =>
  text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .split(/\s+/)
    .map((w) => w.replace(/[^\p{L}\p{N}']/gu, ''))
    .filter(Boolean);

/**
 * How much of `expected` was read: the share of its words found in order in the reading (a longest
 * common subsequence, so a slip costs one word), and whether its last `tail` words were read.
 */
export function matchReading(expected: string, read: string, tail = 3): { ratio: number; tailFound: boolean } {
  const a = normalisedWords(expected);
  const b = normalisedWords(read);
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) lcs[i]![j] = a[i - 1] === b[j - 1] ? lcs[i - 1]![j - 1]! + 1 : Math.max(lcs[i - 1]![j]!, lcs[i]![j - 1]!);
  const last = a.slice(-tail).join(' ');
  return { ratio: a.length ? lcs[a.length]![b.length]! / a.length : 1, tailFound: b.join(' ').includes(last) };
}

/** The bounding box of the words, or null without words. */
export function unionBox(boxes: Box[]): Box | null {
  if (!boxes.length) return null;
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  return { x, y, width: Math.max(...boxes.map((b) => b.x + b.width)) - x, height: Math.max(...boxes.map((b) => b.y + b.height)) - y };
}

export const boxInside = (inner: Box, outer: Box, slack = 0) =>
  inner.x >= outer.x - slack && inner.y >= outer.y - slack && inner.x + inner.width <= outer.x + outer.width + slack && inner.y + inner.height <= outer.y + outer.height + slack;
export const boxesIntersect = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The box of the pixels of a frame that `match` their RGB (e.g. a logo of a colour found nowhere else), or null. */
export async function colourBox(png: string, match: (r: number, g: number, b: number) => boolean): Promise<Box | null> {
  const { width, height, rgb } = await rawPixels(png);
  let [x0, y0, x1, y1] = [width, height, -1, -1];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      if (!match(rgb[i]!, rgb[i + 1]!, rgb[i + 2]!)) continue;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
    }
  }
  return x1 < 0 ? null : { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}
