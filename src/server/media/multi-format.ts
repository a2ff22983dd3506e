/**
 * Several export formats in one ffmpeg run (issue 31, decision 199). Each format's graph is the one
 * `composeGraph` builds for it alone (its cards, subtitles and crop laid out for its frame); the graphs are
 * joined into one run in which each answer (and the logo) is decoded once and handed to every format by
 * the `split` and `asplit` filters. Each format then encodes to its own output (several `-map`ped outputs).
 * The original of a video is likewise decoded once and cropped and scaled for each format.
 */
import type { EndCard } from './overlays.js';
import { composeGraph, composeInputArgs, drawsLogo, ENCODE, exportFrame, fitSteps, originalAudioArgs, trimInputArgs, type CardStyle, type CropPixels, type Frame, type Segment } from './render.js';
import type { TExportPlatform } from '../../contract/api/studio.schema.js';

/** One format of a run: where it is written, its frame, and its answers laid out for that frame. */
export interface FormatOutput {
  output: string;
  frame: Frame;
  segments: Segment[];
  /** The end card laid out for this frame (issue 31), when the company has one. */
  endCard?: EndCard | undefined;
}

/** A filter-graph label (`[name]`) or an input's stream (`[2:v]`). */
const LABEL = /\[([^\]\s]+)\]/g;
const INPUT_STREAM = /^(\d+):([va])$/;

/**
 * A graph made for a run of its own, made part of a larger one: its labels get `prefix`, and each use of an
 * input's stream (`[i:v]`, `[i:a]`) takes the next copy of that stream from `take` (the split's outputs).
 */
export function relabelGraph(graph: string, prefix: string, take: (input: number, stream: 'v' | 'a') => string): string {
  return graph.replace(LABEL, (_, name: string) => {
    const stream = INPUT_STREAM.exec(name);
    return stream ? `[${take(Number(stream[1]), stream[2] as 'v' | 'a')}]` : `[${prefix}${name}]`;
  });
}

/** How many times a graph reads each input's stream (`[i:v]` → count), to split each stream that often. */
function inputUses(graph: string): Map<string, number> {
  const uses = new Map<string, number>();
  for (const [, name] of graph.matchAll(LABEL)) if (INPUT_STREAM.test(name!)) uses.set(name!, (uses.get(name!) ?? 0) + 1);
  return uses;
}

/**
 * The filter graph of several formats from one decode: each format's own graph (composeGraph) relabelled
 * `f{k}…`, its output `[f{k}v][f{k}a]`; before them, each input stream split into as many copies as the
 * formats read. Every format must hold the same answers in the same order (inputs 0 … n-1, the logo n).
 */
export function multiFormatGraph(o: { formats: FormatOutput[]; style: CardStyle; logo: boolean }): string {
  const graphs = o.formats.map((f) => composeGraph({ frame: f.frame, style: o.style, segments: f.segments, logo: o.logo, endCard: f.endCard }));
  const total = new Map<string, number>();
  for (const g of graphs) for (const [name, n] of inputUses(g)) total.set(name, (total.get(name) ?? 0) + n);
  const copyLabel = (name: string, i: number) => `in${name.replace(':', '')}_${i}`;
  const splits = [...total].map(([name, n]) => {
    const copies = Array.from({ length: n }, (_, i) => `[${copyLabel(name, i)}]`).join('');
    return `[${name}]${name.endsWith(':a') ? 'asplit' : 'split'}=${n}${copies}`;
  });
  const next = new Map<string, number>();
  const take = (input: number, stream: 'v' | 'a') => {
    const name = `${input}:${stream}`;
    const i = next.get(name) ?? 0;
    next.set(name, i + 1);
    return copyLabel(name, i);
  };
  return [...splits, ...graphs.map((g, k) => relabelGraph(g, `f${k}`, take))].join(';');
}

/**
 * The arguments of a multi-format run: the answers (each once), the logo, the joined graph and one encoded
 * output per format (the same encoding as a single render: H.264 High, AAC, faststart).
 */
export function multiFormatArgs(o: { formats: FormatOutput[]; style: CardStyle; logo?: string | undefined }): string[] {
  const first = o.formats[0];
  if (!first) throw new Error('multiFormatArgs needs at least one format');
  const logo = o.formats.some((f) => drawsLogo({ logo: o.logo, segments: f.segments, endCard: f.endCard })) ? o.logo : undefined;
  const graph = multiFormatGraph({ formats: o.formats, style: o.style, logo: Boolean(logo) });
  return [
    ...composeInputArgs(first.segments, logo),
    '-filter_complex',
    graph,
    ...o.formats.flatMap((f, k) => ['-map', `[f${k}v]`, '-map', `[f${k}a]`, ...ENCODE, f.output]),
  ];
}

/**
 * The originals of several formats from one decode of the video: cropped and scaled for each format
 * (exportArgs' steps), the sound copied into each.
 */
export function multiExportArgs(o: {
  input: string;
  source: { width: number; height: number };
  outputs: { output: string; crop: CropPixels; platform: TExportPlatform }[];
  trim?: { start: number; end: number } | undefined;
}): string[] {
  const n = o.outputs.length;
  const split = `[0:v]split=${n}${o.outputs.map((_, k) => `[s${k}]`).join('')}`;
  const chains = o.outputs.map((out, k) => {
    const steps = [...fitSteps({ source: o.source, crop: out.crop, frame: exportFrame(out.platform), background: '#000000' }), 'setsar=1', 'format=yuv420p'];
    return `[s${k}]${steps.join(',')}[v${k}]`;
  });
  return [
    ...trimInputArgs(o.trim),
    '-i',
    o.input,
    '-filter_complex',
    [split, ...chains].join(';'),
    ...o.outputs.flatMap((out, k) => ['-map', `[v${k}]`, '-map', '0:a:0?', '-c:v', 'libx264', '-preset', 'superfast', '-crf', '23', ...originalAudioArgs(o.trim), '-movflags', '+faststart', out.output]),
  ];
}
