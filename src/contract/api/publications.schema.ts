/**
 * Publishing (issue 19): a ready render of a paid testimonial, or one of its answers as recorded, gets a
 * public share page `/v/{slug}`, an embeddable player `/embed/{slug}` and an oEmbed answer. The slug is
 * unguessable (128 random bits, base64url). Unpublishing takes all of them down at once.
 *
 * The public pages are server-rendered HTML, outside the API table (PUBLICATION_PAGES).
 */
import { z } from 'zod';
import { ZId, ZIsoDateTime } from './common.js';
import { ZViewCounts } from './views.schema.js';

/** Length of a slug: 16 random bytes in base64url. */
export const PUBLICATION_SLUG_LENGTH = 22;
export const PUBLICATION_SLUG_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** The public pages and media of a publication (not API calls: no JSON, no token). */
export const PUBLICATION_PAGES = {
  share: (slug: string) => `/v/${slug}`,
  embed: (slug: string) => `/embed/${slug}`,
  video: (slug: string) => `/v/${slug}/video.mp4`,
  poster: (slug: string) => `/v/${slug}/poster.jpg`,
  captions: (slug: string) => `/v/${slug}/captions.vtt`,
} as const;

/** POST /api/publications: exactly one of `jobId` (a ready render of this testimonial) or `responseId` (an answer as recorded). */
export const ZCreatePublicationBody = z
  .object({
    testimonialId: ZId,
    jobId: ZId.optional(),
    responseId: ZId.optional(),
  })
  .refine((body) => Boolean(body.jobId) !== Boolean(body.responseId), {
    message: 'Give either a jobId (a ready render) or a responseId (an answer as recorded), not both.',
    path: ['jobId'],
  });
export type TCreatePublicationBody = z.infer<typeof ZCreatePublicationBody>;

export const ZCreatePublicationResponse = z.object({
  id: ZId,
  slug: z.string(),
  /** The share page. */
  url: z.string(),
  /** The player alone, for an `<iframe>`. */
  embedUrl: z.string(),
});
export type TCreatePublicationResponse = z.infer<typeof ZCreatePublicationResponse>;

/** GET /api/publications?testimonialId= */
export const ZListPublicationsQuery = z.object({ testimonialId: ZId.optional() });
export type TListPublicationsQuery = z.infer<typeof ZListPublicationsQuery>;

export const ZPublication = z.object({
  id: ZId,
  testimonialId: ZId,
  jobId: ZId.nullable(),
  responseId: ZId.nullable(),
  slug: z.string(),
  url: z.string(),
  embedUrl: z.string(),
  /** A copyable `<iframe>` snippet of the embed. */
  embedHtml: z.string(),
  createdAt: ZIsoDateTime,
  /** The quote shown beside the video (words of the transcript), or null. */
  quote: z.string().nullable(),
  /** The quote is found only in the transcript as the company corrected it: its page says so (decision 154). Absent from older servers. */
  quoteEdited: z.boolean().optional(),
  /** The published video's length in seconds (shown before it plays), or null when unknown (decision 168). Absent from older servers. */
  durationSeconds: z.number().nonnegative().nullable().optional(),
  /** The moment chosen as the poster (seconds), or null for the automatic frame a moment into the answer (decision 168). Absent from older servers. */
  posterSeconds: z.number().nonnegative().nullable().optional(),
  /** The published video's transcript, one paragraph per answer (empty without one): where a quote is picked from. */
  transcript: z.array(z.string()),
  /** Plays counted so far: viewers who started the video (views.schema.ts, decision 144). */
  views: z.number().int().nonnegative(),
  /** How far the plays got: started, past 25, 50, 75 and 100 % (all days). Absent from older servers. */
  viewCounts: ZViewCounts.optional(),
});
export type TPublication = z.infer<typeof ZPublication>;

/** The longest quote: a sentence or two. */
export const QUOTE_MAX_LENGTH = 300;

/** PUT /api/publications/{id}/quote: words of the publication's transcript, or null (or blank) to remove the quote. */
export const ZSetQuoteBody = z.object({
  quote: z
    .string()
    .trim()
    .max(QUOTE_MAX_LENGTH, `A quote is at most ${QUOTE_MAX_LENGTH} characters: a sentence or two.`)
    .nullable()
    .transform((quote) => quote || null),
});
export type TSetQuoteBody = z.input<typeof ZSetQuoteBody>;

/** `quoteEdited`: the quote is not the engine's words but the company's corrected transcript, and is labelled so (decision 154). Absent from older servers. */
export const ZSetQuoteResponse = z.object({ quote: z.string().nullable(), quoteEdited: z.boolean().optional() });
export type TSetQuoteResponse = z.infer<typeof ZSetQuoteResponse>;

/** The longest video a poster moment may be picked in (a bound for the input; the service checks the video's own length). */
export const POSTER_SECONDS_MAX = 4 * 60 * 60;

/** PUT /api/publications/{id}/poster: the moment of the video to show as its poster (seconds), or null for the automatic frame. */
export const ZSetPosterBody = z.object({
  seconds: z
    .number({ error: 'Choose the moment of the video to show, in seconds.' })
    .finite('Choose the moment of the video to show, in seconds.')
    .min(0, 'The moment cannot be before the start of the video.')
    .max(POSTER_SECONDS_MAX, 'The moment must be within the video.')
    .nullable(),
});
export type TSetPosterBody = z.infer<typeof ZSetPosterBody>;

/** The poster's moment as made (seconds) and the video's length; the share page and the wall show the new poster at once. */
export const ZSetPosterResponse = z.object({
  posterSeconds: z.number().nonnegative().nullable(),
  durationSeconds: z.number().nonnegative().nullable(),
});
export type TSetPosterResponse = z.infer<typeof ZSetPosterResponse>;

export const ZListPublicationsResponse = z.object({ publications: z.array(ZPublication) });
export type TListPublicationsResponse = z.infer<typeof ZListPublicationsResponse>;

/** GET /api/oembed?url=<share or embed address>[&maxwidth=&maxheight=&format=json] */
export const ZOEmbedQuery = z.object({
  url: z.string().min(1, 'url is required').max(2048),
  maxwidth: z.coerce.number().int().positive().optional(),
  maxheight: z.coerce.number().int().positive().optional(),
  format: z.literal('json', { error: 'Only the json format is served' }).optional(),
});
export type TOEmbedQuery = z.infer<typeof ZOEmbedQuery>;

export const ZOEmbedResponse = z.object({
  version: z.literal('1.0'),
  type: z.literal('video'),
  html: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  title: z.string(),
  provider_name: z.string(),
  provider_url: z.string(),
  thumbnail_url: z.string().optional(),
  thumbnail_width: z.number().int().optional(),
  thumbnail_height: z.number().int().optional(),
});
export type TOEmbedResponse = z.infer<typeof ZOEmbedResponse>;
