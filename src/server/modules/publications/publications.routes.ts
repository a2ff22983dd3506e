import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZIdParams } from '../../../contract/api/common.js';
import { API } from '../../../contract/api/paths.js';
import {
  ZCreatePublicationBody,
  ZCreatePublicationResponse,
  ZListPublicationsQuery,
  ZListPublicationsResponse,
  PUBLICATION_SLUG_PATTERN,
  ZOEmbedQuery,
  ZOEmbedResponse,
  ZSetPosterBody,
  ZSetPosterResponse,
  ZSetQuoteBody,
  ZSetQuoteResponse,
} from '../../../contract/api/publications.schema.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-guard.js';
import { callerCompany, callerUser } from '../../http/company-scope.js';
import { sendError } from '../../http/errors.js';
import { sendStoredObject } from '../../http/stored-object.js';
import { onPublicationsTakenDown } from '../consent/customer.caches.js';
import { LivePages } from './live-pages.js';
import { publicMisses, rateLimited } from './public-misses.js';
import { setPublicationPoster } from './publications.poster.js';
import { setQuote } from './publications.quote.js';
import { embedPage, notFoundPage, sharePage, webVtt, type PageLang } from './publications.pages.js';
import { allowBeaconScript } from './views.beacon.js';
import { mintViewToken, viewTokenKey } from './views.token.js';
import { captionsOf, createPublication, DEFAULT_SIZE, embedSnippet, findLive, listPublications, unpublish, type LivePublication } from './publications.service.js';

/** How long this process keeps what a live publication's public routes show (live-pages.ts, decision 150). */
export const LIVE_PAGE_TTL_MS = 2000;

type LiveWithCaptions = LivePublication & { captions: Awaited<ReturnType<typeof captionsOf>> };

/** The language of a page that has none of its own (an unknown slug): the browser's first choice of ours. */
const browserLang = (request: FastifyRequest): PageLang => {
  const first = /^\s*([a-z]{2})/i.exec(request.headers['accept-language'] ?? '')?.[1]?.toLowerCase();
  return first === 'fr' ? 'fr' : 'en';
};

/** A share or embed page: HTML, revalidated on every visit (a CDN may keep it only to ask again). */
const html = (reply: FastifyReply, status: number, body: string) =>
  // The pages' players carry the view beacon (views.beacon.ts): its hash joins the page's script-src.
  allowBeaconScript(reply).status(status).type('text/html; charset=utf-8').header('cache-control', 'public, no-cache').send(body);

export function publicationsRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const authenticated = requireAuth(ctx);
    const site = { appUrl: ctx.config.appUrl, brandName: ctx.config.brandName };
    const misses = publicMisses(fastify);
    const livePages = new LivePages<LiveWithCaptions>({ ttlMs: LIVE_PAGE_TTL_MS, maxEntries: 5000 });
    // A customer's withdrawal or removal (consent/customer.service.ts) takes publications down: forgotten here at once.
    const stopForgetting = onPublicationsTakenDown(ctx, async (ids) => {
      for (const id of ids) await livePages.forget(id);
    });
    fastify.addHook('onClose', async () => stopForgetting());
    const readLive = async (slug: string): Promise<LiveWithCaptions | null> => {
      const live = await findLive(ctx, slug);
      return live && { ...live, captions: await captionsOf(ctx, live) };
    };
    /**
     * A live publication for a public route, or null. A slug of another shape is a miss before any query.
     * A miss of a page document counts against its address (public-misses.ts); `penalty` is then the
     * seconds an address that missed too often must wait (its miss answers 429), else null.
     */
    const lookup = async (request: FastifyRequest, slug: string | undefined, kind: 'page' | 'oembed' | 'medium') => {
      const live = slug && PUBLICATION_SLUG_PATTERN.test(slug) ? await livePages.get(slug, () => readLive(slug)) : null;
      const penalty = live || kind === 'medium' ? null : misses.missed(request, { count: kind === 'page' });
      return { live, penalty };
    };
    /** The page of a slug that is not (or no longer) there: 404, or 429 with Retry-After for a penalised address, which reads the same. */
    const missingPage = (request: FastifyRequest, reply: FastifyReply, penalty: number | null) => {
      if (penalty) reply.header('retry-after', penalty);
      return html(reply, penalty ? 429 : 404, notFoundPage(browserLang(request)));
    };

    /* ---------------------------------------------------------------- the company's calls */

    app.post(
      API.publications.create.route,
      { onRequest: [authenticated], schema: { body: ZCreatePublicationBody, response: { 201: ZCreatePublicationResponse } } },
      async (request, reply) => {
        const { testimonialId, jobId, responseId } = request.body;
        return reply.status(201).send(await createPublication(ctx, { companyId: callerCompany(request), testimonialId, jobId, responseId, actorUserId: callerUser(request) }));
      },
    );
    app.get(
      API.publications.list.route,
      { onRequest: [authenticated], schema: { querystring: ZListPublicationsQuery, response: { 200: ZListPublicationsResponse } } },
      async (request) => listPublications(ctx, { companyId: callerCompany(request), testimonialId: request.query.testimonialId }),
    );
    app.put(
      API.publications.quote.route,
      { onRequest: [authenticated], schema: { params: ZIdParams, body: ZSetQuoteBody, response: { 200: ZSetQuoteResponse } } },
      async (request) => {
        const saved = await setQuote(ctx, { companyId: callerCompany(request), id: request.params.id, quote: request.body.quote });
        await livePages.forget(request.params.id);
        return saved;
      },
    );
    app.put(
      API.publications.poster.route,
      { onRequest: [authenticated], schema: { params: ZIdParams, body: ZSetPosterBody, response: { 200: ZSetPosterResponse } } },
      async (request) => {
        const saved = await setPublicationPoster(ctx, { companyId: callerCompany(request), id: request.params.id, seconds: request.body.seconds });
        await livePages.forget(request.params.id);
        return saved;
      },
    );
    app.delete(API.publications.remove.route, { onRequest: [authenticated], schema: { params: ZIdParams } }, async (request, reply) => {
      await unpublish(ctx, { companyId: callerCompany(request), id: request.params.id, actorUserId: callerUser(request) });
      await livePages.forget(request.params.id);
      return reply.status(204).send();
    });

    /* ---------------------------------------------------------------- oEmbed */

    app.get(API.publications.oembed.route, { schema: { querystring: ZOEmbedQuery, response: { 200: ZOEmbedResponse } } }, async (request, reply) => {
      let url: URL;
      try {
        url = new URL(request.query.url);
      } catch {
        return sendError(reply, 400, { error: 'url must be the address of a share page.', code: 'invalid_data', field: 'url' });
      }
      if (url.host !== new URL(ctx.config.appUrl).host) {
        return sendError(reply, 400, { error: `url must be an address of ${new URL(ctx.config.appUrl).host}.`, code: 'invalid_data', field: 'url' });
      }
      const slug = /^\/(?:v|embed)\/([^/]+)\/?$/.exec(url.pathname)?.[1];
      const { live, penalty } = await lookup(request, slug, 'oembed');
      if (penalty) throw rateLimited(reply, penalty);
      if (!live) return sendError(reply, 404, { error: 'This video is not available.', code: 'not_found' });
      const natural = { width: live.width ?? DEFAULT_SIZE.width, height: live.height ?? DEFAULT_SIZE.height };
      const scale = Math.min(1, (request.query.maxwidth ?? Infinity) / natural.width, (request.query.maxheight ?? Infinity) / natural.height);
      const width = Math.max(1, Math.round(natural.width * scale));
      const height = Math.max(1, Math.round(natural.height * scale));
      const title = live.position ? `${live.name}, ${live.position}` : live.name;
      return reply.header('cache-control', 'public, no-cache').send({
        version: '1.0' as const,
        type: 'video' as const,
        html: embedSnippet(ctx, live.slug, { width, height }, title),
        width,
        height,
        title,
        provider_name: ctx.config.brandName,
        provider_url: ctx.config.appUrl,
        ...(live.posterKey
          ? { thumbnail_url: `${ctx.config.appUrl}/v/${live.slug}/poster.jpg`, thumbnail_width: natural.width, thumbnail_height: natural.height }
          : {}),
      });
    });

    /* ---------------------------------------------------------------- the public pages and media */

    const page = (render: (live: LiveWithCaptions) => Promise<string>, framable = false) => async (request: FastifyRequest, reply: FastifyReply) => {
      const { slug } = request.params as { slug: string };
      const { live, penalty } = await lookup(request, slug, 'page');
      if (!live) return missingPage(request, reply, penalty);
      // Only a live publication's embed may be framed by other sites.
      if (framable) reply.asEmbed();
      return html(reply, 200, await render(live));
    };
    // Each page served carries a fresh view token for its player (decision 155).
    const viewKey = viewTokenKey(ctx.secrets.jwt);
    const viewed = (live: LiveWithCaptions) => ({ ...live, viewToken: mintViewToken(viewKey, live.slug) });
    app.get('/v/:slug', page(async (live) => sharePage(viewed(live), live.captions, site)));
    app.get('/embed/:slug', page(async (live) => embedPage(viewed(live), live.captions.cues.length > 0), true));
    // Any other path under the public prefixes is a page that is not there (never the web app), and a miss.
    const nothingHere = async (request: FastifyRequest, reply: FastifyReply) => missingPage(request, reply, misses.missed(request, { count: true }));
    // (`/v/` also answers `/v`: the router ignores a trailing slash.)
    for (const path of ['/v/', '/v/*', '/embed/', '/embed/*']) app.get(path, nothingHere);

    /** A medium of a live publication; taken down, it is a 404 at once in this process, within LIVE_PAGE_TTL_MS in the others (no shared cache keeps it). */
    const medium = (pick: (live: LivePublication) => string | null, contentType: string) => async (request: FastifyRequest, reply: FastifyReply) => {
      const { slug } = request.params as { slug: string };
      const { live } = await lookup(request, slug, 'medium');
      const key = live ? pick(live) : null;
      if (!key) return sendError(reply, 404, { error: 'No such file.', code: 'not_found' });
      return sendStoredObject(ctx, request, reply, key, {
        cacheControl: 'private, max-age=60',
        resourcePolicy: 'cross-origin',
        // Streamed from here in every delivery mode: no storage key goes out, and an unpublish holds at once (decision 157).
        presignSeconds: null,
        contentType,
      });
    };
    app.get('/v/:slug/video.mp4', { logLevel: 'warn' }, medium((live) => live.videoKey, 'video/mp4'));
    app.get('/v/:slug/poster.jpg', { logLevel: 'warn' }, medium((live) => live.posterKey, 'image/jpeg'));
    app.get('/v/:slug/captions.vtt', async (request, reply) => {
      const { slug } = request.params as { slug: string };
      const { live } = await lookup(request, slug, 'medium');
      const cues = live?.captions.cues ?? [];
      if (!cues.length) return sendError(reply, 404, { error: 'No captions.', code: 'not_found' });
      return reply
        .type('text/vtt; charset=utf-8')
        .header('cache-control', 'public, no-cache')
        .header('cross-origin-resource-policy', 'cross-origin')
        .send(webVtt(cues));
    });
  };
}
