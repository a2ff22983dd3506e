import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { APPROVAL_COMMENT_MAX } from '../../../contract/api/consent.schema.js';
import type { AppContext } from '../../context.js';
import { sendError } from '../../http/errors.js';
import { sendStoredObject } from '../../http/stored-object.js';
import { AppError } from '../../lib/errors.js';
import { publicMisses } from '../publications/public-misses.js';
import { approvalPage, customerNotFoundPage, customerPage, refusedPage, removeConfirmPage, withdrawConfirmPage, type Notice, type PageLinks } from './customer.pages.js';
import {
  approvalMedia,
  customerAnswerMedia,
  decideApproval,
  loadApprovalPage,
  loadCustomerPage,
  requestAnswerRemoval,
  withdrawConsent,
  type CustomerLang,
} from './customer.service.js';
import { actionProof, isActionProof } from './customer.tokens.js';

/**
 * The customer's pages (issue 29, decision 183): `/my-testimonial/{token}` and `/approve/{token}`, plain
 * HTML written here, each with its own token-checked media route. Every answer is private (no-store, not
 * indexed, never framed, no referrer to other sites); the actions are forms posted to the same page with an HMAC field
 * and refused from another site. Unknown tokens count as misses of their address, like unknown share pages.
 */

const NOTICES = new Set<Notice>(['withdrawn', 'removed', 'approved', 'changes']);

const browserLang = (request: FastifyRequest): CustomerLang => {
  const first = /^\s*([a-z]{2})/i.exec(request.headers['accept-language'] ?? '')?.[1]?.toLowerCase();
  return first === 'fr' ? 'fr' : 'en';
};

/**
 * The headers of every answer of these routes: private, not indexed, not framed, and no referrer to
 * another site (`same-origin`: the token in the address never leaves our origin). Not `no-referrer`:
 * with it, browsers send `Origin: null` on the page's own form posts, which the cross-site check refuses.
 */
const privately = (reply: FastifyReply) =>
  reply
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex, nofollow')
    .header('referrer-policy', 'same-origin')
    .header('x-frame-options', 'DENY');

const page = (reply: FastifyReply, status: number, body: string) => privately(reply).status(status).type('text/html; charset=utf-8').send(body);

const actor = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

export function customerRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    /** A video of these pages, streamed from here: no storage key goes out, and a deletion or a withdrawal holds at once. */
    const sendPrivateMedia = (request: FastifyRequest, reply: FastifyReply, media: { key: string; contentType?: string | undefined } | null) => {
      privately(reply);
      if (!media) return sendError(reply, 404, { error: 'No such file.', code: 'not_found' });
      return sendStoredObject(ctx, request, reply, media.key, {
        cacheControl: 'private, no-store',
        resourcePolicy: 'same-origin',
        presignSeconds: null,
        ...(media.contentType ? { contentType: media.contentType } : {}),
      });
    };
    const misses = publicMisses(fastify);
    const secret = ctx.secrets.jwt;
    const appOrigin = new URL(ctx.config.appUrl).origin;

    // The pages' forms post as browsers do (application/x-www-form-urlencoded), read here only: the rest
    // of the app takes JSON and multipart alone.
    fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16_384 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))));
    });

    /** A token found nowhere: a 404 page in the browser's language, or 429 for an address that missed too often. */
    const missing = (request: FastifyRequest, reply: FastifyReply, count = true) => {
      const penalty = misses.missed(request, { count });
      if (penalty) reply.header('retry-after', penalty);
      return page(reply, penalty ? 429 : 404, customerNotFoundPage(browserLang(request)));
    };

    /** Another site's request: a foreign Origin, or a browser that says it comes from another site. */
    const crossSite = (request: FastifyRequest) => {
      const origin = request.headers.origin;
      const site = request.headers['sec-fetch-site'];
      // `Origin: null` is what a browser sends for a form whose page withholds its referrer: let it
      // through only when the browser also says the post comes from our own origin.
      if (origin === 'null' && site === 'same-origin') return false;
      if (origin !== undefined && origin !== appOrigin) return true;
      return site !== undefined && site !== 'same-origin' && site !== 'none';
    };
    const proofOf = (request: FastifyRequest) => (request.body as Record<string, unknown> | undefined)?.proof;
    const noticeOf = (request: FastifyRequest): Notice | null => {
      const done = (request.query as { done?: unknown } | undefined)?.done;
      return typeof done === 'string' && NOTICES.has(done as Notice) ? (done as Notice) : null;
    };
    const linksOf = (base: string, tokenHash: string): PageLinks => ({ base, proof: (action) => actionProof(secret, tokenHash, action) });
    const seeOther = (reply: FastifyReply, location: string) => privately(reply).redirect(location, 303);
    /** A wrong-state refusal of an action (done already, withdrawn): the page shows the state as it is. */
    const conflictToPage = async (reply: FastifyReply, location: string, work: () => Promise<{ changed: boolean } | void>, notice: Notice) => {
      let changed = true;
      try {
        changed = (await work())?.changed ?? true;
      } catch (error) {
        if (error instanceof AppError && error.code === 'conflict') return seeOther(reply, location);
        throw error;
      }
      return seeOther(reply, changed ? `${location}?done=${notice}` : location);
    };

    /* ---------------------------------------------------------------- /my-testimonial/{token} */

    const base = (token: string) => `/my-testimonial/${token}`;

    fastify.get('/my-testimonial/:token', async (request, reply) => {
      const { token } = request.params as { token: string };
      const data = await loadCustomerPage(ctx, token);
      if (!data) return missing(request, reply);
      const site = { appUrl: ctx.config.appUrl, brandName: ctx.config.brandName, retentionDays: ctx.config.consentWithdrawnRetentionDays };
      return page(reply, 200, customerPage(data, linksOf(base(token), data.tokenHash), site, noticeOf(request)));
    });

    fastify.get('/my-testimonial/:token/withdraw', async (request, reply) => {
      const { token } = request.params as { token: string };
      const data = await loadCustomerPage(ctx, token);
      if (!data) return missing(request, reply);
      if (data.request.consentWithdrawnAt) return seeOther(reply, base(token));
      return page(reply, 200, withdrawConfirmPage(data, linksOf(base(token), data.tokenHash), ctx.config.consentWithdrawnRetentionDays));
    });

    fastify.post('/my-testimonial/:token/withdraw', async (request, reply) => {
      const { token } = request.params as { token: string };
      const data = await loadCustomerPage(ctx, token);
      if (!data) return missing(request, reply);
      if (crossSite(request) || !isActionProof(secret, data.tokenHash, 'withdraw', proofOf(request))) return page(reply, 403, refusedPage(data.lang));
      return conflictToPage(reply, base(token), () => withdrawConsent(ctx, token, actor(request)), 'withdrawn');
    });

    const answerOf = async (request: FastifyRequest) => {
      const { token, responseId } = request.params as { token: string; responseId: string };
      const data = await loadCustomerPage(ctx, token);
      return { token, data, answer: data?.answers.find((a) => a.id === responseId) };
    };

    fastify.get('/my-testimonial/:token/remove/:responseId', async (request, reply) => {
      const { token, data, answer } = await answerOf(request);
      if (!data) return missing(request, reply);
      if (!answer) return page(reply, 404, customerNotFoundPage(data.lang));
      if (answer.removalRequestedAt || data.request.consentWithdrawnAt) return seeOther(reply, base(token));
      return page(reply, 200, removeConfirmPage(data, answer, linksOf(base(token), data.tokenHash)));
    });

    fastify.post('/my-testimonial/:token/remove/:responseId', async (request, reply) => {
      const { token, data, answer } = await answerOf(request);
      if (!data) return missing(request, reply);
      if (!answer) return page(reply, 404, customerNotFoundPage(data.lang));
      if (crossSite(request) || !isActionProof(secret, data.tokenHash, `remove:${answer.id}`, proofOf(request))) return page(reply, 403, refusedPage(data.lang));
      return conflictToPage(reply, base(token), () => requestAnswerRemoval(ctx, token, answer.id, actor(request)), 'removed');
    });

    fastify.get('/my-testimonial/:token/answers/:responseId', { logLevel: 'warn' }, async (request, reply) => {
      const { token, responseId } = request.params as { token: string; responseId: string };
      return sendPrivateMedia(request, reply, await customerAnswerMedia(ctx, token, responseId));
    });

    /* ---------------------------------------------------------------- /approve/{token} */

    const approvalBase = (token: string) => `/approve/${token}`;

    fastify.get('/approve/:token', async (request, reply) => {
      const { token } = request.params as { token: string };
      const data = await loadApprovalPage(ctx, token);
      if (!data) return missing(request, reply);
      return page(reply, 200, approvalPage(data, linksOf(approvalBase(token), data.tokenHash), noticeOf(request)));
    });

    const decide = (approved: boolean) => async (request: FastifyRequest, reply: FastifyReply) => {
      const { token } = request.params as { token: string };
      const data = await loadApprovalPage(ctx, token);
      if (!data) return missing(request, reply);
      const action = approved ? 'approve' : 'changes';
      if (crossSite(request) || !isActionProof(secret, data.tokenHash, action, proofOf(request))) return page(reply, 403, refusedPage(data.lang));
      if (approved) return conflictToPage(reply, approvalBase(token), () => decideApproval(ctx, token, { approved: true }, actor(request)), 'approved');
      const raw = (request.body as Record<string, unknown> | undefined)?.comment;
      const comment = typeof raw === 'string' ? raw.replace(/\r\n?/g, '\n').trim() : '';
      if (comment.length < 1 || comment.length > APPROVAL_COMMENT_MAX) {
        const shown = typeof raw === 'string' ? raw.slice(0, APPROVAL_COMMENT_MAX * 2) : '';
        return page(reply, 400, approvalPage(data, linksOf(approvalBase(token), data.tokenHash), null, { comment: shown }));
      }
      return conflictToPage(reply, approvalBase(token), () => decideApproval(ctx, token, { approved: false, comment }, actor(request)), 'changes');
    };
    fastify.post('/approve/:token/approve', decide(true));
    fastify.post('/approve/:token/changes', decide(false));

    fastify.get('/approve/:token/video', { logLevel: 'warn' }, async (request, reply) => {
      const { token } = request.params as { token: string };
      return sendPrivateMedia(request, reply, await approvalMedia(ctx, token));
    });

    // Any other path under these prefixes is a page that is not there (never the web app), and a miss.
    const nothingHere = async (request: FastifyRequest, reply: FastifyReply) => missing(request, reply);
    for (const path of ['/my-testimonial/', '/my-testimonial/*', '/approve/', '/approve/*']) fastify.get(path, nothingHere);
  };
}
