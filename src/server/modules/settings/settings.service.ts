import { createHash, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import {
  LOGO_TOO_MANY_PIXELS_MESSAGE,
  type TProfileResponse,
  type TUploadLogoResponse,
  type TVideoStyleFields,
  type TVideoStyleSettings,
  ZCaptionStyle,
  ZLogoPlate,
} from '../../../contract/api/settings.schema.js';
import { LOGO_MAX_BYTES } from '../../../contract/constants.js';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { companies, videoStyleSettings } from '../../db/schema.js';
import { uniqueViolation } from '../../lib/db-errors.js';
import { AppError } from '../../lib/errors.js';
import { imageDimensions, withinLogoLimits } from '../../media/logo-image.js';
import { signMediaPath } from '../../media/signed-urls.js';
import { abandonPendingObjects, confirmPendingObjects, reservePendingObjects } from '../../storage/pending-objects.js';
import { findUserById, toUser } from '../auth/auth.service.js';
import { cancelLogoJobs, enqueueJob, pendingLogoJob } from '../jobs/jobs.service.js';
import { defaultStyleRow } from './default-style.js';

/** The company logo's public address: logos are shown in e-mails and to customers, so they are not signed. */
export function logoUrl(ctx: AppContext, company: { id: string; logoKey: string | null }): string | null {
  if (!company.logoKey) return null;
  const version = createHash('sha256').update(company.logoKey).digest('hex').slice(0, 10);
  return `${ctx.config.appUrl}/api/public/logo/${company.id}?v=${version}`;
}

type StyleRow = typeof videoStyleSettings.$inferSelect;

async function styleRow(db: DbOrTx, companyId: string): Promise<StyleRow> {
  const [row] = await db.select().from(videoStyleSettings).where(eq(videoStyleSettings.companyId, companyId));
  if (row) return row;
  const [created] = await db.insert(videoStyleSettings).values(defaultStyleRow(companyId)).onConflictDoNothing().returning();
  return created ?? (await db.select().from(videoStyleSettings).where(eq(videoStyleSettings.companyId, companyId)))[0]!;
}

type LogoFacts = { id: string; logoKey: string | null; logoLuminance: number | null; logoAspect: number | null };

/**
 * The logo being prepared: the company's latest `logo` job while it is queued or running (a later
 * upload wins, as in the job), with the signed address of its upload, as the upload answered.
 */
async function pendingLogo(ctx: AppContext, companyId: string): Promise<{ jobId: string; url: string } | null> {
  const latest = await pendingLogoJob(ctx.db, companyId);
  if (!latest) return null;
  const sourceKey = (latest.params as { sourceKey?: unknown } | null)?.sourceKey;
  if (typeof sourceKey !== 'string' || sourceKey === '') return null;
  return { jobId: latest.id, url: `${ctx.config.appUrl}${signMediaPath(ctx.secrets.jwt, sourceKey)}` };
}

/**
 * `logo_url` is the logo as the company sees it: the one being prepared, else the stored one, else ''
 * (no logo). A client that reads the settings while a logo is prepared and writes them back keeps it.
 */
function toSettings(ctx: AppContext, row: StyleRow, company: LogoFacts, pending: { jobId: string; url: string } | null): TVideoStyleSettings {
  const logo = logoUrl(ctx, company);
  return {
    font_size_question: row.fontSizeQuestion,
    font_color_question: row.fontColorQuestion,
    font_style_question: row.fontStyleQuestion as TVideoStyleSettings['font_style_question'],
    font_bold_question: row.fontBoldQuestion,
    font_size_subtitle: row.fontSizeSubtitle,
    font_color_subtitle: row.fontColorSubtitle,
    font_style_subtitle: row.fontStyleSubtitle as TVideoStyleSettings['font_style_subtitle'],
    font_bold_subtitle: row.fontBoldSubtitle,
    subtitle_border: row.subtitleBorder,
    logo_url: pending?.url ?? logo ?? '',
    background_color: row.backgroundColor,
    show_logo_in_videos: row.showLogoInVideos,
    company_logo_url: logo,
    logo_plate: ZLogoPlate.catch('auto').parse(row.logoPlate),
    lower_third: row.lowerThird,
    end_card: row.endCard,
    end_card_text: row.endCardText,
    end_card_address: row.endCardAddress,
    caption_style: ZCaptionStyle.catch('line').parse(row.captionStyle),
    prepare_drafts: row.prepareDrafts,
    logo_luminance: logo ? company.logoLuminance : null,
    logo_aspect: logo ? company.logoAspect : null,
    ...(pending ? { logo_job_id: pending.jobId } : {}),
  };
}

async function company(ctx: AppContext, companyId: string) {
  const [row] = await ctx.db.select().from(companies).where(eq(companies.id, companyId));
  if (!row) throw new AppError('not_found', { message: 'Your company no longer exists.' });
  return row;
}

export async function getSettings(ctx: AppContext, companyId: string): Promise<TVideoStyleSettings> {
  const c = await company(ctx, companyId);
  return toSettings(ctx, await styleRow(ctx.db, companyId), c, await pendingLogo(ctx, companyId));
}

/**
 * Saves the style. `logo_url: ''` removes the logo (and cancels one being prepared); any other value
 * keeps the logo as it is, stored or being prepared: `logo_url` is never a way to set one (decision 177).
 */
export async function updateSettings(ctx: AppContext, companyId: string, fields: TVideoStyleFields): Promise<TVideoStyleSettings> {
  await styleRow(ctx.db, companyId);
  await ctx.db
    .update(videoStyleSettings)
    .set({
      fontSizeQuestion: fields.font_size_question,
      fontColorQuestion: fields.font_color_question.toLowerCase(),
      fontStyleQuestion: fields.font_style_question,
      fontBoldQuestion: fields.font_bold_question,
      fontSizeSubtitle: fields.font_size_subtitle,
      fontColorSubtitle: fields.font_color_subtitle.toLowerCase(),
      fontStyleSubtitle: fields.font_style_subtitle,
      fontBoldSubtitle: fields.font_bold_subtitle,
      subtitleBorder: fields.subtitle_border,
      backgroundColor: fields.background_color.toLowerCase(),
      showLogoInVideos: fields.show_logo_in_videos,
      ...(fields.logo_plate ? { logoPlate: fields.logo_plate } : {}),
      ...(fields.lower_third === undefined ? {} : { lowerThird: fields.lower_third }),
      ...(fields.end_card === undefined ? {} : { endCard: fields.end_card }),
      ...(fields.end_card_text === undefined ? {} : { endCardText: fields.end_card_text }),
      ...(fields.end_card_address === undefined ? {} : { endCardAddress: fields.end_card_address }),
      ...(fields.caption_style ? { captionStyle: fields.caption_style } : {}),
      ...(fields.prepare_drafts === undefined ? {} : { prepareDrafts: fields.prepare_drafts }),
      updatedAt: new Date(),
    })
    .where(eq(videoStyleSettings.companyId, companyId));
  if (fields.logo_url === '') {
    await ctx.db.update(companies).set({ logoKey: null, logoLuminance: null, logoAspect: null, updatedAt: new Date() }).where(eq(companies.id, companyId));
    // A logo still being prepared is removed too: its job records nothing once cancelled.
    await cancelLogoJobs(ctx.db, companyId);
  }
  return getSettings(ctx, companyId);
}

export async function getProfile(ctx: AppContext, userId: string): Promise<TProfileResponse> {
  const found = await findUserById(ctx.db, userId);
  if (!found) throw new AppError('unauthorized', { message: 'This account no longer exists.', errorKey: 'userNotFound' });
  const user = toUser(found.user, found.company);
  return { user: { ...user, company: { id: found.company.id, name: found.company.name, approval_required: found.company.approvalRequired } } };
}

export async function updateCompany(ctx: AppContext, input: { userId: string; companyId: string; name: string; mailLanguage: 'en' | 'fr' }): Promise<TProfileResponse> {
  await ctx.db
    .update(companies)
    .set({ name: input.name, mailLanguage: input.mailLanguage, updatedAt: new Date() })
    .where(eq(companies.id, input.companyId))
    .catch((error: unknown) => {
      if (uniqueViolation(error) === 'companies_name_lower_uq') {
        throw new AppError('name_exists', { message: 'A company with this name already exists. Please choose another name.', field: 'company_name' });
      }
      throw error;
    });
  return getProfile(ctx, input.userId);
}

/** The image kinds we accept, recognised by their first bytes (never by the name or the declared type). */
export function sniffImage(head: Buffer): { type: string; extension: string } | null {
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return { type: 'image/png', extension: 'png' };
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return { type: 'image/jpeg', extension: 'jpg' };
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP') return { type: 'image/webp', extension: 'webp' };
  if (/^GIF8[79]a$/.test(head.subarray(0, 6).toString('latin1'))) return { type: 'image/gif', extension: 'gif' };
  return null;
}

const DAMAGED_MESSAGE = 'This image is damaged or incomplete. Please select another file.';

/**
 * POST /api/auth/upload-logo. The file is checked from its first bytes and its header only (its kind,
 * its size in pixels: a 16000×16000 PNG is 800 KB and 1 GB decoded), stored as it came, and a `logo`
 * job queued in the transaction that keeps the stored file; the worker decodes it into the normalised
 * copy that everything shows (logo.job.ts). The API process decodes nothing. The answer comes at once:
 * `logo_url` is a signed address of the upload, for the settings screen to show while the job runs,
 * and `jobId` the job to follow.
 */
export async function saveLogo(ctx: AppContext, input: { companyId: string; data: Buffer }): Promise<TUploadLogoResponse> {
  if (input.data.length > LOGO_MAX_BYTES) throw new AppError('payload_too_large', { message: 'File size must be less than 5MB' });
  const kind = sniffImage(input.data);
  if (!kind) throw new AppError('invalid_format', { message: 'Please select an image file (PNG, JPEG, WebP or GIF).' });
  const size = imageDimensions(input.data, kind.extension);
  if (!size) throw new AppError('invalid_format', { message: DAMAGED_MESSAGE });
  if (!withinLogoLimits(size)) throw new AppError('invalid_format', { message: LOGO_TOO_MANY_PIXELS_MESSAGE });
  await company(ctx, input.companyId);
  const sourceKey = `companies/${input.companyId}/logo/upload-${randomUUID()}.${kind.extension}`;
  // Recorded before the upload: should this process die before the commit, another removes the object.
  await reservePendingObjects(ctx.db, ctx.processId, [sourceKey]);
  let jobId: string;
  try {
    await ctx.storage.put(sourceKey, input.data, kind.type);
    jobId = await ctx.database.transaction(async (executeSql, tx) => {
      await confirmPendingObjects(tx, [sourceKey]);
      const job = await enqueueJob(ctx, { tx, executeSql }, { companyId: input.companyId, kind: 'logo', params: { sourceKey } });
      return job.id;
    });
  } catch (error) {
    await abandonPendingObjects(ctx.db, ctx.storage, [sourceKey]);
    throw error;
  }
  return { logo_url: `${ctx.config.appUrl}${signMediaPath(ctx.secrets.jwt, sourceKey)}`, jobId };
}

/**
 * The company's logo as stored, for its public address: the normalised copy, or a logo stored before
 * logos were normalised as it is (its kind was checked when it was uploaded; a render normalises it in
 * the worker). Nothing is decoded here.
 */
export async function readLogo(ctx: AppContext, companyId: string) {
  const [c] = await ctx.db.select({ logoKey: companies.logoKey }).from(companies).where(eq(companies.id, companyId));
  if (!c?.logoKey) return null;
  const head = await ctx.storage.head(c.logoKey);
  if (!head) return null;
  return { stream: await ctx.storage.get(c.logoKey), ...head };
}
