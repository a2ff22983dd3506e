import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { TProfileResponse, TVideoStyleFields, TVideoStyleSettings } from '../../../contract/api/settings.schema.js';
import { LOGO_MAX_BYTES } from '../../../contract/constants.js';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { companies, videoStyleSettings } from '../../db/schema.js';
import { uniqueViolation } from '../../lib/db-errors.js';
import { AppError } from '../../lib/errors.js';
import { readErrors } from '../../media/ffmpeg.js';
import { findUserById, toUser } from '../auth/auth.service.js';

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
  const [created] = await db.insert(videoStyleSettings).values({ companyId }).onConflictDoNothing().returning();
  return created ?? (await db.select().from(videoStyleSettings).where(eq(videoStyleSettings.companyId, companyId)))[0]!;
}

function toSettings(ctx: AppContext, row: StyleRow, company: { id: string; logoKey: string | null }): TVideoStyleSettings {
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
    logo_url: logo ?? '',
    background_color: row.backgroundColor,
    show_logo_in_videos: row.showLogoInVideos,
    company_logo_url: logo,
  };
}

async function company(ctx: AppContext, companyId: string) {
  const [row] = await ctx.db.select().from(companies).where(eq(companies.id, companyId));
  if (!row) throw new AppError('not_found', { message: 'Your company no longer exists.' });
  return row;
}

export async function getSettings(ctx: AppContext, companyId: string): Promise<TVideoStyleSettings> {
  const c = await company(ctx, companyId);
  return toSettings(ctx, await styleRow(ctx.db, companyId), c);
}

/** Saves the style; `logo_url: ''` removes the logo, any other value keeps the uploaded one. */
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
      updatedAt: new Date(),
    })
    .where(eq(videoStyleSettings.companyId, companyId));
  if (fields.logo_url === '') await ctx.db.update(companies).set({ logoKey: null, updatedAt: new Date() }).where(eq(companies.id, companyId));
  return getSettings(ctx, companyId);
}

export async function getProfile(ctx: AppContext, userId: string): Promise<TProfileResponse> {
  const found = await findUserById(ctx.db, userId);
  if (!found) throw new AppError('unauthorized', { message: 'This account no longer exists.', errorKey: 'userNotFound' });
  const user = toUser(found.user, found.company);
  return { user: { ...user, company: { id: found.company.id, name: found.company.name } } };
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

/** Decodes the image with ffmpeg: a file with a valid header but cut or corrupt content is refused. */
async function imageReadsCleanly(ctx: AppContext, data: Buffer, extension: string): Promise<boolean> {
  await mkdir(ctx.tmpDir, { recursive: true });
  const dir = await mkdtemp(path.join(ctx.tmpDir, 'logo-'));
  try {
    const file = path.join(dir, `logo.${extension}`);
    await writeFile(file, data);
    return (await readErrors(file, 'decode')).length === 0;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function saveLogo(ctx: AppContext, input: { companyId: string; data: Buffer }): Promise<{ logo_url: string }> {
  if (input.data.length > LOGO_MAX_BYTES) throw new AppError('payload_too_large', { message: 'File size must be less than 5MB' });
  const kind = sniffImage(input.data);
  if (!kind) throw new AppError('invalid_format', { message: 'Please select an image file (PNG, JPEG, WebP or GIF).' });
  if (!(await imageReadsCleanly(ctx, input.data, kind.extension))) {
    throw new AppError('invalid_format', { message: 'This image is damaged or incomplete. Please select another file.' });
  }
  const c = await company(ctx, input.companyId);
  const key = `companies/${input.companyId}/logo/${createHash('sha256').update(input.data).digest('hex').slice(0, 16)}.${kind.extension}`;
  await ctx.storage.put(key, input.data, kind.type);
  await ctx.db.update(companies).set({ logoKey: key, updatedAt: new Date() }).where(eq(companies.id, input.companyId));
  if (c.logoKey && c.logoKey !== key) await ctx.storage.delete(c.logoKey).catch(() => undefined);
  return { logo_url: logoUrl(ctx, { id: c.id, logoKey: key })! };
}

export async function readLogo(ctx: AppContext, companyId: string) {
  const [c] = await ctx.db.select({ logoKey: companies.logoKey }).from(companies).where(eq(companies.id, companyId));
  if (!c?.logoKey) return null;
  const head = await ctx.storage.head(c.logoKey);
  if (!head) return null;
  return { stream: await ctx.storage.get(c.logoKey), ...head };
}
