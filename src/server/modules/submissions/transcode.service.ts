import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { testimonialResponses } from '../../db/schema.js';
import { SAVE_LIMITS } from '../../../contract/api/public.schema.js';
import { answerArgs, answerTiming, canCopyVideo, loudnessMeasureArgs, parseLoudness, posterAndLoudnessArgs, posterArgs, type MeasuredLoudness } from '../../media/answer-prep.js';
import { z } from 'zod';
import type { ProbeResult, UploadProbe } from '../../media/ffmpeg.js';
import { startDraftIfReady } from '../studio/drafts.service.js';
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
 * What the save call read of an upload, handed to its transcode job (params `upload`): the worker does
 * not start ffprobe twice more to learn it again (each start of ffmpeg or ffprobe costs 0.2 CPU s here;
 * decision 147). A job without it (sent before, or retried from an old one) reads the file itself.
 */
const ZUploadReading = z.object({
  durationSeconds: z.number().nonnegative(),
  startSeconds: z.number(),
  video: z.object({
    index: z.number().int().nonnegative(),
    codec: z.string(),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    rotation: z.number(),
    pixFmt: z.string(),
    fps: z.number().nonnegative(),
  }),
  videoSpan: z.object({ start: z.number(), end: z.number() }),
});
type UploadReading = z.infer<typeof ZUploadReading>;

/** The reading of an upload to hand to its transcode job, or undefined when it lacks a picture or its packet span. */
export function uploadReading(probed: UploadProbe): UploadReading | undefined {
  if (!probed.video || !probed.videoSpan) return undefined;
  const parsed = ZUploadReading.safeParse({ durationSeconds: probed.durationSeconds, startSeconds: probed.startSeconds, video: probed.video, videoSpan: probed.videoSpan });
  return parsed.success ? parsed.data : undefined;
}

/**
 * The worker's preparation of one answer (a `transcode` job, issue 18): first a poster from the upload
 * (taken in the same ffmpeg run as the sound's loudness measurement), stored and shown at once; then
 * the playable answer: the picture copied when the browser already recorded H.264 (a remux, in a
 * fraction of a second), else encoded once; the sound laid on the
 * picture's clock and loudness-normalised in two passes (see media/answer-prep.ts); an MP4 with
 * faststart, which also gives a browser WebM a real duration. The answer's files are uploaded first;
 * then one transaction points the answer at them and marks the job ready, so the answer never names a
 * file that is not complete. A job delivered again once ready does nothing (runJob), and an answer that
 * already has its video completes the job without new work. The input is read under
 * ANSWER_INPUT_LIMITS, whatever the upload checks let through.
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
      const hash = createHash('sha256');
      await pipeline(
        await ctx.storage.get(row.originalKey),
        async function* (source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            hash.update(chunk);
            yield chunk;
          }
        },
        createWriteStream(input),
      );
      // The save call's reading holds for the very bytes it read; any other file is read again.
      const sameBytes = hash.digest('hex') === row.originalSha256;
      const reading = ZUploadReading.safeParse(sameBytes ? job.params.upload : undefined);
      const info = reading.success ? reading.data : await probeOriginal(ctx, input);
      const base = path.posix.dirname(row.originalKey);
      const posterKey = `${base}/poster.jpg`;

      const span = reading.success ? reading.data.videoSpan : await ctx.media.packetSpan(input, { streams: [info.video!.index], stopAbove: Infinity });
      const timing = answerTiming({ fileStart: info.startSeconds, span, maxSeconds: SAVE_LIMITS.maxDurationSeconds });
      const copyVideo = canCopyVideo(info.video);

      // The poster from the upload, before the answer: the company sees the answer's picture at once.
      // It is taken in the loudness measurement's run: one ffmpeg start fewer (docs/decisions/153). A
      // file read here without sound (the save call refuses those, so its reading always has sound)
      // gets its poster alone, as before, and then fails at the measurement as it always did.
      let measured: MeasuredLoudness | null | undefined;
      if (!row.posterKey) {
        const poster = path.join(dir, 'poster.jpg');
        const duration = row.durationSeconds ?? info.durationSeconds;
        if ('audio' in info && !info.audio) await ctx.media.runFfmpeg(posterArgs({ input, output: poster, duration }));
        else measured = parseLoudness(await ctx.media.runFfmpeg(posterAndLoudnessArgs({ input, poster, duration, timing })));
        await ctx.storage.put(posterKey, createReadStream(poster), 'image/jpeg');
        await ctx.db.update(testimonialResponses).set({ posterKey, updatedAt: new Date() }).where(eq(testimonialResponses.id, row.id));
      }
      await reportProgress(ctx, jobId, 10);

      if (measured === undefined) measured = parseLoudness(await ctx.media.runFfmpeg(loudnessMeasureArgs(input, timing)));
      await reportProgress(ctx, jobId, copyVideo ? 40 : 20);
      const output = path.join(dir, 'answer.mp4');
      await ctx.media.runFfmpeg(answerArgs({ input, output, timing, copyVideo, measured }));
      await reportProgress(ctx, jobId, 80);
      // A copied picture keeps its size, and the file lasts what the picture lasts: no need to read it again.
      const prepared = copyVideo
        ? { durationSeconds: timing.duration, video: { width: info.video!.width, height: info.video!.height } }
        : await ctx.media.probe(output);
      ctx.logger.info({ jobId, responseId: row.id, video: copyVideo ? 'copied' : 'encoded', loudness: measured?.integrated ?? null }, copyVideo ? 'answer remuxed' : 'answer transcoded');

      // Uploaded before the transaction: no upload streams while it holds a connection.
      const videoKey = `${base}/answer.mp4`;
      await ctx.storage.put(videoKey, createReadStream(output), 'video/mp4');
      await ctx.database.transaction(async (executeSql, tx) => {
        await tx
          .update(testimonialResponses)
          .set({
            videoKey,
            posterKey,
            durationSeconds: prepared.durationSeconds,
            width: prepared.video?.width ?? row.width,
            height: prepared.video?.height ?? row.height,
            updatedAt: new Date(),
          })
          .where(eq(testimonialResponses.id, row.id));
        await completeJob(tx, jobId, { outputKey: videoKey, result: { video: copyVideo ? 'copied' : 'encoded', loudness: measured?.integrated ?? null } });
        // Issue 31: the last answer prepared of a paid testimonial starts its draft, in this transaction.
        await startDraftIfReady(ctx, { tx, executeSql }, row.requestId);
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}
