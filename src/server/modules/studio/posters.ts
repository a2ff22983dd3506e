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
 * Where the poster frame is taken (issue 27 item 12, decision 168): a moment into the customer's answer,
 * never the intro card (a wall of identical cards tells nothing) nor the answer's first frames (often
 * black, or blurred while the camera settles). `answerStart` is where the answer begins in the video:
 * CARD_SECONDS for a video that starts with its card, 0 otherwise.
 */
export const POSTER_INTO_ANSWER = 1.5;

/**
 * The automatic poster time of a video of `duration` seconds whose answer starts at `answerStart`:
 * POSTER_INTO_ANSWER into the answer, or a third of a shorter answer; inside the video whatever it holds.
 */
export function posterTime(answerStart: number, duration: number): number {
  const start = Math.max(0, answerStart);
  if (!Number.isFinite(duration) || duration <= 0) return start + POSTER_INTO_ANSWER;
  if (duration <= start) return duration / 2;
  return start + Math.min(POSTER_INTO_ANSWER, (duration - start) / 3);
}

/** A chosen moment kept inside the video (a frame before its very end, which ffmpeg may not decode). */
export function clampPosterTime(seconds: number, duration: number): number {
  if (!Number.isFinite(duration) || duration <= 0) return Math.max(0, seconds);
  return Math.max(0, Math.min(seconds, Math.max(0, duration - 0.1)));
}

export interface WritePosterInput {
  /** The rendered file (`output.mp4` in the render's work folder). */
  video: string;
  /** The storage key of the poster: posterKeyFor(the output's key). */
  key: string;
  /** Where the answer starts in the video (seconds): the automatic frame is taken a moment after it. */
  answerStart?: number;
  /** A moment chosen by the company (seconds), used instead of the automatic one. */
  seconds?: number;
}

/**
 * Extracts one frame of the video as a JPEG (full size, quality 3), writes it beside the video in the
 * work folder and uploads it under `key`. Returns the key, the time of the frame and the video's
 * duration. A failure rejects like any step of the render, so the job is retried and a finished render
 * always has its poster.
 */
export async function writePoster(ctx: AppContext, { video, key, answerStart = 0, seconds }: WritePosterInput): Promise<{ key: string; seconds: number; duration: number }> {
  const info = await ctx.media.probe(video);
  const file = path.join(path.dirname(video), `${path.basename(video, path.extname(video))}-poster.jpg`);
  const at = seconds === undefined ? posterTime(answerStart, info.durationSeconds) : clampPosterTime(seconds, info.durationSeconds);
  await ctx.media.runFfmpeg(['-y', '-ss', at.toFixed(2), '-i', video, '-frames:v', '1', '-q:v', '3', '-update', '1', file], { failOnErrors: 'all' });
  await ctx.storage.put(key, createReadStream(file), 'image/jpeg');
  return { key, seconds: at, duration: info.durationSeconds };
}
