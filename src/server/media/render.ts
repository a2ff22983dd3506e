import { EXPORT_PLATFORM_SPECS, type TCropArea, type TExportPlatform } from '../../contract/api/studio.schema.js';
import { ANSWER_INPUT_LIMITS } from './answer-limits.js';
import { LOGO_PIXEL_LIMITS } from '../../contract/constants.js';
import { cueLines, srtTime, type Cue } from '../../contract/subtitles.js';
import { cardGeometry, cardLines, CARD_LOGO_TOP_RATIO, CARD_REFERENCE_HEIGHT, SUBTITLE_SCRIPT, subtitleScriptSize } from '../../contract/card-layout.js';
import { cropRect } from '../../contract/crop.js';
import { wrapText } from '../../contract/text-wrap.js';

/**
 * Pure builders of the ffmpeg invocations: one run per output, the card, logo overlay, scaling,
 * loudness normalisation and concatenation in one filter graph, so no picture is encoded twice.
 */

export const CARD_SECONDS = 3;
export const FPS = 30;
/** Font sizes of the settings are pixels on a frame of this height (the preview's), scaled to the output. */
export const REFERENCE_HEIGHT = CARD_REFERENCE_HEIGHT;

/**
 * Crop pixels from a validated fraction area, with even sizes inside the frame: the contract's rounding
 * (src/contract/crop.ts), which the export dialog's crop editor uses too.
 */
export function cropPixels(area: TCropArea, width: number, height: number) {
  const r = cropRect(area, width, height);
  return { x: r.x, y: r.y, w: r.width, h: r.height };
}

/** The question's lines drawn on a card of this frame at this size (wrapped as the preview wraps them). */
export { cardLines, wrapText };

export interface CardStyle {
  background: string;
  color: string;
  /** Font size in pixels on a REFERENCE_HEIGHT frame; scaled to the output. */
  size: number;
  fontFile: string;
}

const hex = (c: string) => `0x${c.replace('#', '')}`;
/** Quote a value for a filter-graph option. Paths come from our own temp folders and font cache. */
const q = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "'\\''").replace(/:/g, '\\:')}'`;

/**
 * The intro card's video chain: background, the question's lines centred (one drawtext per line, each
 * from a text file so nothing needs filter-graph escaping), the logo on top when given, and a short fade
 * out. `expansion=none`: drawtext would otherwise read `%{…}` in the question as its own functions
 * ("%{localtime}" burns in the server's clock) and drop a line with a lone "%" ("50% or more?").
 */
export function cardChain(o: { width: number; height: number; style: CardStyle; lineFiles: string[]; logoInput?: number; label: string }): string {
  const { fontSize: size, lineHeight, logo } = cardGeometry({ height: o.height, size: o.style.size, lineCount: o.lineFiles.length });
  // drawtext evaluates the same sum as cardGeometry's lineTops (the top of the line's tallest glyph).
  const blockTop = `(h-${lineHeight * o.lineFiles.length})/2`;
  const parts = [`color=c=${hex(o.style.background)}:s=${o.width}x${o.height}:r=${FPS}:d=${CARD_SECONDS},format=yuv420p`];
  o.lineFiles.forEach((file, i) => {
    parts.push(
      `drawtext=fontfile=${q(o.style.fontFile)}:textfile=${q(file)}:expansion=none:fontsize=${size}:fontcolor=${hex(o.style.color)}:x=(w-text_w)/2:y=${blockTop}+${i * lineHeight}+(${lineHeight}-${size})/2`,
    );
  });
  let chain = `${parts.join(',')}[${o.label}txt]`;
  if (o.logoInput !== undefined) {
    // The logo is one picture, decoded and scaled once; overlay repeats it over the whole card.
    chain += `;[${o.logoInput}:v]scale=-2:${logo.height}[${o.label}logo];[${o.label}txt][${o.label}logo]overlay=x=(W-w)/2:y=H*${CARD_LOGO_TOP_RATIO}[${o.label}over]`;
    chain += `;[${o.label}over]fade=t=out:st=${CARD_SECONDS - 0.4}:d=0.4,setsar=1[${o.label}card]`;
  } else {
    chain += `;[${o.label}txt]fade=t=out:st=${CARD_SECONDS - 0.4}:d=0.4,setsar=1[${o.label}card]`;
  }
  return chain;
}

export interface SubtitleStyle {
  srtFile: string;
  fontsDir: string;
  fontName: string;
  /** Size in pixels on a REFERENCE_HEIGHT frame. */
  size: number;
  color: string;
  bold: boolean;
  border: boolean;
}

const ZWSP = '\u200b';
/**
 * A cue's text as literal text for ffmpeg's SRT reader and libass, which would otherwise read markup in
 * it: `<b>`/`<font size=…>` tags, `{…}` override blocks (hidden, or `{\fs80}` restyling), `\N` line
 * breaks, and `-->` as a new timing line. Braces are escaped as libass reads them (`\{`, `\}`); a
 * zero-width space (not drawn) breaks up the other sequences.
 */
export function literalCueText(text: string): string {
  return text.replace(/[\\{}<]|-->/g, (c) => {
    if (c === '\\') return `\\${ZWSP}`;
    if (c === '{') return `\\{${ZWSP}`;
    if (c === '}') return '\\}';
    if (c === '<') return `<${ZWSP}`;
    return `--${ZWSP}>`;
  });
}

/** The SRT that the burn-in reads: the cues of `toSrt`, their text kept literal. */
export function burnInSrt(cues: Cue[]): string {
  return cues.map((c, i) => `${i + 1}\n${srtTime(c.start)} --> ${srtTime(c.end)}\n${cueLines(c.text).map(literalCueText).join('\n')}\n`).join('\n');
}

/** libass burn-in of an SRT in the company's subtitle style (ASS colours are &HAABBGGRR). */
export function subtitlesFilter(s: SubtitleStyle): string {
  const [r, g, b] = [s.color.slice(1, 3), s.color.slice(3, 5), s.color.slice(5, 7)];
  // libass scales sizes from its script's height (SUBTITLE_SCRIPT.height lines).
  const size = subtitleScriptSize(s.size);
  const style = [
    `FontName=${s.fontName}`,
    `FontSize=${size}`,
    `PrimaryColour=&H00${`${b}${g}${r}`.toUpperCase()}`,
    `Bold=${s.bold ? 1 : 0}`,
    s.border
      ? `BorderStyle=1,Outline=${SUBTITLE_SCRIPT.outline},Shadow=0,OutlineColour=&H00000000`
      : `BorderStyle=1,Outline=0,Shadow=${SUBTITLE_SCRIPT.shadow}`,
    `MarginV=${SUBTITLE_SCRIPT.marginV}`,
  ].join(',');
  return `subtitles=filename=${q(s.srtFile)}:fontsdir=${q(s.fontsDir)}:force_style=${q(style)}`;
}

/**
 * An answer fitted into the frame (letterboxed on the background), 30 fps, stereo 48 kHz,
 * loudness-normalised. `fits`: the answer already has exactly the frame's size, so the scale and pad
 * steps (a copy of every picture) are left out.
 */
export function answerChain(o: { input: number; width: number; height: number; background: string; label: string; fadeIn: boolean; fits?: boolean | undefined; subtitles?: SubtitleStyle | undefined }): string {
  const fit = o.fits ? '' : `scale=${o.width}:${o.height}:force_original_aspect_ratio=decrease,pad=${o.width}:${o.height}:(ow-iw)/2:(oh-ih)/2:color=${hex(o.background)},`;
  return (
    `[${o.input}:v]${fit}` +
    `setsar=1,fps=${FPS}${o.subtitles ? `,${subtitlesFilter(o.subtitles)}` : ''},format=yuv420p${o.fadeIn ? ',fade=t=in:st=0:d=0.3' : ''}[${o.label}v];` +
    `[${o.input}:a]aresample=48000:async=1,aformat=sample_fmts=fltp:channel_layouts=stereo,loudnorm=I=-14:TP=-1.5:LRA=11,aresample=48000[${o.label}a]`
  );
}

const ENCODE = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', '-r', String(FPS), '-c:a', 'aac', '-b:a', '160k', '-ar', '48000', '-ac', '2', '-movflags', '+faststart'];

/**
 * The logo as one still picture. Stored logos are normalised (at most LOGO_PIXEL_LIMITS.storedSide on a
 * side); the decoder refuses anything bigger at once, so a logo that escaped normalisation fails the
 * render in a moment instead of decoding a huge picture for every frame.
 */
export function logoInputArgs(logo: string): string[] {
  return ['-max_pixels', String(LOGO_PIXEL_LIMITS.storedSide * LOGO_PIXEL_LIMITS.storedSide), '-i', logo];
}

/** Intro card + answer in one run (subtitles, when given, burned into the answer part). */
export function introArgs(o: { answer: string; logo?: string | undefined; output: string; width: number; height: number; fits?: boolean | undefined; style: CardStyle; lineFiles: string[]; subtitles?: SubtitleStyle | undefined }): string[] {
  const logoInput = o.logo ? 1 : undefined;
  const graph = [
    cardChain({ width: o.width, height: o.height, style: o.style, lineFiles: o.lineFiles, label: 'c', ...(logoInput !== undefined ? { logoInput } : {}) }),
    `anullsrc=r=48000:cl=stereo,atrim=0:${CARD_SECONDS},aformat=sample_fmts=fltp:channel_layouts=stereo[csil]`,
    answerChain({ input: 0, width: o.width, height: o.height, background: o.style.background, label: 'a', fadeIn: true, fits: o.fits, subtitles: o.subtitles }),
    `[ccard][csil][av][aa]concat=n=2:v=1:a=1[v][a]`,
  ].join(';');
  return [...ANSWER_INPUT_LIMITS, '-i', o.answer, ...(o.logo ? logoInputArgs(o.logo) : []), '-filter_complex', graph, '-map', '[v]', '-map', '[a]', ...ENCODE, o.output];
}

/** The answer alone with burned-in subtitles, in one run. */
export function subtitledArgs(o: { answer: string; output: string; width: number; height: number; fits?: boolean | undefined; background: string; subtitles: SubtitleStyle }): string[] {
  const graph = answerChain({ input: 0, width: o.width, height: o.height, background: o.background, label: 'a', fadeIn: false, fits: o.fits, subtitles: o.subtitles });
  return [...ANSWER_INPUT_LIMITS, '-i', o.answer, '-filter_complex', graph, '-map', '[av]', '-map', '[aa]', ...ENCODE, o.output];
}

/** A vertical (9:16) or widescreen (16:9) export: crop, scale to the platform size, audio kept. */
export function exportArgs(o: { input: string; output: string; crop: { x: number; y: number; w: number; h: number }; platform: TExportPlatform }): string[] {
  const spec = EXPORT_PLATFORM_SPECS[o.platform];
  const vf = `crop=${o.crop.w}:${o.crop.h}:${o.crop.x}:${o.crop.y},scale=${spec.width}:${spec.height}:force_original_aspect_ratio=increase,crop=${spec.width}:${spec.height},setsar=1,format=yuv420p`;
  return ['-i', o.input, '-vf', vf, '-map', '0:v:0', '-map', '0:a:0?', '-c:v', 'libx264', '-preset', 'superfast', '-crf', '23', '-c:a', 'copy', '-movflags', '+faststart', o.output];
}

/** Joins segments rendered with identical parameters, without re-encoding. */
export function concatArgs(o: { listFile: string; output: string }): string[] {
  return ['-f', 'concat', '-safe', '0', '-i', o.listFile, '-c', 'copy', '-movflags', '+faststart', o.output];
}
