import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { and, eq, isNull } from 'drizzle-orm';
import type { TSetPosterResponse } from '../../../contract/api/publications.schema.js';
import type { AppContext } from '../../context.js';
import { publications } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { writePoster } from '../studio/posters.js';
import { assertPublicationUsable } from './publications.service.js';
import { clock } from '../../../contract/clock.js';

/**
 * A publication's poster, chosen by the company (issue 27 item 12, decision 168): a moment of the
 * published video, or null for the automatic frame a moment into the answer. The frame is taken from
 * the published video itself and stored under the publication's own key, so the render's poster (which
 * the dashboard shows) is left alone; the row then points at it in one update, and the previous chosen
 * poster is deleted. A failure leaves the row and its poster as they were.
 */

/** The key of a poster chosen for a publication (a new one each time: a cached old one is never served for it). */
const chosenPosterKey = (companyId: string, id: string) => `companies/${companyId}/publications/${id}/poster-${randomUUID()}.jpg`;
const isChosenPoster = (key: string | null, companyId: string, id: string): key is string =>
  Boolean(key?.startsWith(`companies/${companyId}/publications/${id}/poster-`));

export async function setPublicationPoster(ctx: AppContext, input: { companyId: string; id: string; seconds: number | null }): Promise<TSetPosterResponse> {
  const [row] = await ctx.db
    .select()
    .from(publications)
    .where(and(eq(publications.id, input.id), eq(publications.companyId, input.companyId), isNull(publications.unpublishedAt)));
  if (!row) throw new AppError('not_found', { message: 'This publication does not exist or was taken down.' });
  await assertPublicationUsable(ctx.db, input.companyId, [row.id]);
  if (!(await ctx.storage.head(row.videoKey))) throw new AppError('conflict', { message: 'The video of this publication is missing: publish it again.' });

  await mkdir(ctx.tmpDir, { recursive: true });
  const dir = await mkdtemp(path.join(ctx.tmpDir, 'poster-'));
  const key = chosenPosterKey(row.companyId, row.id);
  let stored = false;
  try {
    const video = path.join(dir, 'video.mp4');
    await pipeline(await ctx.storage.get(row.videoKey), createWriteStream(video));
    const { durationSeconds } = await ctx.media.probe(video);
    const duration = Number.isFinite(durationSeconds) && durationSeconds > 0 ? durationSeconds : null;
    if (input.seconds !== null && duration !== null && input.seconds > duration) {
      throw new AppError('invalid_data', { reason: 'poster_outside_video', params: { duration: clock(duration) }, field: 'seconds' });
    }
    const answerStart = row.captionParts[0]?.offset ?? 0;
    const made = await writePoster(ctx, { video, key, ...(input.seconds === null ? { answerStart } : { seconds: input.seconds }) });
    stored = true;
    const posterSeconds = input.seconds === null ? null : Math.round(made.seconds * 100) / 100;
    const durationValue = duration ?? row.durationSeconds;
    const done = await ctx.db
      .update(publications)
      .set({ posterKey: key, posterSeconds, durationSeconds: durationValue })
      .where(and(eq(publications.id, row.id), eq(publications.companyId, input.companyId), isNull(publications.unpublishedAt)))
      .returning({ id: publications.id });
    if (!done.length) throw new AppError('not_found', { message: 'This publication does not exist or was taken down.' });
    stored = false; // the row points at it now
    if (isChosenPoster(row.posterKey, row.companyId, row.id)) await ctx.storage.delete(row.posterKey).catch(() => undefined);
    return { posterSeconds, durationSeconds: durationValue };
  } finally {
    if (stored) await ctx.storage.delete(key).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}
