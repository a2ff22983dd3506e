import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { testimonialRequests, testimonialResponses } from '../../db/schema.js';
import { sendError } from '../../http/errors.js';
import { sendStoredObject } from '../../http/stored-object.js';
import { MEDIA_PREFIX, MEDIA_URL_TTL_SECONDS, verifyMediaSignature } from '../../media/signed-urls.js';

/** A uuid that is no answer's (a file of the testimonial itself joins no answer). */
const NO_ANSWER = '00000000-0000-0000-0000-000000000000';

/** A presigned address lives as long as the signed one it replaces, and at least this long. */
const MIN_PRESIGN_SECONDS = 60;

/**
 * GET /files/<key>?exp=&sig=: private media through signed addresses only, with byte ranges for video
 * seeking. Answers of a testimonial are served only once the company paid for it. `download=<name>`
 * asks for an attachment of that name. With S3 the checks are the same, then the answer is a redirect
 * to a presigned address of the bucket that expires with the signed one: no byte passes through here.
 */
export function mediaRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.get(`${MEDIA_PREFIX}*`, { logLevel: 'warn' }, async (request, reply) => {
      const { exp, sig, download } = request.query as { exp?: string; sig?: string; download?: string };
      const downloadName = typeof download === 'string' && download ? download.replace(/[^\w.-]/g, '_').slice(0, 120) : undefined;
      const raw = (request.params as { '*': string })['*'];
      let key: string;
      try {
        key = decodeURIComponent(raw);
      } catch {
        return sendError(reply, 404, { error: 'No such file.', code: 'not_found' });
      }
      const check = verifyMediaSignature(ctx.secrets.jwt, key, exp, sig);
      if (!check.ok) {
        return sendError(reply, 403, {
          error: check.reason === 'expired' ? 'This link has expired. Reload the page to get a new one.' : 'This link is not valid.',
          code: 'no_permission',
        });
      }
      // A testimonial's files: an answer's only once the company paid for it; none once the customer
      // withdrew their consent, nor an answer's once they asked for its removal (issue 29), even through an
      // address signed before. One primary-key lookup (with the answer's row for an answer's file): decision 187.
      const owned = /^companies\/([0-9a-f-]{36})\/requests\/([0-9a-f-]{36})\/(?:answers\/([0-9a-f-]{36})\/)?/.exec(key);
      if (owned) {
        const [row] = await ctx.db
          .select({
            paid: testimonialRequests.paid,
            companyId: testimonialRequests.companyId,
            withdrawnAt: testimonialRequests.consentWithdrawnAt,
            removedAt: testimonialResponses.removalRequestedAt,
          })
          .from(testimonialRequests)
          .leftJoin(testimonialResponses, and(eq(testimonialResponses.id, owned[3] ?? NO_ANSWER), eq(testimonialResponses.requestId, testimonialRequests.id)))
          .where(eq(testimonialRequests.id, owned[2]!));
        if (owned[3] && (!row || row.companyId !== owned[1] || !row.paid)) {
          return sendError(reply, 403, { error: 'This testimonial has not been unlocked.', code: 'no_permission' });
        }
        if (row?.withdrawnAt || row?.removedAt) return sendError(reply, 404, { error: 'No such file.', code: 'not_found' });
      }
      const remaining = Number(exp) - Math.floor(Date.now() / 1000);
      return sendStoredObject(ctx, request, reply, key, {
        cacheControl: 'private, max-age=3600',
        resourcePolicy: 'same-origin',
        presignSeconds: Math.min(MEDIA_URL_TTL_SECONDS, Math.max(MIN_PRESIGN_SECONDS, remaining)),
        downloadName,
      });
    });
  };
}
