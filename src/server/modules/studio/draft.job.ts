import { createReadStream } from 'node:fs';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/client.js';
import { testimonialRequests } from '../../db/schema.js';
import { CARD_SECONDS, mergedFrameSize, type Frame } from '../../media/render.js';
import { JobFailure, reportProgress, type JobRow } from '../jobs/jobs.service.js';
import { transcribeMissing } from '../transcription/transcription.service.js';
import { posterKeyFor, writePoster } from './posters.js';
import { answersOf, composeAnswers, evenDims, keptOf, type Recorder } from './render.job.js';

type RequestRow = typeof testimonialRequests.$inferSelect;

/**
 * The draft's render (issue 31, decision 206), run by renderOutput like every render: the answers the
 * customer did not remove, in order, each behind its intro card, transcribed first when they have no
 * transcription and the engine knows the request's language (the transcription service's own run), then
 * composed in one ffmpeg run with the subtitles there are, in the company's style, at the merged
 * video's size. The answers were loudness-normalised when they were prepared (−14 LUFS), and the
 * composition keeps their level. Its key holds the job's id; the row's `draft_key` moves to it when the
 * job completes, with the answers it holds, whether it is subtitled and its length in the job's result.
 */
export async function renderDraft(ctx: AppContext, job: JobRow, request: RequestRow, dir: string, output: string): Promise<Recorder> {
  if (request.consentWithdrawnAt) throw new JobFailure('source_missing', {}, 'the customer withdrew their consent');
  const answers = await answersOf(ctx, job.requestId);
  if (!answers.length) throw new JobFailure('source_missing', {}, 'the testimonial has no answers');
  if (answers.some((a) => !a.videoKey)) throw new JobFailure('source_missing', {}, 'an answer is not prepared');
  await transcribeMissing(ctx, request, answers);
  await reportProgress(ctx, job.id, 5);
  const frame: Frame = { ...mergedFrameSize(answers.map((a) => evenDims(a.width, a.height))), kind: 'answer' };
  const { subtitled } = await composeAnswers(ctx, job, answers, { formats: [{ frame, output }], dir, cards: true, subtitles: true });
  const key = `companies/${job.companyId}/requests/${job.requestId}/draft-${job.id}.mp4`;
  await ctx.storage.put(key, createReadStream(output), 'video/mp4');
  const { duration } = await writePoster(ctx, { video: output, key: posterKeyFor(key), answerStart: CARD_SECONDS });
  const record = async (tx: Db) => {
    await tx.update(testimonialRequests).set({ draftKey: key, updatedAt: new Date() }).where(eq(testimonialRequests.id, job.requestId));
    return key;
  };
  // The kept parts of trimmed answers (decision 201): a publication of the draft lays its captions on them.
  return { record, responseIds: answers.map((a) => a.id), kept: keptOf(answers), result: { subtitled, durationSeconds: duration } };
}
