import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { LOGO_TOO_MANY_PIXELS_MESSAGE, type TProfileResponse, type TVideoStyleFields, type TVideoStyleSettings } from '../../../contract/api/settings.schema.js';
import { LOGO_MAX_BYTES, LOGO_PIXEL_LIMITS } from '../../../contract/constants.js';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { companies, videoStyleSettings } from '../../db/schema.js';
import { uniqueViolation } from '../../lib/db-errors.js';
import { AppError } from '../../lib/errors.js';
import { imageDimensions, normaliseLogo, withinLogoLimits } from '../../media/logo-image.js';
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

/**
 * Only the normalised copy of a logo is stored (a PNG at most LOGO_PIXEL_LIMITS.storedSide on its long
 * side), and renders, e-mails and pages all show it. Its key ends so; a key without it is a logo stored
 * before logos were normalised.
 */
const NORMALISED_SUFFIX = `-${LOGO_PIXEL_LIMITS.storedSide}.png`;
export const isNormalisedLogoKey = (key: string) => key.endsWith(NORMALISED_SUFFIX);

/**
 * Decodes the image's first picture with ffmpeg into its normalised copy; null when it does not decode
 * cleanly (a valid header with cut or corrupt content). Call only on pictures within the limits.
 */
async function normalisedCopy(ctx: AppContext, data: Buffer, extension: string): Promise<Buffer | null> {
  await mkdir(ctx.tmpDir, { recursive: true });
  const dir = await mkdtemp(path.join(ctx.tmpDir, 'logo-'));
  try {
    const file = path.join(dir, `logo.${extension}`);
    const out = path.join(dir, 'normalised.png');
    await writeFile(file, data);
    await normaliseLogo(file, out);
    const png = await readFile(out);
    return png.length > 0 ? png : null;
  } catch {
    return null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const normalisedKey = (companyId: string, png: Buffer) => `companies/${companyId}/logo/${createHash('sha256').update(png).digest('hex').slice(0, 16)}${NORMALISED_SUFFIX}`;

const DAMAGED_MESSAGE = 'This image is damaged or incomplete. Please select another file.';

export async function saveLogo(ctx: AppContext, input: { companyId: string; data: Buffer }): Promise<{ logo_url: string }> {
  if (input.data.length > LOGO_MAX_BYTES) throw new AppError('payload_too_large', { message: 'File size must be less than 5MB' });
  const kind = sniffImage(input.data);
  if (!kind) throw new AppError('invalid_format', { message: 'Please select an image file (PNG, JPEG, WebP or GIF).' });
  // The size in pixels before anything decodes it: a 16000×16000 PNG is 800 KB and 1 GB decoded.
  const size = imageDimensions(input.data, kind.extension);
  if (!size) throw new AppError('invalid_format', { message: DAMAGED_MESSAGE });
  if (!withinLogoLimits(size)) throw new AppError('invalid_format', { message: LOGO_TOO_MANY_PIXELS_MESSAGE });
  const png = await normalisedCopy(ctx, input.data, kind.extension);
  if (!png) throw new AppError('invalid_format', { message: DAMAGED_MESSAGE });
  const c = await company(ctx, input.companyId);
  const key = normalisedKey(input.companyId, png);
  await ctx.storage.put(key, png, 'image/png');
  await ctx.db.update(companies).set({ logoKey: key, updatedAt: new Date() }).where(eq(companies.id, input.companyId));
  if (c.logoKey && c.logoKey !== key) await ctx.storage.delete(c.logoKey).catch(() => undefined);
  return { logo_url: logoUrl(ctx, { id: c.id, logoKey: key })! };
}

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
 * A logo stored before logos were normalised (any size the upload allowed, up to 16000×16000 px)
 * turned into its normalised copy, once, on its first use (a render, the public address); the original
 * is then deleted. One beyond today's pixel limits is removed instead: decoding it would stall whatever
 * shows it, so the settings show no logo and the owner uploads one again. One that does not decode is
 * shown nowhere (and kept, in case the failure passes).
 */
async function normaliseStoredLogo(ctx: AppContext, companyId: string, oldKey: string): Promise<string | null> {
  const head = await ctx.storage.head(oldKey);
  if (!head) return null;
  const data = await readAll(await ctx.storage.get(oldKey), LOGO_MAX_BYTES);
  const kind = data ? sniffImage(data) : null;
  const size = data && kind ? imageDimensions(data, kind.extension) : null;
  const onlyIfStill = and(eq(companies.id, companyId), eq(companies.logoKey, oldKey));
  if (!data || !kind || !size || !withinLogoLimits(size)) {
    const removed = await ctx.db.update(companies).set({ logoKey: null, updatedAt: new Date() }).where(onlyIfStill).returning({ id: companies.id });
    if (removed.length) {
      await ctx.storage.delete(oldKey).catch(() => undefined);
      ctx.logger.warn({ companyId, key: oldKey, size }, 'A stored logo over the pixel limits was removed; the company must upload it again.');
    }
    return null;
  }
  const png = await normalisedCopy(ctx, data, kind.extension);
  if (!png) {
    ctx.logger.warn({ companyId, key: oldKey }, 'A stored logo does not decode; it is not shown.');
    return null;
  }
  const key = normalisedKey(companyId, png);
  await ctx.storage.put(key, png, 'image/png');
  const moved = await ctx.db.update(companies).set({ logoKey: key, updatedAt: new Date() }).where(onlyIfStill).returning({ id: companies.id });
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

/** The key of the company's normalised logo (normalising a stored one first if needed), or null. */
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

export async function readLogo(ctx: AppContext, companyId: string) {
  const [c] = await ctx.db.select({ logoKey: companies.logoKey }).from(companies).where(eq(companies.id, companyId));
  const key = await normalisedLogoKey(ctx, { id: companyId, logoKey: c?.logoKey ?? null });
  if (!key) return null;
  const head = await ctx.storage.head(key);
  if (!head) return null;
  return { stream: await ctx.storage.get(key), ...head };
}
