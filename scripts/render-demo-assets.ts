/**
 * Regenerates the landing page's media assets into public/:
 *
 *   public/media/demo-en.mp4, public/media/demo-fr.mp4   product walkthrough videos (1280x720, 30 fps, H.264 + AAC)
 *   public/media/demo-en.jpg, public/media/demo-fr.jpg   their posters (the first card)
 *   public/media/demo-{en,fr}-{320,640,960,1280}.webp    the posters in WebP, per width (the landing's srcset)
 *   public/og-image.png                                  1200x630 social preview
 *   public/favicon.svg, public/apple-touch-icon.png      the brand mark
 *   public/robots.txt
 *
 * Run with `npx tsx scripts/render-demo-assets.ts` (or `npm run demo:render`); `--posters` renders only the
 * posters (JPEG and WebP), leaving the videos as they are.
 *
 * Needs ffmpeg (with drawtext, xfade and libx264; set FFMPEG_PATH to use another binary than the one on PATH).
 * Voice-over: `flite` (voice slt) for English and `espeak-ng` (voice fr) for French, when they are installed;
 * without them the video gets a soft synthesized pad instead of speech.
 *
 * Shapes (gradients, rounded rectangles, the phone, silhouettes, the play mark) are rasterised here in plain
 * TypeScript and handed to ffmpeg as raw RGBA; all text is drawn by ffmpeg's drawtext with Inter
 * (node_modules/@fontsource-variable/inter, SIL OFL 1.1). Every step is deterministic: the same tools give
 * byte-identical files.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PUBLIC_DIR = path.join(ROOT, 'public');
const MEDIA_DIR = path.join(PUBLIC_DIR, 'media');
const FONT_SOURCE = path.join(ROOT, 'node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2');
const FFMPEG = process.env['FFMPEG_PATH'] ?? 'ffmpeg';

const WIDTH = 1280;
const HEIGHT = 720;
const FPS = 30;
/** Length of the cross-fade between two cards, in seconds. */
const XFADE = 0.5;
/** Seconds from the start of a card's cross-fade to the start of its narration. */
const VOICE_LEAD = 0.3;
/** Silence kept after a card's narration before the next cross-fade starts. */
const VOICE_TAIL = 0.25;
const AUDIO_RATE = 48_000;

// Brand palette.
const C = {
  violet: '#6d28d9',
  violetBright: '#7c3aed',
  violetDeep: '#4c1d95',
  violet300: '#c4b5fd',
  violet400: '#a78bfa',
  violet100: '#ede9fe',
  ink: '#0f0d15',
  surface: '#1a1724',
  border: '#2e2839',
  borderStrong: '#3d3550',
  muted: '#a1a1aa',
  light: '#e4e4e7',
  white: '#ffffff',
  red: '#ef4444',
  green: '#16a34a',
} as const;

// ---------------------------------------------------------------------------------------------------------------
// Process helpers

class CommandError extends Error {
  constructor(
    readonly command: string,
    readonly args: readonly string[],
    readonly stderr: string,
    readonly code: string | number | undefined,
  ) {
    const shown = args.map((a) => (a.length > 120 ? `${a.slice(0, 117)}...` : a)).join(' ');
    super(
      `${command} failed${code === undefined ? '' : ` (${String(code)})`}: ${command} ${shown}\n` +
        stderr.trim().split('\n').slice(-15).join('\n'),
    );
  }
}

interface RunResult {
  stdout: string;
  stderr: string;
}

function run(command: string, args: readonly string[]): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) {
        reject(new CommandError(command, args, stderr, error.code ?? undefined));
        return;
      }
      resolve({ stdout, stderr });
    });
  });
}

function ffmpeg(args: readonly string[]): Promise<RunResult> {
  return run(FFMPEG, ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...args]);
}

async function commandWorks(command: string, args: readonly string[]): Promise<RunResult | null> {
  try {
    return await run(command, args);
  } catch {
    return null;
  }
}

async function checkFfmpeg(): Promise<void> {
  const version = await commandWorks(FFMPEG, ['-hide_banner', '-version']);
  if (!version) {
    console.error(
      `render-demo-assets: cannot run ffmpeg ("${FFMPEG}").\n` +
        'Install it (Debian/Ubuntu: apt-get install ffmpeg; macOS: brew install ffmpeg) ' +
        'or point FFMPEG_PATH at an ffmpeg binary, then run this script again.',
    );
    process.exit(1);
  }
  const filters = await run(FFMPEG, ['-hide_banner', '-filters']);
  const encoders = await run(FFMPEG, ['-hide_banner', '-encoders']);
  const missing: string[] = [];
  for (const name of ['drawtext', 'xfade', 'loudnorm', 'aevalsrc', 'palettegen']) {
    if (!new RegExp(`\\s${name}\\s`).test(filters.stdout)) missing.push(`filter ${name}`);
  }
  for (const name of ['libx264', 'aac', 'png', 'mjpeg']) {
    if (!new RegExp(`\\s${name}\\s`).test(encoders.stdout)) missing.push(`encoder ${name}`);
  }
  if (missing.length > 0) {
    console.error(`render-demo-assets: ${FFMPEG} lacks ${missing.join(', ')}; use a full ffmpeg build (FFMPEG_PATH).`);
    process.exit(1);
  }
  console.log(`ffmpeg: ${version.stdout.split('\n')[0] ?? ''}`);
}

function at<T>(list: readonly T[], index: number): T {
  const value = list[index];
  if (value === undefined) throw new Error(`index ${index} out of range`);
  return value;
}

/** Rounds a duration to a whole number of frames. */
function frames(seconds: number): number {
  return Math.round(seconds * FPS);
}

function fmt(n: number): string {
  return Number(n.toFixed(4)).toString();
}

// ---------------------------------------------------------------------------------------------------------------
// A tiny rasteriser: signed-distance shapes with analytic anti-aliasing, composited in premultiplied RGBA.

type Rgba = readonly [number, number, number, number];
type Paint = Rgba | ((x: number, y: number) => Rgba);
/** Signed distance to a shape's edge, in pixels: negative inside. */
type Shape = (x: number, y: number) => number;

function rgba(hex: string, alpha = 1): Rgba {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new Error(`bad colour ${hex}`);
  return [parseInt(m[1] ?? '0', 16) / 255, parseInt(m[2] ?? '0', 16) / 255, parseInt(m[3] ?? '0', 16) / 255, alpha];
}

function mix(a: Rgba, b: Rgba, t: number): Rgba {
  const u = Math.min(1, Math.max(0, t));
  return [a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u, a[2] + (b[2] - a[2]) * u, a[3] + (b[3] - a[3]) * u];
}

function linearGradient(x0: number, y0: number, x1: number, y1: number, from: Rgba, to: Rgba): Paint {
  const dx = x1 - x0;
  const dy = y1 - y0;
  const len2 = dx * dx + dy * dy;
  return (x, y) => mix(from, to, ((x - x0) * dx + (y - y0) * dy) / len2);
}

/** A soft radial glow: full colour at the centre, fading out (gaussian) with the given radius. */
function glow(cx: number, cy: number, radius: number, color: Rgba): Paint {
  return (x, y) => {
    const d2 = ((x - cx) ** 2 + (y - cy) ** 2) / (radius * radius);
    return [color[0], color[1], color[2], color[3] * Math.exp(-2.2 * d2)];
  };
}

const everywhere: Shape = () => -1e6;

function roundRect(x: number, y: number, w: number, h: number, r: number): Shape {
  const cx = x + w / 2;
  const cy = y + h / 2;
  const hw = w / 2 - r;
  const hh = h / 2 - r;
  return (px, py) => {
    const qx = Math.abs(px - cx) - hw;
    const qy = Math.abs(py - cy) - hh;
    return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
  };
}

function circle(cx: number, cy: number, r: number): Shape {
  return (px, py) => Math.hypot(px - cx, py - cy) - r;
}

function ellipse(cx: number, cy: number, rx: number, ry: number): Shape {
  return (px, py) => (Math.hypot((px - cx) / rx, (py - cy) / ry) - 1) * Math.min(rx, ry);
}

/** Exact signed distance to a polygon, grown by `round` pixels (which rounds its corners). */
function polygon(points: readonly (readonly [number, number])[], round = 0): Shape {
  return (px, py) => {
    let best = Infinity;
    let inside = false;
    for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
      const [ax, ay] = at(points, i);
      const [bx, by] = at(points, j);
      const ex = bx - ax;
      const ey = by - ay;
      const t = Math.min(1, Math.max(0, ((px - ax) * ex + (py - ay) * ey) / (ex * ex + ey * ey)));
      best = Math.min(best, Math.hypot(px - ax - ex * t, py - ay - ey * t));
      if (ay > py !== by > py && px < ((bx - ax) * (py - ay)) / (by - ay) + ax) inside = !inside;
    }
    return (inside ? -best : best) - round;
  };
}

const union =
  (...shapes: Shape[]): Shape =>
  (x, y) =>
    Math.min(...shapes.map((s) => s(x, y)));
const intersect =
  (a: Shape, b: Shape): Shape =>
  (x, y) =>
    Math.max(a(x, y), b(x, y));
/** The ring of width `width` just inside a shape's edge. */
const outline =
  (s: Shape, width: number): Shape =>
  (x, y) => {
    const d = s(x, y);
    return Math.max(d, -d - width);
  };

const BAYER4 = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5] as const;

class Raster {
  /** Premultiplied RGBA, 0..1. */
  private readonly px: Float32Array;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.px = new Float32Array(width * height * 4);
  }

  /** Paints `paint` over the raster inside `shape` (anti-aliased), optionally restricted to a bounding box. */
  fill(shape: Shape, paint: Paint, opacity = 1, box?: readonly [number, number, number, number]): this {
    const [bx, by, bw, bh] = box ?? [0, 0, this.width, this.height];
    const x0 = Math.max(0, Math.floor(bx) - 2);
    const y0 = Math.max(0, Math.floor(by) - 2);
    const x1 = Math.min(this.width, Math.ceil(bx + bw) + 2);
    const y1 = Math.min(this.height, Math.ceil(by + bh) + 2);
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const cx = x + 0.5;
        const cy = y + 0.5;
        const coverage = Math.min(1, Math.max(0, 0.5 - shape(cx, cy)));
        if (coverage <= 0) continue;
        const c = typeof paint === 'function' ? paint(cx, cy) : paint;
        const a = c[3] * coverage * opacity;
        if (a <= 0) continue;
        const i = (y * this.width + x) * 4;
        const keep = 1 - a;
        this.px[i] = c[0] * a + (this.px[i] ?? 0) * keep;
        this.px[i + 1] = c[1] * a + (this.px[i + 1] ?? 0) * keep;
        this.px[i + 2] = c[2] * a + (this.px[i + 2] ?? 0) * keep;
        this.px[i + 3] = a + (this.px[i + 3] ?? 0) * keep;
      }
    }
    return this;
  }

  /** 8-bit straight RGBA, ordered-dithered so that gradients do not band. */
  toRgba8(dither = true): Buffer {
    const out = Buffer.alloc(this.width * this.height * 4);
    for (let y = 0; y < this.height; y++) {
      for (let x = 0; x < this.width; x++) {
        const i = (y * this.width + x) * 4;
        const a = this.px[i + 3] ?? 0;
        const offset = dither ? (BAYER4[(y % 4) * 4 + (x % 4)] ?? 0) / 16 : 0.5;
        for (let k = 0; k < 3; k++) {
          const v = a > 0 ? (this.px[i + k] ?? 0) / a : 0;
          out[i + k] = Math.min(255, Math.max(0, Math.floor(v * 255 + offset)));
        }
        out[i + 3] = Math.min(255, Math.max(0, Math.round(a * 255)));
      }
    }
    return out;
  }
}

async function savePng(raster: Raster, file: string, scratch: string, dither = true): Promise<void> {
  const raw = path.join(scratch, `${path.basename(file)}.rgba`);
  await writeFile(raw, raster.toRgba8(dither));
  await ffmpeg([
    '-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', `${raster.width}x${raster.height}`, '-i', raw,
    '-frames:v', '1', '-update', '1', '-fflags', '+bitexact', '-flags', '+bitexact', '-compression_level', '9', file,
  ]);
  await rm(raw);
}

// ---------------------------------------------------------------------------------------------------------------
// Artwork

/** The play triangle of the brand mark, for a mark of side `size` placed at (x, y) (favicon.svg: 64 units). */
function markTriangle(x: number, y: number, size: number): Shape {
  const k = size / 64;
  return polygon(
    [
      [x + 25 * k, y + 19 * k],
      [x + 47 * k, y + 32 * k],
      [x + 25 * k, y + 45 * k],
    ],
    2 * k,
  );
}

function drawMark(r: Raster, x: number, y: number, size: number, square: Paint, triangle: Paint): void {
  const box = [x, y, size, size] as const;
  r.fill(roundRect(x, y, size, size, (size * 14) / 64), square, 1, box);
  r.fill(markTriangle(x, y, size), triangle, 1, box);
}

function violetBackground(w: number, h: number): Raster {
  const r = new Raster(w, h);
  r.fill(everywhere, linearGradient(0, 0, w, h, rgba(C.violetBright), rgba('#5b21b6')));
  r.fill(everywhere, glow(w * 0.22, h * 0.05, w * 0.55, rgba('#ffffff', 0.16)));
  r.fill(everywhere, glow(w * 0.95, h * 1.05, w * 0.5, rgba(C.violetDeep, 0.7)));
  return r;
}

function darkBackground(w: number, h: number): Raster {
  const r = new Raster(w, h);
  r.fill(everywhere, rgba(C.ink));
  r.fill(everywhere, glow(w * 0.92, -h * 0.1, w * 0.5, rgba(C.violet, 0.3)));
  r.fill(everywhere, glow(w * 0.02, h * 1.1, w * 0.35, rgba(C.violet, 0.14)));
  return r;
}

/** A head-and-shoulders silhouette of height h, centred on cx, from y down; clipped to `clip`. */
function drawPerson(r: Raster, cx: number, y: number, h: number, color: Paint, clip: Shape): void {
  const person = union(circle(cx, y + h * 0.3, h * 0.19), ellipse(cx, y + h * 1.02, h * 0.66, h * 0.46));
  r.fill(intersect(person, clip), color, 1, [cx - h * 0.7, y, h * 1.4, h]);
}

/** A camera-like scene (soft lit background and a person), clipped to `clip`. */
function drawScene(r: Raster, x: number, y: number, w: number, h: number, clip: Shape): void {
  const box = [x, y, w, h] as const;
  r.fill(clip, linearGradient(x, y, x, y + h, rgba('#2c2342'), rgba('#141019')), 1, box);
  r.fill(clip, glow(x + w * 0.2, y + h * 0.1, Math.max(w, h) * 0.6, rgba('#6d5aa8', 0.45)), 1, box);
  const ph = Math.min(h * 0.62, w * 1.25);
  drawPerson(r, x + w / 2, y + h - ph, ph, linearGradient(0, y + h - ph, 0, y + h, rgba('#5d5083'), rgba('#40365c')), clip);
}

interface Sprites {
  bgViolet: string;
  bgDark: string;
  markWhite128: string;
  markWhite56: string;
  markViolet34: string;
  questionRow: string;
  badge: string;
  linkPanel: string;
  linkField: string;
  buttonViolet: string;
  buttonGreen: string;
  phone: string;
  recDot: string;
  playerIntro: string;
  playerAnswer: string;
  frameWide: string;
  frameTall: string;
}

const ROW = { w: 600, h: 76 };
const PANEL = { w: 600, h: 300 };
const FIELD = { w: 536, h: 64 };
const BUTTON = { w: 240, h: 56 };
const PHONE = { w: 260, h: 520 };
const PLAYER = { w: 768, h: 432 };
const WIDE = { w: 480, h: 270 };
const TALL = { w: 216, h: 384 };

async function renderSprites(dir: string): Promise<Sprites> {
  const file = (name: string): string => path.join(dir, `${name}.png`);
  const jobs: Promise<void>[] = [];
  const save = (raster: Raster, name: string): string => {
    jobs.push(savePng(raster, file(name), dir));
    return file(name);
  };

  const bgViolet = save(violetBackground(WIDTH, HEIGHT), 'bg-violet');
  const bgDark = save(darkBackground(WIDTH, HEIGHT), 'bg-dark');

  const markWhite = (size: number): Raster => {
    const r = new Raster(size, size);
    drawMark(r, 0, 0, size, rgba(C.white), rgba(C.violet));
    return r;
  };
  const markWhite128 = save(markWhite(128), 'mark-white-128');
  const markWhite56 = save(markWhite(56), 'mark-white-56');
  const mv = new Raster(34, 34);
  drawMark(mv, 0, 0, 34, rgba(C.violet), rgba(C.white));
  const markViolet34 = save(mv, 'mark-violet-34');

  const row = new Raster(ROW.w, ROW.h);
  row.fill(roundRect(0, 0, ROW.w, ROW.h, 16), rgba(C.surface));
  row.fill(outline(roundRect(0, 0, ROW.w, ROW.h, 16), 1.5), rgba(C.border));
  const questionRow = save(row, 'question-row');

  const badgeR = new Raster(40, 40);
  badgeR.fill(circle(20, 20, 20), rgba(C.violet));
  const badge = save(badgeR, 'badge');

  const panel = new Raster(PANEL.w, PANEL.h);
  panel.fill(roundRect(0, 0, PANEL.w, PANEL.h, 20), rgba(C.surface));
  panel.fill(outline(roundRect(0, 0, PANEL.w, PANEL.h, 20), 1.5), rgba(C.border));
  const linkPanel = save(panel, 'link-panel');

  const field = new Raster(FIELD.w, FIELD.h);
  field.fill(roundRect(0, 0, FIELD.w, FIELD.h, 12), rgba(C.ink));
  field.fill(outline(roundRect(0, 0, FIELD.w, FIELD.h, 12), 1.5), rgba(C.borderStrong));
  const linkField = save(field, 'link-field');

  const pill = (color: string): Raster =>
    new Raster(BUTTON.w, BUTTON.h).fill(roundRect(0, 0, BUTTON.w, BUTTON.h, BUTTON.h / 2), rgba(color));
  const buttonViolet = save(pill(C.violet), 'button-violet');
  const buttonGreen = save(pill(C.green), 'button-green');

  // Phone: light frame, dark screen with a camera scene, notch, record button.
  const ph = new Raster(PHONE.w, PHONE.h);
  const body = roundRect(0, 0, PHONE.w, PHONE.h, 44);
  ph.fill(body, rgba('#0b0a10'));
  ph.fill(outline(body, 7), linearGradient(0, 0, PHONE.w, PHONE.h, rgba('#e4e4e7'), rgba('#a1a1aa')));
  const screen = roundRect(13, 13, PHONE.w - 26, PHONE.h - 26, 32);
  drawScene(ph, 13, 13, PHONE.w - 26, PHONE.h - 26, screen);
  ph.fill(screen, linearGradient(0, 13, 0, 150, rgba('#000000', 0.55), rgba('#000000', 0)), 1, [13, 13, PHONE.w - 26, 140]);
  ph.fill(screen, linearGradient(0, 360, 0, PHONE.h - 13, rgba('#000000', 0), rgba('#000000', 0.6)), 1, [13, 360, PHONE.w - 26, 150]);
  ph.fill(roundRect(PHONE.w / 2 - 34, 22, 68, 18, 9), rgba('#0b0a10'));
  ph.fill(outline(circle(PHONE.w / 2, 455, 31), 4), rgba(C.white));
  ph.fill(circle(PHONE.w / 2, 455, 23), rgba(C.red));
  const phone = save(ph, 'phone');

  const dot = new Raster(14, 14).fill(circle(7, 7, 6), rgba(C.red));
  const recDot = save(dot, 'rec-dot');

  // The branded video player: the question intro card, and the customer's answer.
  const playerShape = roundRect(0, 0, PLAYER.w, PLAYER.h, 20);
  const intro = new Raster(PLAYER.w, PLAYER.h);
  intro.fill(playerShape, linearGradient(0, 0, PLAYER.w, PLAYER.h, rgba(C.violetBright), rgba('#5b21b6')));
  intro.fill(playerShape, glow(PLAYER.w * 0.2, 0, PLAYER.w * 0.6, rgba('#ffffff', 0.14)));
  intro.fill(roundRect(24, 24, 156, 40, 20), rgba('#ffffff', 0.16));
  const playerIntro = save(intro, 'player-intro');

  const answer = new Raster(PLAYER.w, PLAYER.h);
  drawScene(answer, 0, 0, PLAYER.w, PLAYER.h, playerShape);
  answer.fill(roundRect(24, 24, 156, 40, 20), rgba(C.violet, 0.9));
  answer.fill(roundRect(24, PLAYER.h - 14, PLAYER.w - 48, 4, 2), rgba('#ffffff', 0.25));
  answer.fill(roundRect(24, PLAYER.h - 14, (PLAYER.w - 48) * 0.42, 4, 2), rgba(C.violet400));
  const playerAnswer = save(answer, 'player-answer');

  // 16:9 and 9:16 outlined frames, each with a mini scene and subtitle bars.
  const frame = (w: number, h: number, name: string): string => {
    const r = new Raster(w, h);
    const s = roundRect(0, 0, w, h, 16);
    drawScene(r, 0, 0, w, h, s);
    const barW = Math.min(w * 0.7, 260);
    r.fill(roundRect((w - barW) / 2, h - 58, barW, 12, 6), rgba('#ffffff', 0.9));
    r.fill(roundRect((w - barW * 0.6) / 2, h - 38, barW * 0.6, 12, 6), rgba('#ffffff', 0.9));
    r.fill(outline(s, 3), rgba(C.violet400));
    return save(r, name);
  };
  const frameWide = frame(WIDE.w, WIDE.h, 'frame-wide');
  const frameTall = frame(TALL.w, TALL.h, 'frame-tall');

  await Promise.all(jobs);
  return {
    bgViolet, bgDark, markWhite128, markWhite56, markViolet34, questionRow, badge, linkPanel, linkField,
    buttonViolet, buttonGreen, phone, recDot, playerIntro, playerAnswer, frameWide, frameTall,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Cards: a background image plus timed layers of images and text, built into one ffmpeg filter graph.

interface TextLayer {
  kind: 'text';
  text: string;
  size: number;
  color: string;
  /** Left edge, or the horizontal centre of the text ('center' = the frame's). */
  x: number | 'center' | { centerAt: number };
  baseline: number;
  bold?: boolean;
  /** Local time (s) the fade-in starts; default 0. */
  start?: number;
  /** Local time (s) the text is gone (faded out); default never. */
  end?: number;
  /** Fade length; 0 switches the text on and off sharply. Default 0.5. */
  fade?: number;
  /** Upward slide during the fade-in, in pixels; default 14. */
  slide?: number;
  box?: { color: string; opacity: number; pad: number };
}

interface ImageLayer {
  kind: 'image';
  file: string;
  x: number;
  y: number;
  start?: number;
  end?: number;
  fade?: number;
  slide?: number;
  blink?: boolean;
}

type Layer = TextLayer | ImageLayer;

interface Card {
  background: string;
  layers: Layer[];
}

function hexColor(color: string): string {
  return `0x${color.slice(1)}`;
}

/** Ease-out progress (0..1) of a fade that starts at `start` and lasts `fade` seconds. */
function easeExpr(start: number, fade: number): string {
  return `(1-pow(1-clip((t-${fmt(start)})/${fmt(fade)},0,1),3))`;
}

function alphaExpr(start: number, end: number | undefined, fade: number): string {
  const fadeIn = `clip((t-${fmt(start)})/${fmt(fade)},0,1)`;
  if (end === undefined) return fadeIn;
  return `min(${fadeIn},clip((${fmt(end)}-t)/${fmt(fade)},0,1))`;
}

function enableExpr(start: number, end: number | undefined): string {
  return end === undefined ? `gte(t,${fmt(start)})` : `between(t,${fmt(start)},${fmt(end)})`;
}

class GraphBuilder {
  readonly inputs: string[] = [];
  private inputCount = 0;
  readonly chains: string[] = [];
  private labelCount = 0;
  private readonly texts = new Map<string, string>();

  /** `name` keeps this graph's text files apart from other graphs' in the scratch directory. */
  constructor(
    private readonly name: string,
    private readonly fontFile: string,
    private readonly scratch: string,
  ) {}

  private label(prefix: string): string {
    this.labelCount += 1;
    return `${prefix}${this.labelCount}`;
  }

  /** An image input held for `frameCount` frames at FPS; returns its stream label. */
  private still(file: string, frameCount: number, extra: string[] = []): string {
    this.inputs.push('-i', file);
    const index = this.inputCount++;
    const out = this.label('s');
    const filters = [`loop=loop=${frameCount - 1}:size=1:start=0`, `settb=1/${FPS}`, 'setpts=N', ...extra];
    this.chains.push(`[${index}:v]${filters.join(',')}[${out}]`);
    return out;
  }

  private textFile(text: string): string {
    let file = this.texts.get(text);
    if (!file) {
      file = path.join(this.scratch, `text-${this.name}-${this.texts.size}.txt`);
      this.texts.set(text, file);
    }
    return file;
  }

  async writeTexts(): Promise<void> {
    await Promise.all([...this.texts].map(([text, file]) => writeFile(file, text, 'utf8')));
  }

  private drawtext(layer: TextLayer): string {
    const start = layer.start ?? 0;
    const fade = layer.fade ?? 0.5;
    const slide = layer.slide ?? 14;
    const x =
      layer.x === 'center' ? '(w-text_w)/2' : typeof layer.x === 'number' ? fmt(layer.x) : `${fmt(layer.x.centerAt)}-text_w/2`;
    const yOffset = fade > 0 && slide !== 0 ? `+${fmt(slide)}*(1-${easeExpr(start, fade)})` : '';
    const options = [
      `fontfile=${this.fontFile}`,
      `textfile=${this.textFile(layer.text)}`,
      'expansion=none',
      `fontsize=${fmt(layer.size)}`,
      `fontcolor=${hexColor(layer.color)}`,
      `x='${x}'`,
      `y='${fmt(layer.baseline)}-ascent${yOffset}'`,
    ];
    if (fade > 0) options.push(`alpha='${alphaExpr(start, layer.end, fade)}'`);
    else options.push(`enable='${enableExpr(start, layer.end)}'`);
    // Inter ships here as a variable font that FreeType opens at its default weight (400): a stroke of the
    // text's own colour makes it bold; small text gets a half-transparent hairline, a semi-bold.
    if (layer.bold) {
      const stroke = layer.size >= 110 ? 3 : layer.size >= 56 ? 2 : 1;
      const opacity = layer.size >= 36 ? 1 : 0.45;
      options.push(`borderw=${stroke}`, `bordercolor=${hexColor(layer.color)}@${fmt(opacity)}`);
    }
    if (layer.box) {
      options.push('box=1', `boxcolor=${hexColor(layer.box.color)}@${fmt(layer.box.opacity)}`, `boxborderw=${layer.box.pad}`);
    }
    return `drawtext=${options.join(':')}`;
  }

  /** Builds one card of `frameCount` frames; returns the label of its stream (planar RGB, gbrp). */
  card(card: Card, frameCount: number): string {
    let current = this.still(card.background, frameCount, ['format=gbrp']);
    let pending: string[] = [];
    const flush = (): void => {
      if (pending.length === 0) return;
      const out = this.label('c');
      this.chains.push(`[${current}]${pending.join(',')}[${out}]`);
      current = out;
      pending = [];
    };
    for (const layer of card.layers) {
      if (layer.kind === 'text') {
        pending.push(this.drawtext(layer));
        continue;
      }
      flush();
      const start = layer.start ?? 0;
      const fade = layer.fade ?? 0.5;
      const slide = layer.slide ?? 20;
      const extra = ['format=rgba'];
      if (fade > 0) {
        extra.push(`fade=t=in:st=${fmt(start)}:d=${fmt(fade)}:alpha=1`);
        if (layer.end !== undefined) extra.push(`fade=t=out:st=${fmt(layer.end - fade)}:d=${fmt(fade)}:alpha=1`);
      }
      const sprite = this.still(layer.file, frameCount, extra);
      const y = fade > 0 && slide !== 0 ? `${fmt(layer.y)}+${fmt(slide)}*(1-${easeExpr(start, fade)})` : fmt(layer.y);
      const options = [`x=${fmt(layer.x)}`, `y='${y}'`, 'eval=frame', 'format=gbrp'];
      if (layer.blink) options.push(`enable='lt(mod(t,1),0.6)'`);
      else if (fade === 0) options.push(`enable='${enableExpr(start, layer.end)}'`);
      const out = this.label('c');
      this.chains.push(`[${current}][${sprite}]overlay=${options.join(':')}[${out}]`);
      current = out;
    }
    flush();
    return current;
  }

  /** Cross-fades cards of the given frame counts; returns the label of the whole video stream. */
  sequence(labels: readonly string[], frameCounts: readonly number[]): string {
    let current = at(labels, 0);
    let elapsed = at(frameCounts, 0) / FPS;
    for (let i = 1; i < labels.length; i++) {
      const out = this.label('x');
      const offset = elapsed - XFADE;
      this.chains.push(`[${current}][${at(labels, i)}]xfade=transition=fade:duration=${fmt(XFADE)}:offset=${fmt(offset)}[${out}]`);
      current = out;
      elapsed = offset + at(frameCounts, i) / FPS;
    }
    return current;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Content

interface Copy {
  code: 'en' | 'fr';
  tagline: string;
  taglineSize: number;
  steps: readonly [string, string, string];
  write: { title: readonly [string, string]; sub: string; questions: readonly [string, string, string] };
  send: { title: readonly [string, string]; sub: string; panelLabel: string; link: string; copy: string; copied: string };
  record: { title: readonly [string, string]; titleSize: number; sub: string; question: readonly [string, string]; rec: string };
  branded: {
    eyebrow: string;
    title: string;
    brand: string;
    questionLabel: string;
    question: readonly [string, string];
    subtitle: string;
  };
  formats: { eyebrow: string; title: string; sub: string };
  cta: { title: string; titleSize: number; sub: string };
  /** One line per card. */
  narration: readonly [string, string, string, string, string, string, string];
  /** Shortest on-screen time of each card, in seconds (narration may make a card longer). */
  minDurations: readonly [number, number, number, number, number, number, number];
}

const NBSP = '\u00a0';

const COPY: Record<'en' | 'fr', Copy> = {
  en: {
    code: 'en',
    tagline: 'Video testimonials your customers actually record',
    taglineSize: 40,
    steps: ['STEP 1', 'STEP 2', 'STEP 3'],
    write: {
      title: ['Write your', 'questions'],
      sub: 'One short answer per question.',
      questions: ['What problem did we solve for you?', 'How was working with us?', 'Would you recommend us?'],
    },
    send: {
      title: ['Send a', 'private link'],
      sub: 'One personal link per customer.',
      panelLabel: 'Private link for Claire Martin',
      link: '…/testimonial/k7Qm2xR9',
      copy: 'Copy link',
      copied: 'Link copied',
    },
    record: {
      title: ['Your customer records', 'from their phone'],
      titleSize: 56,
      sub: 'No account — they just open the link.',
      question: ['How was working', 'with us?'],
      rec: 'REC',
    },
    branded: {
      eyebrow: 'WHAT YOU GET',
      title: 'Every answer becomes a branded video',
      brand: 'ACME Studio',
      questionLabel: 'Question 2 of 3',
      question: ['How was working', 'with us?'],
      subtitle: '“Honestly, the easiest project we had all year.”',
    },
    formats: {
      eyebrow: 'READY TO SHARE',
      title: 'Vertical 9:16 and 16:9 for social',
      sub: 'Reels, Shorts, TikTok, LinkedIn, your website',
    },
    cta: { title: 'Start free', titleSize: 104, sub: 'from €6 per video' },
    narration: [
      'Vouchreel. Video testimonials your customers actually record.',
      'Write your questions.',
      'Send a private link.',
      'Your customer records from their phone. No account needed.',
      'Each answer becomes a branded video, with subtitles.',
      'In vertical and landscape formats, for social media.',
      'Start free, from six euros per video.',
    ],
    minDurations: [4.2, 3.4, 3.6, 4.4, 5.6, 4, 4],
  },
  fr: {
    code: 'fr',
    tagline: 'Des témoignages vidéo que vos clients enregistrent vraiment',
    taglineSize: 36,
    steps: ['ÉTAPE 1', 'ÉTAPE 2', 'ÉTAPE 3'],
    write: {
      title: ['Écrivez vos', 'questions'],
      sub: 'Une réponse courte par question.',
      questions: [
        `Quel problème avons-nous résolu${NBSP}?`,
        `Comment s’est passée la collaboration${NBSP}?`,
        `Nous recommanderiez-vous${NBSP}?`,
      ],
    },
    send: {
      title: ['Envoyez un', 'lien privé'],
      sub: 'Un lien personnel par client.',
      panelLabel: 'Lien privé pour Claire Martin',
      link: '…/testimonial/k7Qm2xR9',
      copy: 'Copier le lien',
      copied: 'Lien copié',
    },
    record: {
      title: ['Votre client enregistre', 'depuis son téléphone'],
      titleSize: 54,
      sub: 'Sans compte — il lui suffit d’ouvrir le lien.',
      question: ['Comment s’est passée', `la collaboration${NBSP}?`],
      rec: 'REC',
    },
    branded: {
      eyebrow: 'LE RÉSULTAT',
      title: 'Chaque réponse devient une vidéo à vos couleurs',
      brand: 'ACME Studio',
      questionLabel: 'Question 2 sur 3',
      question: ['Comment s’est passée', `la collaboration${NBSP}?`],
      subtitle: `«${NBSP}Franchement, le projet le plus simple de l’année.${NBSP}»`,
    },
    formats: {
      eyebrow: 'PRÊT À PARTAGER',
      title: 'Vertical 9:16 et 16:9 pour les réseaux',
      sub: 'Reels, Shorts, TikTok, LinkedIn, votre site',
    },
    cta: { title: 'Commencez gratuitement', titleSize: 80, sub: `à partir de 6${NBSP}€ par vidéo` },
    narration: [
      // Spelled for the French voice, which otherwise reads the brand as English "vowk-reel".
      'Vaoutch-rile. Des témoignages vidéo que vos clients enregistrent vraiment.',
      'Écrivez vos questions.',
      'Envoyez un lien privé.',
      'Votre client enregistre depuis son téléphone, sans compte.',
      'Chaque réponse devient une vidéo à vos couleurs, sous-titrée.',
      'En vertical et en horizontal, pour les réseaux sociaux.',
      'Commencez gratuitement, à partir de six euros par vidéo.',
    ],
    minDurations: [4.2, 3.4, 3.6, 4.4, 5.6, 4, 4],
  },
};

function watermark(s: Sprites): Layer[] {
  return [
    { kind: 'image', file: s.markViolet34, x: 64, y: 648, fade: 0 },
    { kind: 'text', text: 'Vouchreel', size: 22, color: C.light, x: 108, baseline: 673, fade: 0, bold: true },
  ];
}

/** The left-hand column shared by the three step cards. */
function stepText(eyebrow: string, title: readonly [string, string], titleSize: number, sub: string): Layer[] {
  return [
    { kind: 'text', text: eyebrow, size: 22, color: C.violet400, x: 96, baseline: 252, bold: true, start: 0.25 },
    { kind: 'text', text: title[0], size: titleSize, color: C.white, x: 96, baseline: 332, bold: true, start: 0.35 },
    { kind: 'text', text: title[1], size: titleSize, color: C.white, x: 96, baseline: 332 + titleSize * 1.2, bold: true, start: 0.45 },
    { kind: 'text', text: sub, size: 26, color: C.muted, x: 96, baseline: 332 + titleSize * 1.2 + 66, start: 0.7 },
  ];
}

function buildCards(copy: Copy, s: Sprites): Card[] {
  const cards: Card[] = [];

  // 1. Brand and tagline.
  cards.push({
    background: s.bgViolet,
    layers: [
      { kind: 'image', file: s.markWhite128, x: (WIDTH - 128) / 2, y: 150, start: 0.15, fade: 0.7 },
      { kind: 'text', text: 'Vouchreel', size: 120, color: C.white, x: 'center', baseline: 440, bold: true, start: 0.4, fade: 0.7, slide: 18 },
      { kind: 'text', text: copy.tagline, size: copy.taglineSize, color: C.violet100, x: 'center', baseline: 515, start: 0.85, fade: 0.7 },
    ],
  });

  // 2. Write your questions.
  const rowX = 620;
  const rowY = [212, 312, 412] as const;
  const questionLayers: Layer[] = [];
  copy.write.questions.forEach((question, i) => {
    const y = at(rowY, i);
    const start = 0.7 + i * 0.35;
    questionLayers.push(
      { kind: 'image', file: s.questionRow, x: rowX, y, start, slide: 18 },
      { kind: 'image', file: s.badge, x: rowX + 18, y: y + 18, start, slide: 18 },
      { kind: 'text', text: String(i + 1), size: 20, color: C.white, x: { centerAt: rowX + 38 }, baseline: y + 45, bold: true, start, slide: 18 },
      { kind: 'text', text: question, size: 23, color: C.white, x: rowX + 76, baseline: y + 46, start, slide: 18 },
    );
  });
  cards.push({
    background: s.bgDark,
    layers: [...stepText(copy.steps[0], copy.write.title, 64, copy.write.sub), ...questionLayers, ...watermark(s)],
  });

  // 3. Send a private link.
  const px = 620;
  const py = 210;
  const copiedAt = 2.1;
  cards.push({
    background: s.bgDark,
    layers: [
      ...stepText(copy.steps[1], copy.send.title, 64, copy.send.sub),
      { kind: 'image', file: s.linkPanel, x: px, y: py, start: 0.6 },
      { kind: 'text', text: copy.send.panelLabel, size: 22, color: C.muted, x: px + 32, baseline: py + 56, start: 0.8 },
      { kind: 'image', file: s.linkField, x: px + 32, y: py + 82, start: 0.8 },
      { kind: 'text', text: copy.send.link, size: 24, color: C.white, x: px + 54, baseline: py + 82 + 41, start: 0.95 },
      { kind: 'image', file: s.buttonViolet, x: px + 32, y: py + 186, start: 1.1, end: copiedAt + 0.25, fade: 0.4 },
      { kind: 'text', text: copy.send.copy, size: 21, color: C.white, x: { centerAt: px + 32 + BUTTON.w / 2 }, baseline: py + 186 + 35, bold: true, start: 1.1, end: copiedAt + 0.25, fade: 0.4 },
      { kind: 'image', file: s.buttonGreen, x: px + 32, y: py + 186, start: copiedAt, fade: 0.25, slide: 0 },
      { kind: 'text', text: copy.send.copied, size: 21, color: C.white, x: { centerAt: px + 32 + BUTTON.w / 2 }, baseline: py + 186 + 35, bold: true, start: copiedAt + 0.1, fade: 0.25, slide: 0 },
      ...watermark(s),
    ],
  });

  // 4. The customer records from their phone.
  const phx = 880;
  const phy = 100;
  const phoneCentre = phx + PHONE.w / 2;
  const timer: Layer[] = [];
  for (let sec = 0; sec < 8; sec++) {
    timer.push({
      kind: 'text',
      text: `${copy.record.rec}  0:0${sec}`,
      size: 17,
      color: C.white,
      x: phx + 126 - 40,
      baseline: phy + 398,
      bold: true,
      start: 1.2 + sec,
      end: 1.2 + sec + 1,
      fade: 0,
    });
  }
  cards.push({
    background: s.bgDark,
    layers: [
      ...stepText(copy.steps[2], copy.record.title, copy.record.titleSize, copy.record.sub),
      { kind: 'image', file: s.phone, x: phx, y: phy, start: 0.5, fade: 0.7, slide: 30 },
      { kind: 'text', text: copy.record.question[0], size: 19, color: C.white, x: { centerAt: phoneCentre }, baseline: phy + 80, bold: true, start: 0.9 },
      { kind: 'text', text: copy.record.question[1], size: 19, color: C.white, x: { centerAt: phoneCentre }, baseline: phy + 105, bold: true, start: 0.9 },
      { kind: 'image', file: s.recDot, x: phx + 126 - 62, y: phy + 385, start: 1.2, fade: 0, blink: true },
      ...timer,
      ...watermark(s),
    ],
  });

  // 5. The branded video: question intro card, then the answer with a subtitle.
  const vx = (WIDTH - PLAYER.w) / 2;
  const vy = 182;
  const introEnd = 2.6;
  const introText = (text: string, size: number, color: string, baseline: number, bold: boolean, start: number): TextLayer => ({
    kind: 'text', text, size, color, x: 'center', baseline, bold, start, end: introEnd, fade: 0.4,
  });
  cards.push({
    background: s.bgDark,
    layers: [
      { kind: 'text', text: copy.branded.eyebrow, size: 22, color: C.violet400, x: 'center', baseline: 92, bold: true, start: 0.2 },
      { kind: 'text', text: copy.branded.title, size: 44, color: C.white, x: 'center', baseline: 145, bold: true, start: 0.3 },
      { kind: 'image', file: s.playerAnswer, x: vx, y: vy, start: 0.45, fade: 0.6, slide: 24 },
      { kind: 'text', text: copy.branded.brand, size: 19, color: C.white, x: { centerAt: vx + 24 + 78 }, baseline: vy + 51, bold: true, start: 0.45, fade: 0.6, slide: 24 },
      { kind: 'image', file: s.playerIntro, x: vx, y: vy, start: 0.45, end: introEnd, fade: 0.6, slide: 24 },
      { ...introText(copy.branded.brand, 19, C.white, vy + 51, true, 0.45), x: { centerAt: vx + 24 + 78 } },
      introText(copy.branded.questionLabel, 22, C.violet100, vy + 160, false, 0.8),
      introText(copy.branded.question[0], 46, C.white, vy + 230, true, 0.95),
      introText(copy.branded.question[1], 46, C.white, vy + 288, true, 1.05),
      {
        kind: 'text', text: copy.branded.subtitle, size: 26, color: C.white, x: 'center', baseline: vy + PLAYER.h - 48,
        start: introEnd + 0.2, fade: 0.3, slide: 0, box: { color: '#000000', opacity: 0.6, pad: 12 },
      },
      ...watermark(s),
    ],
  });

  // 6. Formats: 16:9 and 9:16 frames.
  const gap = 72;
  const fx = (WIDTH - WIDE.w - gap - TALL.w) / 2;
  const tallY = 244;
  const wideY = tallY + (TALL.h - WIDE.h) / 2;
  const tallX = fx + WIDE.w + gap;
  const chip = (text: string, x: number, y: number, start: number): Layer => ({
    kind: 'text', text, size: 20, color: C.white, x, baseline: y, bold: true, start, box: { color: C.violet, opacity: 1, pad: 8 }, slide: 20,
  });
  cards.push({
    background: s.bgDark,
    layers: [
      { kind: 'text', text: copy.formats.eyebrow, size: 22, color: C.violet400, x: 'center', baseline: 100, bold: true, start: 0.2 },
      { kind: 'text', text: copy.formats.title, size: 52, color: C.white, x: 'center', baseline: 160, bold: true, start: 0.3 },
      { kind: 'text', text: copy.formats.sub, size: 26, color: C.muted, x: 'center', baseline: 206, start: 0.5 },
      { kind: 'image', file: s.frameWide, x: fx, y: wideY, start: 0.5 },
      chip('16:9', fx + 24, wideY + 40, 0.5),
      { kind: 'image', file: s.frameTall, x: tallX, y: tallY, start: 0.75 },
      chip('9:16', tallX + 24, tallY + 40, 0.75),
      ...watermark(s),
    ],
  });

  // 7. Call to action.
  const ctaGroup = 56 + 18 + 40 * 4.85;
  cards.push({
    background: s.bgViolet,
    layers: [
      // Mark and wordmark side by side, centred as a group ("Vouchreel" in bold Inter is ~4.85 em wide).
      { kind: 'image', file: s.markWhite56, x: (WIDTH - ctaGroup) / 2, y: 214, start: 0.2, fade: 0.6 },
      { kind: 'text', text: 'Vouchreel', size: 40, color: C.white, x: (WIDTH - ctaGroup) / 2 + 56 + 18, baseline: 256, bold: true, start: 0.2, fade: 0.6 },
      { kind: 'text', text: copy.cta.title, size: copy.cta.titleSize, color: C.white, x: 'center', baseline: 424, bold: true, start: 0.35, fade: 0.6, slide: 18 },
      { kind: 'text', text: copy.cta.sub, size: 44, color: C.violet100, x: 'center', baseline: 504, start: 0.7, fade: 0.6 },
    ],
  });

  return cards;
}

// ---------------------------------------------------------------------------------------------------------------
// Audio

type Voice = 'flite' | 'espeak-ng';

async function detectVoice(code: 'en' | 'fr'): Promise<Voice | null> {
  if (code === 'en') {
    const flite = await commandWorks('flite', ['-lv']);
    return flite && /\bslt\b/.test(flite.stdout + flite.stderr) ? 'flite' : null;
  }
  const espeak = await commandWorks('espeak-ng', ['--voices=fr']);
  return espeak && /\sfr(-fr)?\s/.test(espeak.stdout) ? 'espeak-ng' : null;
}

/** Length in seconds of a 16-bit PCM WAV file written by ffmpeg. */
async function wavDuration(file: string): Promise<number> {
  const data = await readFile(file);
  let offset = 12;
  let byteRate = 0;
  while (offset + 8 <= data.length) {
    const id = data.toString('latin1', offset, offset + 4);
    const size = data.readUInt32LE(offset + 4);
    if (id === 'fmt ') byteRate = data.readUInt32LE(offset + 16);
    if (id === 'data') {
      if (byteRate === 0) break;
      return Math.min(size, data.length - offset - 8) / byteRate;
    }
    offset += 8 + size + (size % 2);
  }
  throw new Error(`cannot read the length of ${file}`);
}

/** Speaks each narration line into a 48 kHz mono WAV, silences trimmed; returns their files and lengths. */
async function synthesize(copy: Copy, voice: Voice, scratch: string): Promise<{ file: string; duration: number }[]> {
  return Promise.all(
    copy.narration.map(async (line, i) => {
      const raw = path.join(scratch, `voice-${copy.code}-${i}-raw.wav`);
      const file = path.join(scratch, `voice-${copy.code}-${i}.wav`);
      if (voice === 'flite') await run('flite', ['-voice', 'slt', '-t', line, '-o', raw]);
      else await run('espeak-ng', ['-v', 'fr', '-s', '148', '-p', '42', '-w', raw, line]);
      await ffmpeg([
        '-i', raw,
        '-af', `highpass=f=80,aresample=${AUDIO_RATE},silenceremove=start_periods=1:start_threshold=-60dB,areverse,silenceremove=start_periods=1:start_threshold=-60dB,areverse,aformat=sample_fmts=s16`,
        '-fflags', '+bitexact', '-flags', '+bitexact', file,
      ]);
      return { file, duration: await wavDuration(file) };
    }),
  );
}

interface LoudnessStats {
  input_i: string;
  input_tp: string;
  input_lra: string;
  input_thresh: string;
  target_offset: string;
}

function parseLoudness(stderr: string): LoudnessStats {
  const json = stderr.slice(stderr.lastIndexOf('{'), stderr.lastIndexOf('}') + 1);
  const parsed: unknown = JSON.parse(json);
  if (typeof parsed !== 'object' || parsed === null) throw new Error('loudnorm printed no statistics');
  const get = (key: keyof LoudnessStats): string => {
    const value: unknown = (parsed as Record<string, unknown>)[key];
    if (typeof value !== 'string' || !Number.isFinite(Number(value))) throw new Error(`loudnorm: bad ${key}`);
    return value;
  };
  return {
    input_i: get('input_i'),
    input_tp: get('input_tp'),
    input_lra: get('input_lra'),
    input_thresh: get('input_thresh'),
    target_offset: get('target_offset'),
  };
}

/** Places the narration lines at their start times and normalises the mono result (two-pass loudnorm). */
async function voiceTrack(
  clips: readonly { file: string; duration: number }[],
  starts: readonly number[],
  total: number,
  out: string,
  scratch: string,
): Promise<void> {
  const placed = path.join(scratch, `${path.basename(out, '.wav')}-placed.wav`);
  const inputs = clips.flatMap((clip) => ['-i', clip.file]);
  const delays = clips.map((_, i) => {
    const ms = Math.round(at(starts, i) * 1000);
    return `[${i}:a]adelay=delays=${ms}[d${i}]`;
  });
  const mixIn = clips.map((_, i) => `[d${i}]`).join('');
  await ffmpeg([
    ...inputs,
    '-filter_complex',
    `${delays.join(';')};${mixIn}amix=inputs=${clips.length}:normalize=0:duration=longest,apad=whole_dur=${fmt(total)},atrim=duration=${fmt(total)}[a]`,
    '-map', '[a]', '-c:a', 'pcm_s16le', '-fflags', '+bitexact', '-flags', '+bitexact', placed,
  ]);
  // Mono at -19 LUFS becomes -16 LUFS once copied to both stereo channels.
  const target = 'I=-19:TP=-3:LRA=11';
  const measure = await ffmpeg(['-loglevel', 'info', '-i', placed, '-af', `loudnorm=${target}:print_format=json`, '-f', 'null', '-']);
  const m = parseLoudness(measure.stderr);
  await ffmpeg([
    '-i', placed,
    '-af',
    `loudnorm=${target}:measured_I=${m.input_i}:measured_TP=${m.input_tp}:measured_LRA=${m.input_lra}:measured_thresh=${m.input_thresh}:offset=${m.target_offset}:linear=true,aformat=sample_fmts=s16:sample_rates=${AUDIO_RATE}:channel_layouts=mono`,
    '-c:a', 'pcm_s16le', '-fflags', '+bitexact', '-flags', '+bitexact', out,
  ]);
}

/** A soft, slowly breathing A-major-9 pad (sines, slightly detuned left/right), `gain` in dB. */
function padSource(total: number, gain: number): string {
  const notes = [110, 164.81, 220, 246.94, 277.18, 329.63];
  const weights = [1, 0.7, 0.55, 0.3, 0.4, 0.25];
  const channel = (detune: number, phase: number): string =>
    notes
      .map((f, i) => `${fmt(at(weights, i))}*sin(2*PI*${fmt(f * (1 + detune * (i % 2 === 0 ? 1 : -1)))}*t+${fmt(phase * i)})`)
      .join('+');
  const breathe = `(0.8+0.2*sin(2*PI*0.11*t))`;
  const scale = 0.12;
  const left = `${fmt(scale)}*${breathe}*(${channel(0.0015, 0.7)})`;
  const right = `${fmt(scale)}*${breathe}*(${channel(-0.0015, 1.3)})`;
  return (
    `aevalsrc=exprs='${left}|${right}':s=${AUDIO_RATE}:d=${fmt(total)},` +
    `lowpass=f=900,afade=t=in:d=2,afade=t=out:st=${fmt(Math.max(0, total - 2))}:d=2,volume=${gain}dB`
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Renders

const BITEXACT = ['-fflags', '+bitexact', '-flags:v', '+bitexact', '-flags:a', '+bitexact', '-map_metadata', '-1'];

interface Timeline {
  frameCounts: number[];
  starts: number[];
  total: number;
}

function timeline(copy: Copy, voiceDurations: readonly number[] | null, lastHold: number): Timeline {
  const frameCounts = copy.minDurations.map((min, i) => {
    const voice = voiceDurations ? at(voiceDurations, i) : 0;
    const isLast = i === copy.minDurations.length - 1;
    const needed = VOICE_LEAD + voice + (isLast ? lastHold : VOICE_TAIL + XFADE);
    return frames(Math.max(min, needed));
  });
  const starts: number[] = [];
  let t = 0;
  frameCounts.forEach((count, i) => {
    starts.push(t);
    t += count / FPS - (i < frameCounts.length - 1 ? XFADE : 0);
  });
  return { frameCounts, starts, total: t };
}

async function renderVideo(copy: Copy, sprites: Sprites, fontFile: string, scratch: string): Promise<{ voice: Voice | null }> {
  const voice = await detectVoice(copy.code);
  const clips = voice ? await synthesize(copy, voice, scratch) : null;
  const plan = timeline(copy, clips ? clips.map((c) => c.duration) : null, 1.6);
  const cards = buildCards(copy, sprites);

  const voiceFile = path.join(scratch, `voice-${copy.code}.wav`);
  if (clips) {
    await voiceTrack(
      clips,
      plan.starts.map((s) => s + VOICE_LEAD),
      plan.total,
      voiceFile,
      scratch,
    );
  }

  const graph = new GraphBuilder(`video-${copy.code}`, fontFile, scratch);
  const labels = cards.map((card, i) => graph.card(card, at(plan.frameCounts, i)));
  const video = graph.sequence(labels, plan.frameCounts);
  // One conversion from RGB to video YUV, with the BT.709 matrix the file is tagged with.
  graph.chains.push(`[${video}]scale=out_color_matrix=bt709:out_range=tv,format=yuv420p[vout]`);
  // The pad sits ~20 LU under the voice (-16 LUFS); alone (no speech synthesiser) it is the soundtrack, ~-24 LUFS.
  graph.chains.push(`${padSource(plan.total, clips ? -18 : -6)}[pad]`);
  const audioInputs: string[] = [];
  if (clips) {
    const voiceIndex = graph.inputs.filter((a) => a === '-i').length;
    audioInputs.push('-i', voiceFile);
    graph.chains.push(`[${voiceIndex}:a]pan=stereo|c0=c0|c1=c0[voice]`, `[voice][pad]amix=inputs=2:normalize=0:duration=first,alimiter=limit=0.8:level=disabled[aout]`);
  } else {
    graph.chains.push(`[pad]alimiter=limit=0.8:level=disabled[aout]`);
  }
  await graph.writeTexts();
  const script = path.join(scratch, `graph-${copy.code}.txt`);
  await writeFile(script, graph.chains.join(';\n'), 'utf8');

  const out = path.join(MEDIA_DIR, `demo-${copy.code}.mp4`);
  await ffmpeg([
    ...graph.inputs,
    ...audioInputs,
    '-filter_complex_script', script,
    '-map', '[vout]', '-map', '[aout]',
    '-c:v', 'libx264', '-preset', 'slow', '-crf', '28', '-pix_fmt', 'yuv420p',
    // Auto-variance AQ with a dark bias keeps the dark gradients from turning into blocks.
    '-x264-params', 'aq-mode=3',
    '-profile:v', 'high', '-g', String(FPS * 4), '-r', String(FPS),
    '-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', '-color_range', 'tv',
    '-c:a', 'aac', '-b:a', '96k', '-ar', String(AUDIO_RATE), '-ac', '2',
    '-t', fmt(plan.total),
    '-movflags', '+faststart', ...BITEXACT, out,
  ]);

  await renderPoster(copy, cards, fontFile, scratch);
  return { voice };
}

/**
 * The widths of each poster's WebP files (demo-{lang}-{width}.webp), for the landing page's `srcset`
 * (src/web/features/landing/demo-media.ts lists the same): a phone's thumbnail, a phone's hero at
 * 1.75–3× and the desktop hero.
 */
const POSTER_WIDTHS = [320, 640, 960, 1280] as const;

/**
 * Posters: the first card, once its animation has settled, rendered once losslessly, then written as
 * the 1280×720 JPEG (the video's own poster) and as WebP at each of POSTER_WIDTHS (each from the
 * lossless frame, so none is compressed twice).
 */
async function renderPoster(copy: Copy, cards: readonly Card[], fontFile: string, scratch: string): Promise<void> {
  const posterGraph = new GraphBuilder(`poster-${copy.code}`, fontFile, scratch);
  const first = at(cards, 0);
  const posterFrames = frames(2.5);
  const posterLabel = posterGraph.card(first, posterFrames);
  posterGraph.chains.push(`[${posterLabel}]trim=start_frame=${posterFrames - 1},format=rgb24[p]`);
  await posterGraph.writeTexts();
  const frame = path.join(scratch, `poster-${copy.code}.png`);
  await ffmpeg([
    ...posterGraph.inputs,
    '-filter_complex', posterGraph.chains.join(';'),
    '-map', '[p]', '-frames:v', '1', '-update', '1', ...BITEXACT, frame,
  ]);
  await ffmpeg([
    '-i', frame, '-vf', 'format=yuvj420p', '-frames:v', '1', '-update', '1', '-q:v', '3', ...BITEXACT,
    path.join(MEDIA_DIR, `demo-${copy.code}.jpg`),
  ]);
  for (const width of POSTER_WIDTHS) {
    await ffmpeg([
      '-i', frame,
      '-vf', `scale=${width}:-2:flags=lanczos`,
      '-c:v', 'libwebp', '-quality', '78', '-compression_level', '6', '-preset', 'picture',
      '-frames:v', '1', '-update', '1', ...BITEXACT,
      path.join(MEDIA_DIR, `demo-${copy.code}-${width}.webp`),
    ]);
  }
}

async function renderOgImage(fontFile: string, scratch: string): Promise<void> {
  const w = 1200;
  const h = 630;
  const r = violetBackground(w, h);
  // Faint video frames in the corners hint at the product without competing with the text.
  r.fill(outline(roundRect(-90, 520, 340, 191, 18), 3), rgba('#ffffff', 0.12));
  r.fill(outline(roundRect(1030, -70, 150, 266, 18), 3), rgba('#ffffff', 0.12));
  // Play button.
  const cx = w / 2;
  const cy = 178;
  r.fill(circle(cx, cy, 84), rgba('#ffffff', 0.14));
  r.fill(circle(cx, cy, 66), rgba(C.white));
  r.fill(polygon([[cx - 18, cy - 30], [cx + 34, cy], [cx - 18, cy + 30]], 4), rgba(C.violet));
  const bg = path.join(scratch, 'og-bg.png');
  await savePng(r, bg, scratch);

  const graph = new GraphBuilder('og', fontFile, scratch);
  const label = graph.card(
    {
      background: bg,
      layers: [
        { kind: 'text', text: 'Vouchreel', size: 108, color: C.white, x: 'center', baseline: 404, bold: true, fade: 0 },
        { kind: 'text', text: COPY.en.tagline, size: 40, color: C.violet100, x: 'center', baseline: 484, fade: 0 },
      ],
    },
    1,
  );
  graph.chains.push(`[${label}]format=rgb24,split[a][b]`, '[a]palettegen=max_colors=256:stats_mode=full[pal]', '[b][pal]paletteuse=dither=bayer:bayer_scale=4[og]');
  await graph.writeTexts();
  await ffmpeg([
    ...graph.inputs,
    '-filter_complex', graph.chains.join(';'),
    '-map', '[og]', '-frames:v', '1', '-update', '1', '-compression_level', '9', ...BITEXACT,
    path.join(PUBLIC_DIR, 'og-image.png'),
  ]);
}

const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
  <rect width="64" height="64" rx="14" fill="#6d28d9"/>
  <path d="M25 19 47 32 25 45Z" fill="#fff" stroke="#fff" stroke-width="4" stroke-linejoin="round"/>
</svg>
`;

const ROBOTS_TXT = `User-agent: *
Allow: /
Disallow: /dashboard
Disallow: /testimonial/
Disallow: /dev/
Disallow: /api/
`;

async function renderIcons(scratch: string): Promise<void> {
  await writeFile(path.join(PUBLIC_DIR, 'favicon.svg'), FAVICON_SVG, 'utf8');
  // iOS rounds the corners itself, so the touch icon is full-bleed (transparent corners would turn black).
  const size = 180;
  const r = new Raster(size, size);
  r.fill(everywhere, rgba(C.violet));
  r.fill(markTriangle(0, 0, size), rgba(C.white));
  const raw = path.join(scratch, 'apple-touch-icon.png');
  await savePng(r, raw, scratch, false);
  await ffmpeg(['-i', raw, '-frames:v', '1', '-update', '1', '-pix_fmt', 'rgb24', '-compression_level', '9', ...BITEXACT, path.join(PUBLIC_DIR, 'apple-touch-icon.png')]);
}

// ---------------------------------------------------------------------------------------------------------------

async function describe(file: string): Promise<string> {
  const { size } = await stat(file);
  return `${path.relative(ROOT, file).padEnd(30)} ${(size / 1024).toFixed(1).padStart(8)} KB`;
}

async function main(): Promise<void> {
  const began = performance.now();
  await checkFfmpeg();
  await mkdir(MEDIA_DIR, { recursive: true });
  const scratch = await mkdtemp(path.join(tmpdir(), 'vouchreel-media-'));
  // Paths end up inside filter graphs, where ':' ',' ';' '[' ']' and quotes would need escaping: keep them plain.
  if (!/^[\w/.@+-]+$/.test(scratch)) throw new Error(`temporary directory ${scratch} has characters ffmpeg filters cannot take`);
  try {
    const fontFile = path.join(scratch, 'inter.woff2');
    await copyFile(FONT_SOURCE, fontFile);
    const step = (what: string): void => console.log(`[${((performance.now() - began) / 1000).toFixed(1).padStart(5)} s] ${what}`);
    step('artwork');
    const sprites = await renderSprites(scratch);
    if (process.argv.includes('--posters')) {
      // The posters alone (JPEG and WebP sizes), leaving the videos and the rest as they are.
      for (const copy of [COPY.en, COPY.fr]) {
        step(`posters ${copy.code}`);
        await renderPoster(copy, buildCards(copy, sprites), fontFile, scratch);
        for (const name of [`demo-${copy.code}.jpg`, ...POSTER_WIDTHS.map((w) => `demo-${copy.code}-${w}.webp`)]) {
          console.log(await describe(path.join(MEDIA_DIR, name)));
        }
      }
      return;
    }
    step('favicon, apple-touch-icon, robots.txt');
    await renderIcons(scratch);
    await writeFile(path.join(PUBLIC_DIR, 'robots.txt'), ROBOTS_TXT, 'utf8');
    step('og-image');
    await renderOgImage(fontFile, scratch);
    const voices: string[] = [];
    for (const copy of [COPY.en, COPY.fr]) {
      step(`demo-${copy.code}`);
      const { voice } = await renderVideo(copy, sprites, fontFile, scratch);
      voices.push(`${copy.code}: ${voice ?? 'no speech synthesiser found; soundtrack is a synthesized pad'}`);
    }
    const files = [
      path.join(MEDIA_DIR, 'demo-en.mp4'),
      path.join(MEDIA_DIR, 'demo-fr.mp4'),
      path.join(MEDIA_DIR, 'demo-en.jpg'),
      path.join(MEDIA_DIR, 'demo-fr.jpg'),
      ...POSTER_WIDTHS.flatMap((w) => [path.join(MEDIA_DIR, `demo-en-${w}.webp`), path.join(MEDIA_DIR, `demo-fr-${w}.webp`)]),
      path.join(PUBLIC_DIR, 'og-image.png'),
      path.join(PUBLIC_DIR, 'apple-touch-icon.png'),
      path.join(PUBLIC_DIR, 'favicon.svg'),
      path.join(PUBLIC_DIR, 'robots.txt'),
    ];
    for (const file of files) console.log(await describe(file));
    console.log(`voice-over: ${voices.join('; ')}`);
    console.log(`done in ${((performance.now() - began) / 1000).toFixed(1)} s`);
  } finally {
    if (process.argv.includes('--keep-temp')) console.log(`temporary files kept in ${scratch}`);
    else await rm(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
