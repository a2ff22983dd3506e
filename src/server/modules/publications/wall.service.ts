import { randomInt } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { WALL_MAX_ITEMS, WALL_PAGES, type TWall, type TWallItem, type TWallItemKind } from '../../../contract/api/wall.schema.js';
import { PUBLICATION_PAGES } from '../../../contract/api/publications.schema.js';
import type { AppContext } from '../../context.js';
import { companies, publications, testimonialResponses, videoStyleSettings, walls } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { html } from '../../lib/html.js';
import { logoUrl } from '../settings/settings.service.js';
import { logoOnPlate } from '../../../contract/logo-contrast.js';
import { ZLogoPlate } from '../../../contract/api/settings.schema.js';

import { assertPublicationUsable, haveCaptions, nameOf, publicLanguage, selectLivePublications, shareUrl, subtitlesBurnedIn, titleOf } from './publications.service.js';

/**
 * The wall of testimonials (issue 19, decisions 142 and 143). A company has one wall, created the first
 * time it asks for it, at `/wall/{slug}`: its name made readable plus 10 random characters. The wall shows
 * the company's live publications that are not hidden from it: those not placed yet first (newest first:
 * a new publication goes on top), then the placed ones in the company's order. Every company-side read
 * and write goes through the company of the verified token; the public side reads by slug.
 */

const RANDOM_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const WALL_RANDOM_LENGTH = 10;

/** The readable part of a wall's slug: the company's name without accents or punctuation, at most 40 characters. */
export function readableSlugPart(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
}

/** `acme-coffee-k3j9x2m4qa`: 10 characters of 36 (about 52 bits) make walls impossible to list by guessing. */
export function newWallSlug(companyName: string): string {
  let random = '';
  for (let i = 0; i < WALL_RANDOM_LENGTH; i += 1) random += RANDOM_ALPHABET[randomInt(RANDOM_ALPHABET.length)];
  const readable = readableSlugPart(companyName);
  return readable ? `${readable}-${random}` : random;
}

export const wallUrl = (ctx: AppContext, slug: string) => `${ctx.config.appUrl}${WALL_PAGES.wall(slug)}`;
export const wallEmbedUrl = (ctx: AppContext, slug: string) => `${ctx.config.appUrl}${WALL_PAGES.embed(slug)}`;

/** The `<div>` and the loader script a company pastes into its site. */
export function wallScriptSnippet(ctx: AppContext, slug: string): string {
  return html`<div data-vouchreel-wall="${slug}"></div>\n<script src="${ctx.config.appUrl}${WALL_PAGES.script}" async></script>`.value;
}

/** A plain `<iframe>` of the embed, for sites that run no foreign script (its height stays fixed). */
export function wallIframeSnippet(ctx: AppContext, slug: string, companyName: string): string {
  return html`<iframe src="${wallEmbedUrl(ctx, slug)}" title="${companyName}" style="width:100%;height:900px;border:0" allow="fullscreen; picture-in-picture" allowfullscreen loading="lazy"></iframe>`.value;
}

/** The company's wall, created (with its slug) the first time it is asked for. */
export async function ensureWall(ctx: AppContext, companyId: string): Promise<{ slug: string; companyName: string }> {
  const [company] = await ctx.db
    .select({ name: companies.name, slug: walls.slug })
    .from(companies)
    .leftJoin(walls, eq(walls.companyId, companies.id))
    .where(eq(companies.id, companyId));
  if (!company) throw new AppError('not_found', { message: 'This company does not exist.' });
  if (company.slug) return { slug: company.slug, companyName: company.name };
  // Another request may create it at the same moment, or (very rarely) draw a slug already taken:
  // nothing is written then, and the wall is read again or another slug drawn.
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const [created] = await ctx.db.insert(walls).values({ companyId, slug: newWallSlug(company.name) }).onConflictDoNothing().returning({ slug: walls.slug });
    if (created) return { slug: created.slug, companyName: company.name };
    const [existing] = await ctx.db.select({ slug: walls.slug }).from(walls).where(eq(walls.companyId, companyId));
    if (existing) return { slug: existing.slug, companyName: company.name };
  }
  throw new Error('Could not draw a free wall slug.');
}

/** Shown first: not hidden; then not placed yet (newest first) before the placed ones in their order. */
const wallOrder = [asc(publications.wallHidden), asc(sql`${publications.wallPosition} is not null`), asc(publications.wallPosition), desc(publications.createdAt)];

/** GET /api/wall: the wall's addresses and snippets, and every live publication of the company with its place. */
export async function getWall(ctx: AppContext, input: { companyId: string }): Promise<TWall> {
  const wall = await ensureWall(ctx, input.companyId);
  const rows = await selectLivePublications(
    ctx.db,
    {
      id: publications.id,
      requestId: publications.requestId,
      slug: publications.slug,
      posterKey: publications.posterKey,
      quote: publications.quote,
      createdAt: publications.createdAt,
      wallHidden: publications.wallHidden,
      question: testimonialResponses.questionText,
    },
    eq(publications.companyId, input.companyId),
  )
    .leftJoin(testimonialResponses, eq(testimonialResponses.id, publications.responseId))
    .orderBy(...wallOrder);
  let position = 0;
  const items = rows.map((row): TWallItem => {
    const onWall = !row.wallHidden && position < WALL_MAX_ITEMS;
    if (onWall) position += 1;
    return {
      publicationId: row.id,
      testimonialId: row.requestId,
      name: nameOf(row),
      title: titleOf(row),
      kind: (row.jobKind ?? 'answer') as TWallItemKind,
      question: row.question,
      quote: row.quote,
      posterUrl: row.posterKey ? `${ctx.config.appUrl}${PUBLICATION_PAGES.poster(row.slug)}` : null,
      url: shareUrl(ctx, row.slug),
      publishedAt: row.createdAt.toISOString(),
      onWall,
      position: onWall ? position : null,
    };
  });
  return {
    slug: wall.slug,
    url: wallUrl(ctx, wall.slug),
    embedUrl: wallEmbedUrl(ctx, wall.slug),
    snippet: wallScriptSnippet(ctx, wall.slug),
    iframeSnippet: wallIframeSnippet(ctx, wall.slug, wall.companyName),
    items,
  };
}

/**
 * PUT /api/wall: the wall shows exactly these publications, in this order; every other live publication
 * of the company is taken off it. One transaction: an id that is not a live publication of the company
 * (another company's, unpublished, unknown) refuses the whole call with a 404 and changes nothing.
 */
export async function setWall(ctx: AppContext, input: { companyId: string; items: string[] }): Promise<TWall> {
  await ctx.db.transaction(async (tx) => {
    const live = and(eq(publications.companyId, input.companyId), isNull(publications.unpublishedAt));
    if (input.items.length) {
      const found = await tx.select({ id: publications.id }).from(publications).where(and(live, inArray(publications.id, input.items)));
      if (found.length !== input.items.length) throw new AppError('not_found', { reason: 'wall_item_unavailable', field: 'items' });
      await assertPublicationUsable(tx, input.companyId, input.items);
    }
    await tx.update(publications).set({ wallHidden: true, wallPosition: null }).where(live);
    for (const [index, id] of input.items.entries()) {
      await tx.update(publications).set({ wallHidden: false, wallPosition: index }).where(and(live, eq(publications.id, id)));
    }
  });
  return getWall(ctx, input);
}

/* ------------------------------------------------------------------ the public side */

export interface PublicWallItem {
  slug: string;
  name: string;
  title: string | null;
  quote: string | null;
  /** The quote is found only in the transcript as the company edited it: labelled (decision 154). */
  quoteEdited: boolean;
  width: number | null;
  height: number | null;
  hasPoster: boolean;
  /** The video's length in seconds, shown on its tile before it plays; null when unknown. */
  durationSeconds: number | null;
  /** The publication's language: its captions'. */
  language: 'en' | 'fr';
  /** Its share page offers a captions track (a transcript with words). */
  captions: boolean;
  /** The picture carries its subtitles already: the track is offered, not shown by default. */
  subtitlesBurnedIn: boolean;
}

export interface PublicWall {
  slug: string;
  /** `logoPlate`: the header draws the logo on the light plate (decision 172). */
  company: { name: string; logoUrl: string | null; logoPlate: boolean };
  colors: { background: string; text: string };
  items: PublicWallItem[];
}

/** A wall by its slug, with the live publications it shows in its order (at most WALL_MAX_ITEMS); null when unknown. */
export async function findWall(ctx: AppContext, slug: string): Promise<PublicWall | null> {
  const [wall] = await ctx.db
    .select({
      companyId: walls.companyId,
      slug: walls.slug,
      name: companies.name,
      logoKey: companies.logoKey,
      logoLuminance: companies.logoLuminance,
      logoPlate: videoStyleSettings.logoPlate,
      background: videoStyleSettings.backgroundColor,
      text: videoStyleSettings.fontColorQuestion,
    })
    .from(walls)
    .innerJoin(companies, eq(companies.id, walls.companyId))
    .leftJoin(videoStyleSettings, eq(videoStyleSettings.companyId, walls.companyId))
    .where(eq(walls.slug, slug.slice(0, 80)));
  if (!wall) return null;
  const rows = await selectLivePublications(
    ctx.db,
    {
      slug: publications.slug,
      posterKey: publications.posterKey,
      width: publications.width,
      height: publications.height,
      durationSeconds: publications.durationSeconds,
      quote: publications.quote,
      quoteEdited: publications.quoteEdited,
      captionParts: publications.captionParts,
    },
    and(eq(publications.companyId, wall.companyId), eq(publications.wallHidden, false)),
  )
    .orderBy(...wallOrder)
    .limit(WALL_MAX_ITEMS);
  const captioned = await haveCaptions(ctx, rows);
  return {
    slug: wall.slug,
    company: {
      name: wall.name,
      logoUrl: logoUrl(ctx, { id: wall.companyId, logoKey: wall.logoKey }),
      logoPlate: logoOnPlate({ logoLuminance: wall.logoLuminance, background: wall.background ?? '#15171f', plate: ZLogoPlate.catch('auto').parse(wall.logoPlate) }),
    },
    colors: { background: wall.background ?? '#15171f', text: wall.text ?? '#ffffff' },
    items: rows.map((row, i) => ({
      slug: row.slug,
      name: nameOf(row),
      title: titleOf(row),
      quote: row.quote,
      quoteEdited: row.quoteEdited,
      width: row.width,
      height: row.height,
      hasPoster: Boolean(row.posterKey),
      durationSeconds: row.durationSeconds,
      language: publicLanguage(row.language),
      captions: captioned[i]!,
      subtitlesBurnedIn: subtitlesBurnedIn(row.jobKind),
    })),
  };
}
