import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { and, eq } from 'drizzle-orm';
import type { TCropFocusResponse } from '../../../contract/api/studio.schema.js';
import type { AppContext } from '../../context.js';
import { testimonialRequests, testimonialResponses } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { motionCentre, motionFocusArgs } from '../../media/motion-focus.js';
import { refuseRemoved, refuseWithdrawn } from '../consent/control.js';

/**
 * The smart crop's proposal for an answer of the company (issue 31, decision 200): the centre of motion
 * of its prepared video's first seconds. Read like the studio's calls: another company's answer is not
 * found, a locked testimonial is refused, a withdrawn testimonial or a removed answer too.
 */
export async function cropFocus(ctx: AppContext, companyId: string, responseId: string): Promise<TCropFocusResponse> {
  const [row] = await ctx.db.select().from(testimonialResponses).where(and(eq(testimonialResponses.id, responseId), eq(testimonialResponses.companyId, companyId)));
  if (!row) throw new AppError('not_found', { message: 'This answer does not exist or was deleted.' });
  const [request] = await ctx.db.select().from(testimonialRequests).where(and(eq(testimonialRequests.id, row.requestId), eq(testimonialRequests.companyId, companyId)));
  if (!request) throw new AppError('not_found', { message: 'This answer does not exist or was deleted.' });
  if (!request.paid) throw new AppError('no_permission', { message: 'Unlock this testimonial (one credit) before editing its videos.' });
  refuseWithdrawn(request);
  refuseRemoved([row]);
  if (!row.videoKey || !(await ctx.storage.head(row.videoKey))) throw new AppError('conflict', { message: 'This answer is still being prepared. Try again in a minute.' });
  await mkdir(ctx.tmpDir, { recursive: true });
  const dir = await mkdtemp(path.join(ctx.tmpDir, 'focus-'));
  try {
    const input = path.join(dir, 'answer.mp4');
    await pipeline(await ctx.storage.get(row.videoKey), createWriteStream(input));
    const output = path.join(dir, 'motion.gray');
    await ctx.media.runFfmpeg(motionFocusArgs(input, output));
    return { focus: motionCentre(await readFile(output)) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
