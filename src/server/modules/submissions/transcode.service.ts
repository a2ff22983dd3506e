import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { testimonialResponses, type RenderState } from '../../db/schema.js';
import { ANSWER_INPUT_LIMITS } from '../../media/answer-limits.js';
import { probe, runFfmpeg } from '../../media/ffmpeg.js';

const state = (phase: RenderState['phase'], progress: number, error: string | null = null): RenderState => ({
  phase,
  progress,
  error,
  jobId: null,
  updatedAt: new Date().toISOString(),
});

/**
 * The answer as the browser plays everywhere: H.264 (even dimensions, 30 fps at most) and AAC in an
 * MP4 with faststart, which also gives a browser WebM a real duration; plus a poster at 1 s. A retry
 * finds the work done and stops; outputs appear under new keys only once complete. The input is read
 * under ANSWER_INPUT_LIMITS, whatever the upload checks let through.
 */
export async function transcodeAnswer(ctx: AppContext, responseId: string): Promise<void> {
  const [row] = await ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, responseId)).limit(1);
  if (!row || (row.videoKey && row.posterKey)) return;

  await ctx.db
    .update(testimonialResponses)
    .set({ renderState: { ...row.renderState, transcode: state('rendering', 10) }, updatedAt: new Date() })
    .where(eq(testimonialResponses.id, responseId));

  await mkdir(ctx.tmpDir, { recursive: true });
  const dir = await mkdtemp(path.join(ctx.tmpDir, 'transcode-'));
  try {
    const input = path.join(dir, `input${path.extname(row.originalKey)}`);
    await pipeline(await ctx.storage.get(row.originalKey), createWriteStream(input));
    const output = path.join(dir, 'answer.mp4');
    const poster = path.join(dir, 'poster.jpg');
    await runFfmpeg([
      ...ANSWER_INPUT_LIMITS,
      '-i', input,
      '-map', '0:v:0', '-map', '0:a:0',
      '-vf', "scale='trunc(min(iw,1920)/2)*2':'trunc(ow/dar/2)*2',fps=fps='min(source_fps,30)',format=yuv420p",
      '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23',
      '-c:a', 'aac', '-b:a', '128k', '-ac', '2', '-ar', '48000',
      '-movflags', '+faststart',
      output,
    ]);
    const info = await probe(output);
    const at = Math.min(1, Math.max(0, info.durationSeconds / 2));
    await runFfmpeg(['-ss', at.toFixed(2), '-i', output, '-frames:v', '1', '-q:v', '3', poster]);

    const base = path.posix.dirname(row.originalKey);
    const videoKey = `${base}/answer.mp4`;
    const posterKey = `${base}/poster.jpg`;
    await ctx.storage.put(videoKey, createReadStream(output), 'video/mp4');
    await ctx.storage.put(posterKey, createReadStream(poster), 'image/jpeg');
    await ctx.db
      .update(testimonialResponses)
      .set({
        videoKey,
        posterKey,
        durationSeconds: info.durationSeconds,
        width: info.video?.width ?? row.width,
        height: info.video?.height ?? row.height,
        renderState: { ...row.renderState, transcode: state('ready', 100) },
        updatedAt: new Date(),
      })
      .where(eq(testimonialResponses.id, responseId));
  } catch (error) {
    await ctx.db
      .update(testimonialResponses)
      .set({ renderState: { ...row.renderState, transcode: state('failed', 0, error instanceof Error ? error.message.slice(0, 500) : 'failed') } })
      .where(eq(testimonialResponses.id, responseId));
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
