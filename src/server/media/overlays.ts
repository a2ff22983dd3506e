import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  END_CARD_SECONDS,
  endCardLayout,
  LOWER_THIRD_PLATE_OPACITY,
  LOWER_THIRD_TIMES,
  lowerThirdLayout,
  type EndCardLayout,
  type FontFace,
  type FrameKind,
  type LowerThirdLayout,
} from '../../contract/frame-layout.js';

/**
 * The lower-third and the end card of issue 31 (decision 202), as filter-graph chains that render.ts's
 * composeGraph hooks in: the lower-third is a small RGBA layer (the plate with the name and position)
 * overlaid on each answer as it starts, fading in and out; the end card is a still piece of END_CARD_SECONDS
 * with the logo, the call to action and the address, concatenated after the last answer. Both are laid
 * out by the shared frame layout (src/contract/frame-layout.ts), which the settings preview draws with.
 * Text is read by drawtext from files with expansion off: nothing in it is ever read as markup.
 */

export { END_CARD_SECONDS, LOWER_THIRD_TIMES };

/** Seconds of the fades between pieces: card → answer, answer → answer or card, answer → end card (decision 203). */
export const TRANSITION_SECONDS = 0.3;
/** Seconds of the sound's fades at each join, so that a cut never clicks (decision 203). */
export const AUDIO_FADE_SECONDS = 0.15;

const FPS = 30;
const hex = (c: string) => `0x${c.replace('#', '')}`;
const q = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "'\\''").replace(/:/g, '\\:')}'`;

/** The company's style for the overlays: the question card's colours and fonts (drawtext's files, bold as chosen and regular). */
export interface OverlayStyle {
  background: string;
  color: string;
  face: FontFace;
  /** The question's font file (bold when chosen and shipped): the name and the call to action. */
  fontFile: string;
  /** The same family, regular: the position and the address. */
  regularFile: string;
}

/** A lower-third laid out for a frame, its lines written for drawtext. */
export interface LowerThird {
  layout: LowerThirdLayout;
  nameFile: string;
  titleFile: string | null;
}

export async function writeLowerThird(dir: string, prefix: string, layout: LowerThirdLayout): Promise<LowerThird> {
  const nameFile = path.join(dir, `${prefix}-name.txt`);
  await writeFile(nameFile, layout.name.text);
  let titleFile: string | null = null;
  if (layout.title) {
    titleFile = path.join(dir, `${prefix}-title.txt`);
    await writeFile(titleFile, layout.title.text);
  }
  return { layout, nameFile, titleFile };
}

/** The lower-third for a frame and a customer (null without a name). */
export function layoutLowerThird(o: { frame: { width: number; height: number; kind: FrameKind }; name: string; title?: string | null | undefined; face: FontFace; subtitleSize: number; keepAbove?: number | undefined }): LowerThirdLayout | null {
  if (!o.name.trim()) return null;
  return lowerThirdLayout({ ...o.frame, name: o.name, title: o.title, face: o.face, subtitleSize: o.subtitleSize, keepAbove: o.keepAbove });
}

/**
 * The lower-third's layer, `[${label}lt]`: the plate of the card's background (slightly see-through) with
 * the name and the position, transparent until LOWER_THIRD_TIMES.start, faded in and out, ending at
 * LOWER_THIRD_TIMES.end; and the overlay step that puts it on the answer at the plate's place (the answer
 * goes on alone once the layer ends).
 */
export function lowerThirdChain(o: { lowerThird: LowerThird; style: OverlayStyle; label: string }): { layer: string; overlay: string } {
  const { plate, name, title } = o.lowerThird.layout;
  const t = LOWER_THIRD_TIMES;
  const text = (file: string, line: { x: number; top: number; fontSize: number }, font: string) =>
    `drawtext=fontfile=${q(font)}:textfile=${q(file)}:expansion=none:fontsize=${line.fontSize}:fontcolor=${hex(o.style.color)}:x=${line.x - plate.x}:y=${line.top - plate.y}`;
  const steps = [
    `color=c=${hex(o.style.background)}@${LOWER_THIRD_PLATE_OPACITY}:s=${plate.width}x${plate.height}:r=${FPS}:d=${t.end}`,
    'format=rgba',
    text(o.lowerThird.nameFile, name, o.style.fontFile),
    ...(title && o.lowerThird.titleFile ? [text(o.lowerThird.titleFile, title, o.style.regularFile)] : []),
    `fade=t=in:st=${t.start}:d=${t.fade}:alpha=1`,
    `fade=t=out:st=${t.end - t.fade}:d=${t.fade}:alpha=1`,
  ];
  return { layer: `${steps.join(',')}[${o.label}lt]`, overlay: `overlay=x=${plate.x}:y=${plate.y}:eof_action=pass:format=auto` };
}

/** An end card laid out for a frame, its lines written for drawtext. */
export interface EndCard {
  layout: EndCardLayout;
  lineFiles: string[];
}

/** The end card for a frame, or null when it has nothing to say (both texts empty). */
export function layoutEndCard(o: { frame: { width: number; height: number; kind: FrameKind }; text: string; address: string; face: FontFace; size: number; logo: boolean }): EndCardLayout | null {
  if (!o.text.trim() && !o.address.trim()) return null;
  return endCardLayout({ ...o.frame, text: o.text, address: o.address, face: o.face, size: o.size, logo: o.logo });
}

/** Writes the end card's lines for drawtext in `dir` (`prefix` tells apart the frames of a multi-format run). */
export async function writeEndCard(dir: string, layout: EndCardLayout, prefix = ''): Promise<EndCard> {
  const lineFiles = await Promise.all(
    layout.lines.map(async (line, i) => {
      const file = path.join(dir, `${prefix}endcard-line${i}.txt`);
      await writeFile(file, line.text);
      return file;
    }),
  );
  return { layout, lineFiles };
}

/**
 * The end card's chains: `[${label}card]`, the background with the call to action (the question's font)
 * and the address (regular), the logo (when `logo` names its scaled
 * picture) centred in its band, faded in; and `[${label}sil]`, silence as long.
 */
export function endCardChain(o: { frame: { width: number; height: number }; style: OverlayStyle; endCard: EndCard; logo?: string | undefined; label: string }): string {
  const { layout } = o.endCard;
  const parts = [`color=c=${hex(o.style.background)}:s=${o.frame.width}x${o.frame.height}:r=${FPS}:d=${END_CARD_SECONDS},format=yuv420p`];
  o.endCard.lineFiles.forEach((file, i) => {
    const line = layout.lines[i]!;
    const font = line.regular ? o.style.regularFile : o.style.fontFile;
    parts.push(`drawtext=fontfile=${q(font)}:textfile=${q(file)}:expansion=none:fontsize=${line.fontSize}:fontcolor=${hex(o.style.color)}:x=${line.x}:y=${line.top}`);
  });
  const fade = `fade=t=in:st=0:d=${TRANSITION_SECONDS},setsar=1[${o.label}card]`;
  const silence = `anullsrc=r=48000:cl=stereo,atrim=0:${END_CARD_SECONDS},aformat=sample_fmts=fltp:channel_layouts=stereo[${o.label}sil]`;
  if (o.logo && layout.logoBox) {
    const l = layout.logoBox;
    return `${parts.join(',')}[${o.label}txt];[${o.label}txt][${o.logo}]overlay=x=${l.x}+(${l.width}-w)/2:y=${l.y}+(${l.height}-h)/2,${fade};${silence}`;
  }
  return `${parts.join(',')},${fade};${silence}`;
}

/** The sound's fades at an answer's joins: in at its start, out before its end (its duration known). */
export function audioFades(o: { fadeIn: boolean; fadeOut: boolean; duration?: number | undefined }): string[] {
  const steps: string[] = [];
  if (o.fadeIn) steps.push(`afade=t=in:st=0:d=${AUDIO_FADE_SECONDS}`);
  if (o.fadeOut && o.duration && o.duration > 2 * AUDIO_FADE_SECONDS) steps.push(`afade=t=out:st=${Math.round((o.duration - AUDIO_FADE_SECONDS) * 1000) / 1000}:d=${AUDIO_FADE_SECONDS}`);
  return steps;
}

/** The picture's fade out before an answer's end, when something follows it (its duration known). */
export function videoFadeOut(duration: number | undefined): string[] {
  return duration && duration > 2 * TRANSITION_SECONDS ? [`fade=t=out:st=${Math.round((duration - TRANSITION_SECONDS) * 1000) / 1000}:d=${TRANSITION_SECONDS}`] : [];
}
