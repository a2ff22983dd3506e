/**
 * The wall of testimonials (issue 19): a company's published videos that it chose to show, in the order
 * it set, at `/wall/{slug}` and, for other sites, `/embed/wall/{slug}` (inserted by the `/wall.js`
 * script into `<div data-vouchreel-wall="{slug}">`). The company reads its wall with GET /api/wall and
 * sets which videos appear, in which order, with PUT /api/wall.
 *
 * The public pages are server-rendered HTML, outside the API table (WALL_PAGES).
 */
import { z } from 'zod';
import { ZId, ZIsoDateTime } from './common.js';

/** The company's name made readable (at most 40 characters) and 10 random characters: `acme-coffee-k3j9x2m4qa`. */
export const WALL_SLUG_PATTERN = /^(?:[a-z0-9]+(?:-[a-z0-9]+)*-)?[a-z0-9]{10}$/;

/** The most videos a wall shows (its page stays light: decision 143). */
export const WALL_MAX_ITEMS = 60;

/** The public pages of a wall and the script that embeds it (not API calls: no JSON, no token). */
export const WALL_PAGES = {
  wall: (slug: string) => `/wall/${slug}`,
  embed: (slug: string) => `/embed/wall/${slug}`,
  /** The loader a company pastes into its site. */
  script: '/wall.js',
  /** The script of the wall's own page (its height to the embedding page; one video playing at a time). */
  frameScript: '/wall-frame.js',
} as const;

/** The message a wall in a frame posts to its parent when its height changes. */
export const WALL_HEIGHT_MESSAGE = 'vouchreel:wall-height';

/** Which video a publication shows: an answer as recorded, or a studio render. */
export const ZWallItemKind = z.enum(['answer', 'intro', 'subtitles', 'merge', 'merged_subtitles', 'export']);
export type TWallItemKind = z.infer<typeof ZWallItemKind>;

export const ZWallItem = z.object({
  publicationId: ZId,
  testimonialId: ZId,
  /** The customer's name and position, as the wall shows them. */
  name: z.string(),
  title: z.string().nullable(),
  kind: ZWallItemKind,
  /** The question answered, for a single answer (as recorded, with its intro or subtitles, or exported). */
  question: z.string().nullable(),
  quote: z.string().nullable(),
  /** The poster through the publication's public route; null when the video has none. */
  posterUrl: z.string().nullable(),
  /** The share page. */
  url: z.string(),
  publishedAt: ZIsoDateTime,
  onWall: z.boolean(),
  /** 1-based place on the wall, null when not shown. */
  position: z.number().int().positive().nullable(),
});
export type TWallItem = z.infer<typeof ZWallItem>;

/** GET /api/wall (and the answer of PUT): the wall's addresses and snippets, and every live publication (shown ones first, in order). */
export const ZWall = z.object({
  slug: z.string(),
  url: z.string(),
  embedUrl: z.string(),
  /** The `<div>` and `<script>` that insert the wall as a frame that takes its content's height. */
  snippet: z.string(),
  /** A plain `<iframe>` of the embed (fixed height), for sites that allow no script. */
  iframeSnippet: z.string(),
  items: z.array(ZWallItem),
});
export type TWall = z.infer<typeof ZWall>;

/** PUT /api/wall: the publications shown, in order; every other live publication is taken off the wall. */
export const ZSetWallBody = z.object({
  items: z
    .array(ZId, { error: 'items must be a list of publication ids' })
    .max(WALL_MAX_ITEMS, `A wall shows at most ${WALL_MAX_ITEMS} videos`)
    .refine((ids) => new Set(ids).size === ids.length, { message: 'A video can appear only once on the wall' }),
});
export type TSetWallBody = z.infer<typeof ZSetWallBody>;

/** Query of the public wall pages: `?lang=en|fr` overrides the browser's language. */
export const ZWallPageQuery = z.object({ lang: z.enum(['en', 'fr']).optional() });
