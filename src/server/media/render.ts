import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EXPORT_PLATFORM_SPECS, type TCropArea, type TExportPlatform } from '../../contract/api/studio.schema.js';
import { LOGO_PIXEL_LIMITS } from '../../contract/constants.js';
import { LOGO_PLATE_COLOR, LOGO_PLATE_MARGIN_RATIO } from '../../contract/logo-contrast.js';
import { cropRect } from '../../contract/crop.js';
import { fitCard, fitCuesToFrame, REFERENCE_SHORT_SIDE, subtitleBox, type Box, type CardFit, type FontFace, type FrameKind } from '../../contract/frame-layout.js';
import type { Cue } from '../../contract/subtitles.js';
import type { TCaptionStyle } from '../../contract/constants.js';
import { wordCaptionEvents, wordCaptionStyle } from './word-captions.js';
import { ANSWER_INPUT_LIMITS } from './answer-limits.js';
import { audioFades, endCardChain, lowerThirdChain, TRANSITION_SECONDS, videoFadeOut, type EndCard, type LowerThird, type OverlayStyle } from './overlays.js';

/**
 * Builders of the ffmpeg invocations (issue 17): every output is made in one run from the sources —
 * the question cards, the logo, the answers (cropped for an export), their subtitles, the loudness pass
 * and the concatenation in one filter graph — so no picture is encoded twice and nothing burned in is
 * ever cropped. The card and the subtitles are laid out for the frame being rendered by the shared
 * contract (src/contract/frame-layout.ts), which the settings preview draws with too.
 */

export const CARD_SECONDS = 3;
export const FPS = 30;
/** Font sizes of the settings are pixels on a frame whose short side is this; scaled to the output (frameScale). */
export const REFERENCE_HEIGHT = REFERENCE_SHORT_SIDE;

/** The frame being rendered: its size and the kind of its safe area. */
export interface Frame {
  width: number;
  height: number;
  kind: FrameKind;
}

/**
 * The output frame of a social export: 1080 × 1920 vertical (Reels, TikTok, Shorts), 1920 × 1080 (LinkedIn),
 * 1080 × 1080 square or 1080 × 1350 portrait (feed posts, issue 31), each with its own safe area.
 */
export function exportFrame(platform: TExportPlatform): Frame {
  const spec = EXPORT_PLATFORM_SPECS[platform];
  const kind: FrameKind = platform === 'square' ? 'square' : platform === 'portrait' ? 'portrait' : spec.width < spec.height ? 'vertical' : 'landscape';
  return { width: spec.width, height: spec.height, kind };
}

export interface CropPixels {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * Crop pixels from a validated fraction area, with even sizes inside the frame: the contract's rounding
 * (src/contract/crop.ts), which the export dialog's crop editor uses too.
 */
export function cropPixels(area: TCropArea, width: number, height: number): CropPixels {
  const r = cropRect(area, width, height);
  return { x: r.x, y: r.y, w: r.width, h: r.height };
}

const hex = (c: string) => `0x${c.replace('#', '')}`;
/** Quote a value for a filter-graph option. Paths come from our own temp folders and font cache. */
const q = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "'\\''").replace(/:/g, '\\:')}'`;
/** A coordinate for a filter expression (two decimals are far below a pixel). */
const px = (n: number) => String(Math.round(n * 100) / 100);

/* ------------------------------------------------------------------ the question card */

export interface CardStyle {
  background: string;
  color: string;
  /** The question's size of the settings (pixels on a 540-line frame); scaled to the frame. */
  size: number;
  /** The font as measured by the layout (the bold flag as chosen: a family without bold is measured and drawn regular). */
  face: FontFace;
  /** The file drawtext draws with (fonts.ts fontFile of the same face). */
  fontFile: string;
  /** The logo sits on a light plate (decision 172: a dark logo on a dark card). */
  logoPlate?: boolean | undefined;
  /** The same family, regular: the lower-third's position and the end card's address (issue 31). */
  regularFile?: string | undefined;
}

/** The question laid out for a frame: wrapped, shrunk, or cut with an ellipsis only past the minimum size. */
export function layoutCard(o: { text: string; frame: Frame; style: CardStyle; logo: boolean }): CardFit {
  return fitCard({ text: o.text, width: o.frame.width, height: o.frame.height, kind: o.frame.kind, size: o.style.size, face: o.style.face, logo: o.logo });
}

/** A laid-out card and the files holding its lines (drawtext reads each line from a file: nothing to escape). */
export interface Card {
  fit: CardFit;
  lineFiles: string[];
}

/** Writes a card's lines for drawtext, one file each, in `dir`. */
export async function writeCard(dir: string, prefix: string, fit: CardFit): Promise<Card> {
  const lineFiles = await Promise.all(
    fit.lines.map(async (line, i) => {
      const file = path.join(dir, `${prefix}-line${i}.txt`);
      await writeFile(file, line.text);
      return file;
    }),
  );
  return { fit, lineFiles };
}

/**
 * The intro card's video chain: background, one drawtext per line at the layout's top, each line centred
 * in the text box, the logo (when `logo` names its scaled picture) centred in its band above the text,
 * and a short fade out. `expansion=none`: drawtext would otherwise read `%{…}` in the question as its own
 * functions ("%{localtime}" burns in the server's clock) and drop a line with a lone "%" ("50% or more?").
 */
export function cardChain(o: { frame: Frame; style: CardStyle; card: Card; logo?: string | undefined; label: string; fadeIn?: boolean }): string {
  const { fit } = o.card;
  const box = fit.textBox;
  const parts = [`color=c=${hex(o.style.background)}:s=${o.frame.width}x${o.frame.height}:r=${FPS}:d=${CARD_SECONDS},format=yuv420p`];
  o.card.lineFiles.forEach((file, i) => {
    const top = fit.lines[i]!.top;
    parts.push(
      `drawtext=fontfile=${q(o.style.fontFile)}:textfile=${q(file)}:expansion=none:fontsize=${fit.fontSize}:fontcolor=${hex(o.style.color)}` +
        `:x=${box.x}+(${box.width}-text_w)/2:y=${px(top)}`,
    );
  });
  const fade = `${o.fadeIn ? `fade=t=in:st=0:d=${TRANSITION_SECONDS},` : ''}fade=t=out:st=${CARD_SECONDS - 0.4}:d=0.4,setsar=1[${o.label}card]`;
  if (o.logo && fit.logoBox) {
    const l = fit.logoBox;
    return `${parts.join(',')}[${o.label}txt];[${o.label}txt][${o.logo}]overlay=x=${l.x}+(${l.width}-w)/2:y=${l.y}+(${l.height}-h)/2,${fade}`;
  }
  return `${parts.join(',')},${fade}`;
}

/**
 * The logo scaled once to fit its band (height first, never wider than the band), then split for every
 * card of the run: labels `${label}0` … `${label}{count-1}`. With `plate`, the logo is scaled to the band
 * less a margin and flattened onto an opaque light plate of the band's height (decision 172): a copy of
 * the logo turned all plate-coloured underlays it, and `pad` adds the margin.
 */
export function logoChain(o: { input: number; box: Box; count: number; label: string; plate?: boolean | undefined }): string {
  const outs = Array.from({ length: o.count }, (_, i) => `[${o.label}${i}]`).join('');
  if (!o.plate) return `[${o.input}:v]scale=w=${o.box.width}:h=${o.box.height}:force_original_aspect_ratio=decrease:flags=lanczos,split=${o.count}${outs}`;
  const m = Math.max(2, Math.round(o.box.height * LOGO_PLATE_MARGIN_RATIO));
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(LOGO_PLATE_COLOR.slice(i, i + 2), 16));
  return (
    `[${o.input}:v]scale=w=${o.box.width - 2 * m}:h=${o.box.height - 2 * m}:force_original_aspect_ratio=decrease:flags=lanczos,format=rgba,split=2[${o.label}pl][${o.label}pm];` +
    `[${o.label}pl]lutrgb=r=${r}:g=${g}:b=${b}:a=255[${o.label}pb];` +
    `[${o.label}pb][${o.label}pm]overlay=format=auto,pad=w=iw+${2 * m}:h=ih+${2 * m}:x=${m}:y=${m}:color=${hex(LOGO_PLATE_COLOR)},split=${o.count}${outs}`
  );
}

/**
 * The logo as one still picture. Stored logos are normalised (at most LOGO_PIXEL_LIMITS.storedSide on a
 * side); the decoder refuses anything bigger at once, so a logo that escaped normalisation fails the
 * render in a moment instead of decoding a huge picture for every frame.
 */
export function logoInputArgs(logo: string): string[] {
  return ['-max_pixels', String(LOGO_PIXEL_LIMITS.storedSide * LOGO_PIXEL_LIMITS.storedSide), '-i', logo];
}

/* ------------------------------------------------------------------ subtitles */

export interface SubtitleStyle {
  /** The font as measured by the layout (fitCuesToFrame splits cues too long for the frame). */
  face: FontFace;
  fontsDir: string;
  /** The family libass asks its fonts folder for (fonts.ts subtitleFont). */
  fontName: string;
  /** Size of the settings (pixels on a 540-line frame); scaled to the frame. */
  size: number;
  color: string;
  bold: boolean;
  border: boolean;
  /** Issue 31: 'word' draws word-by-word captions (word-captions.ts), the spoken word in `highlight`. */
  captions?: TCaptionStyle | undefined;
  highlight?: string | undefined;
}

/** A subtitle script written for one frame, and the fonts folder libass reads. */
export interface Subtitles {
  assFile: string;
  fontsDir: string;
}

const ZWSP = '\u200b';
/**
 * A cue's text as literal text for libass, which would otherwise read markup in it: `{…}` override
 * blocks (hidden, or `{\fs80}` restyling) and the `\N`, `\n`, `\h` escapes. Braces are escaped as libass
 * reads them (`\{`, `\}`); a zero-width space (not drawn) after a backslash breaks up an escape. Line
 * breaks of the cue become spaces: libass wraps the line to the frame's safe width itself.
 */
export function literalAssText(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\{}]/g, (c) => (c === '\\' ? `\\${ZWSP}` : `\\${c}`));
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
/** h:mm:ss.cc, ASS's time. */
export function assTime(seconds: number): string {
  const cs = Math.max(0, Math.round(seconds * 100));
  return `${Math.floor(cs / 360_000)}:${pad(Math.floor(cs / 6000) % 60)}:${pad(Math.floor(cs / 100) % 60)}.${pad(cs % 100)}`;
}
/** #rrggbb and an opacity-less alpha (00 opaque … FF invisible) as ASS's &HAABBGGRR. */
const assColour = (c: string, alpha = 0) => `&H${alpha.toString(16).padStart(2, '0')}${c.slice(5, 7)}${c.slice(3, 5)}${c.slice(1, 3)}`.toUpperCase();

/**
 * The subtitles as an ASS script for this frame (issue 17): PlayResX × PlayResY is the frame, so libass
 * scales nothing; the company's font, colour and weight; the size, margins (the safe area), outline and
 * shadow of the contract's subtitleBox. Lines are wrapped by libass inside the margins (smart wrap).
 */
export function assScript(o: { cues: Cue[]; style: SubtitleStyle; frame: Frame }): string {
  const word = o.style.captions === 'word';
  const b = { ...subtitleBox({ width: o.frame.width, height: o.frame.height, kind: o.frame.kind, size: o.style.size, border: o.style.border }), ...(word ? wordCaptionStyle(o) : { alignment: 2 }) };
  const s = o.style;
  const style = [
    'Default', s.fontName, b.fontSize, assColour(s.color), '&H000000FF', assColour('#000000'),
    assColour('#000000', Math.round((1 - b.shadowOpacity) * 255)), s.bold ? -1 : 0, 0, 0, 0, 100, 100, 0, 0,
    1, b.outline, b.shadow, b.alignment, b.marginL, b.marginR, b.marginV, 1,
  ].join(',');
  return [
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${o.frame.width}`,
    `PlayResY: ${o.frame.height}`,
    'ScaledBorderAndShadow: yes',
    'WrapStyle: 0',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    `Style: ${style}`,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    ...(word
      ? wordCaptionEvents(o)
      : fitCuesToFrame(o.cues, { ...o.frame, size: s.size, border: s.border, face: s.face })
          .filter((c) => c.end > c.start && c.text.trim())
          .map((c) => `Dialogue: 0,${assTime(c.start)},${assTime(c.end)},Default,,0,0,0,,${literalAssText(c.text)}`)),
    '',
  ].join('\n');
}

/** Writes the subtitle script of `cues` for this frame in `dir`. */
export async function writeSubtitles(dir: string, name: string, cues: Cue[], style: SubtitleStyle, frame: Frame): Promise<Subtitles> {
  const assFile = path.join(dir, `${name}-${frame.width}x${frame.height}.ass`);
  await writeFile(assFile, assScript({ cues, style, frame }));
  return { assFile, fontsDir: style.fontsDir };
}

/** libass draws the script (the `ass` filter reads it as written: no SRT conversion, no force_style). */
export function subtitlesFilter(s: Subtitles): string {
  return `ass=filename=${q(s.assFile)}:fontsdir=${q(s.fontsDir)}`;
}

/* ------------------------------------------------------------------ answers */

/** Mild sharpening of the luma after an upscale (lanczos already keeps edges; this restores a little crispness). */
export const UPSCALE_SHARPEN = 'unsharp=5:5:0.6:5:5:0';

/**
 * How every answer picture is scaled (issue 27 item 13, decision 169): lanczos on luma and chroma alike
 * (`full_chroma_int` interpolates the colour planes at full resolution instead of stretching the 4:2:0
 * half-size planes, whose blocky edges are the colour fringes of an upscaled crop; `full_chroma_inp`
 * reads the input's chroma at its real position) and `accurate_rnd` rounding. The output is made 4:2:0
 * once, at the end of the chain (`format=yuv420p`).
 */
export const SCALE_FLAGS = 'lanczos+accurate_rnd+full_chroma_int+full_chroma_inp';

/** The largest frame a merged video is rendered at: 1080p, either way round. */
export const MERGED_MAX = { long: 1920, short: 1080 } as const;

/**
 * The frame of a merged video (issue 27 item 13): the largest answer's size (by pixels), shrunk to fit
 * 1080p (1920 × 1080, or 1080 × 1920 for a portrait answer) with its aspect kept, in even pixels. The
 * other answers are fitted into it and padded on the card's background (fitSteps).
 */
export function mergedFrameSize(sources: { width: number; height: number }[]): { width: number; height: number } {
  const valid = sources.filter((s) => s.width > 0 && s.height > 0);
  const largest = valid.reduce<{ width: number; height: number } | null>((best, s) => (!best || s.width * s.height > best.width * best.height ? s : best), null) ?? { width: 1280, height: 720 };
  const portrait = largest.height > largest.width;
  const scale = Math.min(1, (portrait ? MERGED_MAX.short : MERGED_MAX.long) / largest.width, (portrait ? MERGED_MAX.long : MERGED_MAX.short) / largest.height);
  const even = (n: number) => Math.max(2, Math.floor(n / 2) * 2);
  return { width: even(largest.width * scale), height: even(largest.height * scale) };
}

/**
 * The picture steps that bring an answer to the frame: with `crop`, the crop scaled to fill the frame
 * (an export: the crop has the frame's aspect, any remainder cut evenly); without, the answer fitted
 * into the frame on the background (a merge of answers of different sizes). Scaling uses SCALE_FLAGS,
 * and an upscale is sharpened mildly. Nothing when the answer already has the frame's size.
 */
export function fitSteps(o: { source: { width: number; height: number }; crop?: CropPixels | undefined; frame: Frame; background: string }): string[] {
  const { width: W, height: H } = o.frame;
  if (o.crop) {
    const steps = [`crop=${o.crop.w}:${o.crop.h}:${o.crop.x}:${o.crop.y}`];
    if (o.crop.w === W && o.crop.h === H) return steps;
    steps.push(`scale=${W}:${H}:force_original_aspect_ratio=increase:flags=${SCALE_FLAGS}`, `crop=${W}:${H}`);
    if (Math.max(W / o.crop.w, H / o.crop.h) > 1) steps.push(UPSCALE_SHARPEN);
    return steps;
  }
  if (o.source.width === W && o.source.height === H) return [];
  // Fitted inside the frame, in even pixels so that the 4:2:0 picture pads without a stray line.
  const steps = [`scale=${W}:${H}:force_original_aspect_ratio=decrease:force_divisible_by=2:flags=${SCALE_FLAGS}`];
  if (Math.min(W / o.source.width, H / o.source.height) > 1) steps.push(UPSCALE_SHARPEN);
  steps.push(`pad=${W}:${H}:(ow-iw)/2:(oh-ih)/2:color=${hex(o.background)}`);
  return steps;
}

/** An answer of a composed run: its file, its picture's size (after rotation), an export's crop, its subtitles and its card. */
export interface Segment {
  answer: string;
  source: { width: number; height: number };
  crop?: CropPixels | undefined;
  subtitles?: Subtitles | undefined;
  card?: Card | undefined;
  /** The part of the answer used, in seconds of its file (decision 201): read by input seeking (trimInputArgs). */
  trim?: { start: number; end: number } | undefined;
  /** Issue 31: the customer's name and position as the answer starts, and the answer's length (for the fades out). */
  lowerThird?: LowerThird | undefined;
  duration?: number | undefined;
}

/**
 * An answer's chains: the picture at 30 fps brought to the frame, its subtitles (drawn at the frame's
 * own size, after any crop and scale) and a fade in after a card; the sound resampled to stereo 48 kHz
 * and loudness-normalised.
 */
export function answerChain(o: { input: number; segment: Segment; frame: Frame; background: string; label: string; fadeIn: boolean; fadeOut?: boolean; overlayStyle?: OverlayStyle }): string {
  const steps = [`fps=${FPS}`, ...fitSteps({ source: o.segment.source, crop: o.segment.crop, frame: o.frame, background: o.background }), 'setsar=1'];
  if (o.segment.subtitles) steps.push(subtitlesFilter(o.segment.subtitles));
  const lt = o.segment.lowerThird && o.overlayStyle ? lowerThirdChain({ lowerThird: o.segment.lowerThird, style: o.overlayStyle, label: o.label }) : undefined;
  if (lt) steps.push(`format=yuv420p[${o.label}b];${lt.layer};[${o.label}b][${o.label}lt]${lt.overlay}`);
  steps.push('format=yuv420p');
  if (o.fadeIn) steps.push('fade=t=in:st=0:d=0.3');
  if (o.fadeOut) steps.push(...videoFadeOut(o.segment.duration));
  const afades = audioFades({ fadeIn: o.fadeIn, fadeOut: Boolean(o.fadeOut), duration: o.segment.duration });
  return (
    `[${o.input}:v]${steps.join(',')}[${o.label}v];` +
    `[${o.input}:a]aresample=48000:async=1,aformat=sample_fmts=fltp:channel_layouts=stereo,loudnorm=I=-14:TP=-1.5:LRA=11,aresample=48000${afades.map((f) => `,${f}`).join('')}[${o.label}a]`
  );
}

export const ENCODE = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', '-r', String(FPS), '-c:a', 'aac', '-b:a', '160k', '-ar', '48000', '-ac', '2', '-movflags', '+faststart'];

/**
 * The filter graph of a composed output: for each answer in order, its card (with the logo) and a
 * silent track under it, then the answer; all concatenated. Inputs: the answers 0 … n-1, the logo n.
 */
export function composeGraph(o: { frame: Frame; style: CardStyle; segments: Segment[]; logo: boolean; endCard?: EndCard | undefined }): string {
  const n = o.segments.length;
  const cards = o.segments.filter((s) => s.card);
  const logoBox = cards.find((s) => s.card!.fit.logoBox)?.card!.fit.logoBox ?? o.endCard?.layout.logoBox ?? undefined;
  const endLogo = Boolean(o.logo && logoBox && o.endCard?.layout.logoBox);
  const overlayStyle: OverlayStyle = { background: o.style.background, color: o.style.color, face: o.style.face, fontFile: o.style.fontFile, regularFile: o.style.regularFile ?? o.style.fontFile };
  const chains: string[] = [];
  if (o.logo && logoBox) chains.push(logoChain({ input: n, box: logoBox, count: cards.length + (endLogo ? 1 : 0), label: 'logo', plate: o.style.logoPlate }));
  const pieces: string[] = [];
  let cardIndex = 0;
  o.segments.forEach((segment, i) => {
    if (segment.card) {
      const logo = o.logo && logoBox ? `logo${cardIndex}` : undefined;
      cardIndex += 1;
      chains.push(cardChain({ frame: o.frame, style: o.style, card: segment.card, logo, label: `c${i}`, fadeIn: i > 0 }));
      chains.push(`anullsrc=r=48000:cl=stereo,atrim=0:${CARD_SECONDS},aformat=sample_fmts=fltp:channel_layouts=stereo[c${i}sil]`);
      pieces.push(`[c${i}card][c${i}sil]`);
    }
    const fadeOut = i < n - 1 || Boolean(o.endCard);
    chains.push(answerChain({ input: i, segment, frame: o.frame, background: o.style.background, label: `a${i}`, fadeIn: Boolean(segment.card) || i > 0, fadeOut, overlayStyle }));
    pieces.push(`[a${i}v][a${i}a]`);
  });
  if (o.endCard) {
    chains.push(endCardChain({ frame: o.frame, style: overlayStyle, endCard: o.endCard, logo: endLogo ? `logo${cardIndex}` : undefined, label: 'end' }));
    pieces.push('[endcard][endsil]');
  }
  chains.push(`${pieces.join('')}concat=n=${pieces.length}:v=1:a=1[v][a]`);
  return chains.join(';');
}

/**
 * One run from the sources to the finished output: the intro of an answer (one segment with its card),
 * its subtitled version (one segment without), the merged testimonial (every answer), and the enhanced
 * export of an answer or of the testimonial (cropped segments on the platform's frame).
 */
export function composeArgs(o: { output: string; frame: Frame; style: CardStyle; segments: Segment[]; logo?: string | undefined; endCard?: EndCard | undefined }): string[] {
  const logo = drawsLogo(o) ? o.logo : undefined;
  const graph = composeGraph({ frame: o.frame, style: o.style, segments: o.segments, logo: Boolean(logo), endCard: o.endCard });
  return [
    ...composeInputArgs(o.segments, logo),
    '-filter_complex',
    graph,
    '-map',
    '[v]',
    '-map',
    '[a]',
    ...ENCODE,
    o.output,
  ];
}

/**
 * The export of the original (as recorded, or the merged video as it is): crop, scaled to the platform's
 * size with SCALE_FLAGS (sharpened mildly when it upscales), the sound copied.
 */
export function exportArgs(o: {
  input: string;
  output: string;
  source: { width: number; height: number };
  crop: CropPixels;
  platform: TExportPlatform;
  trim?: { start: number; end: number } | undefined;
}): string[] {
  const frame = exportFrame(o.platform);
  const vf = [...fitSteps({ source: o.source, crop: o.crop, frame, background: '#000000' }), 'setsar=1', 'format=yuv420p'].join(',');
  return [...trimInputArgs(o.trim), '-i', o.input, '-vf', vf, '-map', '0:v:0', '-map', '0:a:0?', '-c:v', 'libx264', '-preset', 'superfast', '-crf', '23', ...originalAudioArgs(o.trim), '-movflags', '+faststart', o.output];
}

/** The sound of an original export: copied, or encoded again when trimmed (copied, it would start at a packet's edge, not at the cut). */
export function originalAudioArgs(trim: { start: number; end: number } | undefined): string[] {
  return trim ? ['-c:a', 'aac', '-b:a', '160k'] : ['-c:a', 'copy'];
}

/** Whether a composed output draws the logo: a card's logo band, or the end card's (issue 31). */
export function drawsLogo(o: { logo?: string | undefined; segments: Segment[]; endCard?: EndCard | undefined }): boolean {
  return Boolean(o.logo && (o.segments.some((s) => s.card?.fit.logoBox) || o.endCard?.layout.logoBox));
}

/** The inputs of a composed run: each answer once, only its kept part when trimmed (decision 201), then the logo. */
export function composeInputArgs(segments: Segment[], logo: string | undefined): string[] {
  return [...segments.flatMap((s) => [...ANSWER_INPUT_LIMITS, ...trimInputArgs(s.trim), '-i', s.answer]), ...(logo ? logoInputArgs(logo) : [])];
}

/**
 * Input options that read only the kept part of a trimmed answer (decision 201): input seeking, which
 * ffmpeg makes frame-accurate when it transcodes (it decodes from the keyframe before the start and
 * drops what precedes it), picture and sound cut at the same instant; timestamps start again at 0.
 * Placed after ANSWER_INPUT_LIMITS, whose `-t` this one replaces (the kept part is shorter).
 */
export function trimInputArgs(trim: { start: number; end: number } | undefined): string[] {
  if (!trim) return [];
  const s = (n: number) => String(Math.round(n * 1000) / 1000);
  return [...(trim.start > 0 ? ['-ss', s(trim.start)] : []), '-t', s(trim.end - trim.start)];
}
