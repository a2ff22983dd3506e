import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { LOGO_MAX_BYTES, LOGO_PIXEL_LIMITS } from '../../../contract/constants.js';
import type { AppContext } from '../../context.js';
import { companies, jobs } from '../../db/schema.js';
import { imageDimensions, measureLogo, normaliseLogo, withinLogoLimits, type LogoMeasure } from '../../media/logo-image.js';
import { abandonPendingObjects, confirmPendingObjects, reservePendingObjects } from '../../storage/pending-objects.js';
import { completeJob, JobFailure, runAnyJob, type RunMeta } from '../jobs/jobs.service.js';
import { sniffImage } from './settings.service.js';

/**
 * The worker's side of the company logo (issue 16: an API process decodes no picture). The upload call
 * checks the file from its header only (kind, pixel size), stores it as it came and queues a `logo`
 * job; this handler decodes it with ffmpeg into the normalised copy that renders, e-mails and pages
 * show, and points the company at it. Logos stored before logos were normalised are normalised here
 * too, when a render needs them (`normalisedLogoKey`, called by the studio's renders in the worker).
 */

/** What the upload call queues: the stored upload. */
export const ZLogoJobParams = z.object({ sourceKey: z.string().min(1) });

/**
 * Only the normalised copy of a logo is shown (a PNG at most LOGO_PIXEL_LIMITS.storedSide on its long
 * side). Its key ends so; a key without it is a logo stored before logos were normalised.
 */
const NORMALISED_SUFFIX = `-${LOGO_PIXEL_LIMITS.storedSide}.png`;
export const isNormalisedLogoKey = (key: string) => key.endsWith(NORMALISED_SUFFIX);

/** ffmpeg ran and refused the picture (an error in its output, or a non-zero exit): the same bytes never decode better. */
const decoderRefused = (error: unknown) => error instanceof Error && /^ffmpeg (reported an error|failed \(\d+\))/.test(error.message);

/**
 * Decodes the image's first picture into its normalised copy, with the measure of its opaque pixels
 * (decision 172; null when nothing is opaque). Throws JobFailure('logo_damaged') when
 * the picture does not decode cleanly (a valid header with cut or corrupt content); any other failure
 * (ffmpeg missing, killed, timed out) is thrown as is, to be tried again. Call only on pictures within
 * the limits.
 */
async function normalisedCopy(ctx: AppContext, data: Buffer, extension: string): Promise<{ png: Buffer; measure: LogoMeasure | null }> {
  await mkdir(ctx.tmpDir, { recursive: true });
  const dir = await mkdtemp(path.join(ctx.tmpDir, 'logo-'));
  try {
    const file = path.join(dir, `logo.${extension}`);
    const out = path.join(dir, 'normalised.png');
    await writeFile(file, data);
    try {
      await normaliseLogo(ctx.media, file, out);
    } catch (error) {
      if (decoderRefused(error)) throw new JobFailure('logo_damaged', {}, (error as Error).message);
      throw error;
    }
    const png = await readFile(out).catch(() => Buffer.alloc(0));
    if (png.length === 0) throw new JobFailure('logo_damaged', {}, 'ffmpeg wrote no picture');
    return { png, measure: await measureLogo(ctx.media, png, path.join(dir, 'measure')) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The company's columns for a logo's measure. */
const measured = (m: LogoMeasure | null) => ({ logoLuminance: m?.luminance ?? null, logoAspect: m?.aspect ?? null });

async function readAll(stream: Readable, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      stream.destroy();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * The upload checked again as the worker reads it from storage (kind and header size, as the upload
 * call did), whatever happened to it in between: one that no longer passes is damaged.
 */
function checkedPicture(data: Buffer | null): { data: Buffer; extension: string } {
  const kind = data ? sniffImage(data) : null;
  const size = data && kind ? imageDimensions(data, kind.extension) : null;
  if (!data || !kind || !size || !withinLogoLimits(size)) throw new JobFailure('logo_damaged', {}, 'the stored upload is not a picture within the limits');
  return { data, extension: kind.extension };
}

/**
 * A `logo` job: the upload `params.sourceKey` normalised, stored under a key of its own, and the
 * company pointed at it in the transaction that marks the job ready, unless a later upload (a newer
 * logo job) or a removal (which cancels the job) came meanwhile; its result says whether it applied.
 * The upload is deleted once the job is over, whatever the outcome. A damaged picture ends the job
 * `logo_damaged`, the company's logo unchanged.
 */
export async function normaliseUploadedLogo(ctx: AppContext, jobId: string, meta: RunMeta): Promise<void> {
  try {
    await runAnyJob(ctx, jobId, { attempt: meta.attempt }, async (job) => {
      const { sourceKey } = ZLogoJobParams.parse(job.params);
      if (!(await ctx.storage.head(sourceKey))) throw new JobFailure('source_missing', {}, `missing upload ${sourceKey}`);
      await mkdir(ctx.tmpDir, { recursive: true });
      const dir = await mkdtemp(path.join(ctx.tmpDir, 'logo-source-'));
      let picture: { data: Buffer; extension: string };
      try {
        const file = path.join(dir, 'upload');
        await pipeline(await ctx.storage.get(sourceKey), createWriteStream(file));
        const data = await readFile(file);
        picture = checkedPicture(data.length <= LOGO_MAX_BYTES ? data : null);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
      const { png, measure } = await normalisedCopy(ctx, picture.data, picture.extension);

      // Stored first (recorded as pending, so that a worker dying before the commit leaves nothing behind).
      const key = `companies/${job.companyId}/logo/${job.id}${NORMALISED_SUFFIX}`;
      await reservePendingObjects(ctx.db, ctx.processId, [key]);
      let outcome: { applied: boolean; previous: string | null };
      try {
        await ctx.storage.put(key, png, 'image/png');
        outcome = await ctx.database.transaction(async (_executeSql, tx) => {
          const [company] = await tx.select({ logoKey: companies.logoKey }).from(companies).where(eq(companies.id, job.companyId)).for('update');
          const [self] = await tx.select({ phase: jobs.phase }).from(jobs).where(eq(jobs.id, job.id));
          const [latest] = await tx
            .select({ id: jobs.id })
            .from(jobs)
            .where(and(eq(jobs.companyId, job.companyId), eq(jobs.kind, 'logo')))
            .orderBy(desc(jobs.createdAt), desc(jobs.id))
            .limit(1);
          // Cancelled by a removal of the logo (or gone with the company): nothing to record.
          if (!company || self?.phase !== 'running') return { applied: false, previous: null };
          const applied = latest?.id === job.id;
          if (applied) {
            await confirmPendingObjects(tx, [key]);
            await tx.update(companies).set({ logoKey: key, ...measured(measure), updatedAt: new Date() }).where(eq(companies.id, job.companyId));
          }
          await completeJob(tx, job.id, { outputKey: applied ? key : null, result: { applied } });
          return { applied, previous: company.logoKey };
        });
      } catch (error) {
        await abandonPendingObjects(ctx.db, ctx.storage, [key]);
        throw error;
      }
      if (!outcome.applied) await abandonPendingObjects(ctx.db, ctx.storage, [key]);
      else if (outcome.previous && outcome.previous !== key) await ctx.storage.delete(outcome.previous).catch(() => undefined);
    });
  } finally {
    // A job that is over (ready, failed for good, cancelled) no longer needs its upload.
    const [row] = await ctx.db.select({ phase: jobs.phase, params: jobs.params }).from(jobs).where(eq(jobs.id, jobId));
    const params = ZLogoJobParams.safeParse(row?.params);
    if (row && row.phase !== 'queued' && row.phase !== 'running' && params.success) {
      await ctx.storage.delete(params.data.sourceKey).catch(() => undefined);
    }
  }
}

const hashedKey = (companyId: string, png: Buffer) => `companies/${companyId}/logo/${createHash('sha256').update(png).digest('hex').slice(0, 16)}${NORMALISED_SUFFIX}`;

/**
 * A logo stored before logos were normalised (any size the upload allowed, up to 16000×16000 px)
 * turned into its normalised copy, once, on its first use by a render; the original is then deleted.
 * One beyond today's pixel limits is removed instead: decoding it would stall whatever shows it, so
 * the settings show no logo and the owner uploads one again. One that does not decode is shown
 * nowhere (and kept, in case the failure passes). Runs in the worker only.
 */
async function normaliseStoredLogo(ctx: AppContext, companyId: string, oldKey: string): Promise<string | null> {
  const head = await ctx.storage.head(oldKey);
  if (!head) return null;
  const data = await readAll(await ctx.storage.get(oldKey), LOGO_MAX_BYTES);
  const onlyIfStill = and(eq(companies.id, companyId), eq(companies.logoKey, oldKey));
  let picture: { data: Buffer; extension: string };
  try {
    picture = checkedPicture(data);
  } catch {
    const removed = await ctx.db.update(companies).set({ logoKey: null, logoLuminance: null, logoAspect: null, updatedAt: new Date() }).where(onlyIfStill).returning({ id: companies.id });
    if (removed.length) {
      await ctx.storage.delete(oldKey).catch(() => undefined);
      ctx.logger.warn({ companyId, key: oldKey }, 'A stored logo over the pixel limits was removed; the company must upload it again.');
    }
    return null;
  }
  let png: Buffer;
  let measure: LogoMeasure | null;
  try {
    ({ png, measure } = await normalisedCopy(ctx, picture.data, picture.extension));
  } catch (error) {
    ctx.logger.warn({ err: error, companyId, key: oldKey }, 'A stored logo does not decode; it is not shown.');
    return null;
  }
  const key = hashedKey(companyId, png);
  await ctx.storage.put(key, png, 'image/png');
  const moved = await ctx.db.update(companies).set({ logoKey: key, ...measured(measure), updatedAt: new Date() }).where(onlyIfStill).returning({ id: companies.id });
  if (moved.length) {
    await ctx.storage.delete(oldKey).catch(() => undefined);
    return key;
  }
  // The logo changed meanwhile (a new upload, or another process normalised it first): use what is stored now.
  const [now] = await ctx.db.select({ logoKey: companies.logoKey }).from(companies).where(eq(companies.id, companyId));
  if (now?.logoKey !== key) await ctx.storage.delete(key).catch(() => undefined);
  return now?.logoKey && isNormalisedLogoKey(now.logoKey) ? now.logoKey : null;
}

const normalising = new Map<string, Promise<string | null>>();

/**
 * The key of the company's normalised logo (normalising one stored before normalisation first), or
 * null. For the worker's renders only: it may run ffmpeg, which no API route does.
 */
export async function normalisedLogoKey(ctx: AppContext, company: { id: string; logoKey: string | null }): Promise<string | null> {
  const key = company.logoKey;
  if (!key) return null;
  if (isNormalisedLogoKey(key)) return key;
  let pending = normalising.get(key);
  if (!pending) {
    pending = normaliseStoredLogo(ctx, company.id, key).finally(() => normalising.delete(key));
    normalising.set(key, pending);
  }
  return pending;
}

/**
 * The luminance of a normalised logo uploaded before logos were measured (decision 172), measured
 * once, on its first use by a render, and stored with the company so that the settings' warning, the
 * share page and later renders know it too. Null when nothing in it is opaque or it cannot be read.
 * For the worker's renders only: it runs ffmpeg.
 */
export async function measuredLogoLuminance(ctx: AppContext, companyId: string, key: string): Promise<number | null> {
  const head = await ctx.storage.head(key);
  if (!head) return null;
  const png = await readAll(await ctx.storage.get(key), LOGO_MAX_BYTES);
  if (!png) return null;
  await mkdir(ctx.tmpDir, { recursive: true });
  const dir = await mkdtemp(path.join(ctx.tmpDir, 'logo-measure-'));
  let measure: LogoMeasure | null;
  try {
    measure = await measureLogo(ctx.media, png, path.join(dir, 'measure'));
  } catch (error) {
    ctx.logger.warn({ err: error, companyId, key }, 'A stored logo could not be measured; it is drawn without a plate.');
    return null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  await ctx.db
    .update(companies)
    .set({ ...measured(measure), updatedAt: new Date() })
    .where(and(eq(companies.id, companyId), eq(companies.logoKey, key)));
  return measure?.luminance ?? null;
}
