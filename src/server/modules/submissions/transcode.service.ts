import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { testimonialResponses } from '../../db/schema.js';
import { ANSWER_INPUT_LIMITS } from '../../media/answer-limits.js';
import type { ProbeResult } from '../../media/ffmpeg.js';
import { completeJob, JobFailure, reportProgress, runJob, type RunMeta } from '../jobs/jobs.service.js';

/**
 * ffprobe could not read the upload at all (it ran and said so): the same bytes never read better, so
 * this is recorded at once as `unreadable_upload` instead of being retried. ffprobe missing, killed or
 * timed out says nothing about the file: that failure is retried like any other.
 */
async function probeOriginal(ctx: AppContext, file: string): Promise<ProbeResult> {
  let info: ProbeResult;
  try {
    info = await ctx.media.probe(file);
  } catch (error) {
    const e = error as { code?: unknown; killed?: boolean; message?: string };
    if (typeof e.code === 'number' && !e.killed) throw new JobFailure('unreadable_upload', {}, `ffprobe: ${String(e.message).slice(-300)}`);
    throw error;
  }
  if (!info.video) throw new JobFailure('unreadable_upload', {}, 'the upload has no video stream');
  return info;
}

/**
 * The worker's transcode of one answer (a `transcode` job): H.264 (even dimensions, 30 fps at most) and
 * AAC in an MP4 with faststart, which also gives a browser WebM a real duration, plus a poster at 1 s.
 * The files are uploaded first; then one transaction points the answer at them and marks the job
 * ready, so the answer never names a file that is not complete. A job delivered again once ready does
 * nothing (runJob), and an answer that already has its video completes the job without new work. The
 * input is read under ANSWER_INPUT_LIMITS, whatever the upload checks let through.
 *
 * Failures: an upload ffprobe cannot read is `unreadable_upload` at once (deterministic); anything else
 * (ffmpeg killed, storage down, disk full) goes back to the queue and ends `transcode_failed` after the
 * queue's retries.
 */
export async function transcodeAnswer(ctx: AppContext, jobId: string, meta: RunMeta): Promise<void> {
  await runJob(ctx, jobId, { attempt: meta.attempt }, async (job) => {
    const [row] = job.responseId ? await ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, job.responseId)).limit(1) : [];
    if (!row) throw new JobFailure('source_missing', {}, 'the answer no longer exists');
    if (row.videoKey && row.posterKey) {
      await completeJob(ctx.db, jobId, { outputKey: row.videoKey });
      return;
    }

    await mkdir(ctx.tmpDir, { recursive: true });
    const dir = await mkdtemp(path.join(ctx.tmpDir, 'transcode-'));
    try {
      const input = path.join(dir, `input${path.extname(row.originalKey)}`);
      await pipeline(await ctx.storage.get(row.originalKey), createWriteStream(input));
      await probeOriginal(ctx, input);
      await reportProgress(ctx, jobId, 10);
      const output = path.join(dir, 'answer.mp4');
      const poster = path.join(dir, 'poster.jpg');
      await ctx.media.runFfmpeg([
        ...ANSWER_INPUT_LIMITS,
        '-i', input,
        '-map', '0:v:0', '-map', '0:a:0',
        '-vf', "scale='trunc(min(iw,1920)/2)*2':'trunc(ow/dar/2)*2',fps=fps='min(source_fps,30)',format=yuv420p",
        '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23',
        '-c:a', 'aac', '-b:a', '128k', '-ac', '2', '-ar', '48000',
        '-movflags', '+faststart',
        output,
      ]);
      await reportProgress(ctx, jobId, 80);
      const info = await ctx.media.probe(output);
      const at = Math.min(1, Math.max(0, info.durationSeconds / 2));
      await ctx.media.runFfmpeg(['-ss', at.toFixed(2), '-i', output, '-frames:v', '1', '-q:v', '3', poster]);

      // Uploaded before the transaction: no upload streams while it holds a connection.
      const base = path.posix.dirname(row.originalKey);
      const videoKey = `${base}/answer.mp4`;
      const posterKey = `${base}/poster.jpg`;
      await ctx.storage.put(videoKey, createReadStream(output), 'video/mp4');
      await ctx.storage.put(posterKey, createReadStream(poster), 'image/jpeg');
      await ctx.database.transaction(async (_executeSql, tx) => {
        await tx
          .update(testimonialResponses)
          .set({
            videoKey,
            posterKey,
            durationSeconds: info.durationSeconds,
            width: info.video?.width ?? row.width,
            height: info.video?.height ?? row.height,
            updatedAt: new Date(),
          })
          .where(eq(testimonialResponses.id, row.id));
        await completeJob(tx, jobId, { outputKey: videoKey });
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}
