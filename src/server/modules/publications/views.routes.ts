import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZIdParams } from '../../../contract/api/common.js';
import { API } from '../../../contract/api/paths.js';
import { ZTestimonialPlaysResponse, ZViewBeaconBody, ZViewSeriesQuery, ZViewSeriesResponse } from '../../../contract/api/views.schema.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../http/auth-guard.js';
import { callerCompany } from '../../http/company-scope.js';
import { addressGroup, byIp, localLimits } from '../../http/rate-limit.js';
import { AppError } from '../../lib/errors.js';
import { inBackground, playsByTestimonial, recordBeacon, viewSeries, viewWritesSettled } from './views.service.js';

/**
 * Beacons per address in 10 minutes: a visitor who plays 20 videos of a wall to their end sends 100.
 * Past it, 429: one address cannot add more than this many milestones, whatever user agents it forges.
 */
export const BEACONS_PER_ADDRESS = 100;
/** Beacons per address and publication in 10 minutes: 4 full plays (5 beacons each) of one video. */
export const BEACONS_PER_ADDRESS_AND_SLUG = 20;

/** View analytics (issue 19, decisions 144 and 155): the players' beacon, and what the company reads. */
export function viewsRoutes(ctx: AppContext) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const authenticated = requireAuth(ctx);
    const appOrigin = new URL(ctx.config.appUrl).origin;

    // navigator.sendBeacon sends a form body (a simple request); this plugin's routes read it.
    fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))));
    });
    // A beacon still being written when the app stops is written before it closes.
    fastify.addHook('onClose', async () => viewWritesSettled());

    const beaconLimit = localLimits(fastify, [
      { name: 'view-beacons', max: BEACONS_PER_ADDRESS, timeWindow: '10 minutes', key: byIp },
      {
        name: 'view-beacons-slug',
        max: BEACONS_PER_ADDRESS_AND_SLUG,
        timeWindow: '10 minutes',
        key: (request) => `ip:${addressGroup(request.ip)}:${(request.body as { slug?: string } | undefined)?.slug ?? ''}`,
      },
    ]);

    /**
     * The beacon: 204 at once, counted or not (a bot, no valid token, an unknown or taken-down slug, a
     * repeat, a milestone out of turn, past the ceiling: the same answer, and the write happens after it,
     * so its time tells nothing either). Only a foreign Origin is refused, with 403 (decision 155).
     */
    app.post(
      API.publications.viewBeacon.route,
      { bodyLimit: 1024, logLevel: 'warn', preHandler: [beaconLimit], schema: { body: ZViewBeaconBody } },
      async (request, reply) => {
        // Our players run only in documents of our own origin (the embeds too, framed elsewhere): a
        // browser beacon that names another origin was sent by someone else's page. A beacon with no
        // Origin (an old browser, a script) is let through: its token still decides.
        const origin = request.headers.origin;
        if (origin !== undefined && origin !== appOrigin) {
          throw new AppError('no_permission', { message: 'View beacons are accepted only from the pages of this site.' });
        }
        const { slug, milestone, token } = request.body;
        const input = { slug, milestone, token, ip: request.ip, userAgent: request.headers['user-agent'], ceiling: fastify.rateCounters };
        reply.header('cache-control', 'no-store').status(204).send();
        inBackground(ctx, () => recordBeacon(ctx, input), token && `${slug}:${token}`);
        return reply;
      },
    );

    app.get(
      API.publications.publicationViews.route,
      { onRequest: [authenticated], schema: { params: ZIdParams, querystring: ZViewSeriesQuery, response: { 200: ZViewSeriesResponse } } },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return viewSeries(ctx, { companyId: callerCompany(request), publicationId: request.params.id, days: request.query.days });
      },
    );
    app.get(
      API.publications.testimonialViews.route,
      { onRequest: [authenticated], schema: { params: ZIdParams, querystring: ZViewSeriesQuery, response: { 200: ZViewSeriesResponse } } },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return viewSeries(ctx, { companyId: callerCompany(request), testimonialId: request.params.id, days: request.query.days });
      },
    );
    app.get(
      API.publications.plays.route,
      { onRequest: [authenticated], schema: { response: { 200: ZTestimonialPlaysResponse } } },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return playsByTestimonial(ctx, { companyId: callerCompany(request) });
      },
    );
  };
}
