import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { byIp } from '../../http/rate-limit.js';
import { AppError } from '../../lib/errors.js';

/**
 * Public slugs looked up in vain from one address (decision 156). A slug cannot be guessed (128 random
 * bits for a publication, about 52 for a wall), so this only slows a scanner down; it must never cost a
 * real viewer anything:
 * - a live publication or wall is always served, whatever its address did before;
 * - only the page documents count (share page, embed, wall, wall embed, and malformed paths under
 *   them): media, posters and captions never do, since any site can make its visitors' browsers fetch
 *   them by the dozen with `<img>` tags;
 * - past `freePerMinute` misses in a minute, the address is penalised: its misses answer 429 instead of
 *   404, for `firstPenaltyMs`, doubled at each new penalty within `memoryMs`, up to `maxPenaltyMs`.
 */
export const PUBLIC_MISS_POLICY = {
  freePerMinute: 30,
  firstPenaltyMs: 60_000,
  maxPenaltyMs: 16 * 60_000,
  memoryMs: 60 * 60_000,
} as const;

const MINUTE = 60_000;

export function publicMisses(app: FastifyInstance) {
  const counters = app.rateCounters;
  const keys = (request: FastifyRequest) => {
    const address = byIp(request);
    return { misses: `public-miss:${address}`, offences: `public-miss-offence:${address}`, penalty: `public-miss-penalty:${address}` };
  };
  return {
    /**
     * After a lookup that found nothing: counts the miss when it was a page document (`count`), and
     * returns the seconds to wait when the address is penalised (its answer is then a 429), else null.
     */
    missed(request: FastifyRequest, options: { count: boolean }): number | null {
      const now = Date.now();
      const key = keys(request);
      if (options.count && counters.hit(key.misses, MINUTE, now).count === PUBLIC_MISS_POLICY.freePerMinute + 1) {
        const offences = counters.hit(key.offences, PUBLIC_MISS_POLICY.memoryMs, now).count;
        const penalty = Math.min(PUBLIC_MISS_POLICY.maxPenaltyMs, PUBLIC_MISS_POLICY.firstPenaltyMs * 2 ** (offences - 1));
        counters.restart(key.penalty, penalty, now);
      }
      const left = counters.remainingMs(key.penalty, now);
      return left > 0 ? Math.ceil(left / 1000) : null;
    },
  };
}

/** The 429 of a penalised address's miss on a JSON route (oEmbed), with its Retry-After. */
export function rateLimited(reply: FastifyReply, seconds: number): AppError {
  reply.header('retry-after', seconds);
  return new AppError('rate_limited', { reason: 'rate_limited', errorKey: 'rateLimited' });
}
