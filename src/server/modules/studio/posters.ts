import { createReadStream } from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../../context.js';

/**
 * Posters of generated videos (issue 17): the enhanced answer, the merged videos and the exports. A
 * phone shows a video's poster until it plays (iOS Safari shows a black box without one, as it never
 * decodes a frame for `preload="metadata"`), so every render output gets a JPEG of one of its frames.
 *
 * The poster lives beside its video, under the video's key with `.jpg` for `.mp4` (posterKeyFor): the
 * API derives its address from the output key it already stores, with no column and no migration, and
 * a new render (a new key, holding its job id) brings its own poster. The render writes it after
 * `output.mp4` and before the transaction that points the row at the output, so a row never names a
 * video whose poster is still missing.
 */

/** The poster's key for a render output's key: `…/intro-<job>.mp4` → `…/intro-<job>.jpg`. */
export function posterKeyFor(outputKey: string): string {
  return /\.mp4$/i.test(outputKey) ? outputKey.replace(/\.mp4$/i, '.jpg') : `${outputKey}.jpg`;
}

/** The poster address beside a signed or unsigned output key (null without an output). */
export function posterKeyOf(outputKey: string | null | undefined): string | null {
  return outputKey ? posterKeyFor(outputKey) : null;
}

/**
 * Where the poster frame is taken, in seconds. A video that starts with the intro card: inside the card
 * (1.5 s, after its fade-in), so the question shows. Any other (a subtitled answer, an export of the
 * original): 1 s into the answer, past the first frames where the customer is still settling.
 */
export const POSTER_AT = { card: 1.5, answer: 1 } as const;

/** `at`, kept inside a video of `duration` seconds (a short clip: its middle). */
export function posterTime(at: number, duration: number): number {
  if (!Number.isFinite(duration) || duration <= 0) return Math.max(0, at);
  return Math.max(0, Math.min(at, duration / 2));
}

export interface WritePosterInput {
  /** The rendered file (`output.mp4` in the render's work folder). */
  video: string;
  /** The storage key of the poster: posterKeyFor(the output's key). */
  key: string;
  /** Seconds: POSTER_AT.card for a video that starts with the card, POSTER_AT.answer otherwise. */
  at: number;
}

/**
 * Extracts one frame of the rendered video as a JPEG (full size, quality 3), writes it beside the video
 * in the work folder and uploads it under `key`. Returns the key. A failure rejects like any step of the
 * render, so the job is retried and a finished render always has its poster.
 */
export async function writePoster(ctx: AppContext, { video, key, at }: WritePosterInput): Promise<string> {
  const info = await ctx.media.probe(video);
  const file = path.join(path.dirname(video), `${path.basename(video, path.extname(video))}-poster.jpg`);
  const seconds = posterTime(at, info.durationSeconds);
  await ctx.media.runFfmpeg(['-y', '-ss', seconds.toFixed(2), '-i', video, '-frames:v', '1', '-q:v', '3', '-update', '1', file], { failOnErrors: 'all' });
  await ctx.storage.put(key, createReadStream(file), 'image/jpeg');
  return key;
}
