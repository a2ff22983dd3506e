import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API } from '../../../contract/api/paths.js';
import { WALL_PAGES, WALL_SLUG_PATTERN, ZSetWallBody, ZWall } from '../../../contract/api/wall.schema.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-guard.js';
import { callerCompany } from '../../http/company-scope.js';
import type { PageLang } from './publications.pages.js';
import { WALL_FRAME_SCRIPT, WALL_LOADER_SCRIPT, wallEmbedPage, wallNotFoundPage, wallPage, type ViewedWall } from './wall.pages.js';
import { publicMisses } from './public-misses.js';
import { BEACON_SCRIPT } from './views.beacon.js';
import { mintViewToken, viewTokenKey } from './views.token.js';
import { findWall, getWall, setWall, type PublicWall } from './wall.service.js';

/** How long browsers and CDNs keep the wall's scripts: a day (their address never changes, so not immutable). */
export const WALL_SCRIPT_MAX_AGE = 86_400;

/** The page's language: `?lang=en|fr` (the loader passes the embedding page's), else the browser's first choice of ours. */
const pageLang = (request: FastifyRequest): PageLang => {
  const asked = (request.query as { lang?: unknown } | undefined)?.lang;
  if (asked === 'fr' || asked === 'en') return asked;
  const first = /^\s*([a-z]{2})/i.exec(request.headers['accept-language'] ?? '')?.[1]?.toLowerCase();
  return first === 'fr' ? 'fr' : 'en';
};

const html = (reply: FastifyReply, status: number, body: string) =>
  reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'public, no-cache').header('vary', 'accept-language').send(body);

export function wallRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const misses = publicMisses(fastify);
    const authenticated = requireAuth(ctx);
    const site = { appUrl: ctx.config.appUrl, brandName: ctx.config.brandName };

    /* ---------------------------------------------------------------- the company's calls */

    app.get(API.wall.get.route, { onRequest: [authenticated], schema: { response: { 200: ZWall } } }, async (request) =>
      getWall(ctx, { companyId: callerCompany(request) }),
    );
    app.put(API.wall.set.route, { onRequest: [authenticated], schema: { body: ZSetWallBody, response: { 200: ZWall } } }, async (request) =>
      setWall(ctx, { companyId: callerCompany(request), items: request.body.items }),
    );

    /* ---------------------------------------------------------------- the public pages and scripts */

    /** A wall that is not there: 404, or 429 with Retry-After for an address that missed too often (public-misses.ts), which reads the same. */
    const missing = (request: FastifyRequest, reply: FastifyReply) => {
      const penalty = misses.missed(request, { count: true });
      if (penalty) reply.header('retry-after', penalty);
      return html(reply, penalty ? 429 : 404, wallNotFoundPage(pageLang(request)));
    };
    const page = (render: (wall: PublicWall, lang: PageLang) => string, framable = false) => async (request: FastifyRequest, reply: FastifyReply) => {
      const { slug } = request.params as { slug: string };
      // A slug of another shape is a miss before any query.
      const wall = WALL_SLUG_PATTERN.test(slug) ? await findWall(ctx, slug) : null;
      if (!wall) return missing(request, reply);
      // Only an existing wall's embed may be framed by other sites.
      if (framable) reply.asEmbed();
      return html(reply, 200, render(wall, pageLang(request)));
    };
    // Each page served carries a fresh view token for each of its players (decision 155).
    const viewKey = viewTokenKey(ctx.secrets.jwt);
    const viewed = (wall: PublicWall): ViewedWall => ({ ...wall, items: wall.items.map((item) => ({ ...item, viewToken: mintViewToken(viewKey, item.slug) })) });
    app.get('/wall/:slug', page((wall, lang) => wallPage(viewed(wall), lang, site)));
    app.get('/embed/wall/:slug', page((wall, lang) => wallEmbedPage(viewed(wall), lang), true));
    // Any other path under /wall/ is a page that is not there (never the web app), and a miss.
    for (const path of ['/wall/', '/wall/*']) app.get(path, missing);

    const script = (body: string, crossOrigin: boolean) => async (_request: FastifyRequest, reply: FastifyReply) => {
      reply.type('text/javascript; charset=utf-8').header('cache-control', `public, max-age=${WALL_SCRIPT_MAX_AGE}`);
      // The loader runs in the company's own pages, which load it from our origin.
      if (crossOrigin) reply.header('cross-origin-resource-policy', 'cross-origin');
      return reply.send(body);
    };
    app.get(WALL_PAGES.script, script(WALL_LOADER_SCRIPT, true));
    // The frame script also carries the view beacon of the wall's players (views.beacon.ts).
    app.get(WALL_PAGES.frameScript, script(`${WALL_FRAME_SCRIPT};${BEACON_SCRIPT}`, false));
  };
}
