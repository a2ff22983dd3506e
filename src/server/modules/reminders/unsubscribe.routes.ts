import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { publicMisses } from '../publications/public-misses.js';
import { logoUrl } from '../settings/settings.service.js';
import { loadUnsubscribe, unsubscribe } from './reminders.service.js';
import { unsubscribeNotFoundPage, unsubscribePage } from './unsubscribe.pages.js';

/**
 * `/unsubscribe/{token}` (issue 30, RFC 8058, decision 195). GET: a small page in the request's language
 * with one button. POST: the page's form, or a mail client's one-click button (`List-Unsubscribe=One-Click`,
 * no cookie, no anti-forgery field possible): idempotent and harmless, it only ever stops reminders. A
 * token we did not issue is a 404 page that counts as a miss of its address (429 past the limit).
 */

const browserLang = (request: FastifyRequest): 'en' | 'fr' => {
  const first = /^\s*([a-z]{2})/i.exec(request.headers['accept-language'] ?? '')?.[1]?.toLowerCase();
  return first === 'fr' ? 'fr' : 'en';
};

/** Private, not indexed, not framed (the document headers add `frame-ancestors 'none'`), no referrer to other sites. */
const privately = (reply: FastifyReply) =>
  reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex, nofollow').header('referrer-policy', 'same-origin').header('x-frame-options', 'DENY');

const page = (reply: FastifyReply, status: number, body: string) => privately(reply).status(status).type('text/html; charset=utf-8').send(body);

export function unsubscribeRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const misses = publicMisses(fastify);
    // The page's form and RFC 8058's one-click POST are application/x-www-form-urlencoded (multipart, the
    // other encoding RFC 8058 allows, is parsed by the app's multipart plugin and needs no body here).
    fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))));
    });

    const missing = (request: FastifyRequest, reply: FastifyReply) => {
      const penalty = misses.missed(request, { count: true });
      if (penalty) reply.header('retry-after', penalty);
      return page(reply, penalty ? 429 : 404, unsubscribeNotFoundPage(browserLang(request)));
    };
    const action = (token: string) => `/unsubscribe/${token}`;

    fastify.get('/unsubscribe/:token', async (request, reply) => {
      const { token } = request.params as { token: string };
      const view = await loadUnsubscribe(ctx, token, (company) => logoUrl(ctx, company));
      if (!view) return missing(request, reply);
      return page(reply, 200, unsubscribePage(view, action(token), ctx.config.brandName));
    });

    fastify.post('/unsubscribe/:token', async (request, reply) => {
      const { token } = request.params as { token: string };
      const fromPage = (request.body as Record<string, unknown> | undefined)?.from === 'page';
      const done = await unsubscribe(ctx, token, fromPage ? 'page' : 'one_click');
      if (!done) return missing(request, reply);
      // The page's own form goes back to the page, which now says it is done; a mail client gets the page's answer at once.
      if (fromPage) return privately(reply).redirect(action(token), 303);
      const view = await loadUnsubscribe(ctx, token, (company) => logoUrl(ctx, company));
      return page(reply, 200, unsubscribePage(view!, action(token), ctx.config.brandName));
    });

    // Any other path under the prefix is a page that is not there (never the web app).
    for (const path of ['/unsubscribe/', '/unsubscribe/*']) fastify.get(path, async (request, reply) => missing(request, reply));
  };
}
