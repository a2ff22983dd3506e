import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { byIp, windowMs } from '../../http/rate-limit.js';
import { AppError } from '../../lib/errors.js';

/**
 * Public slugs (share pages, embeds, their media and oEmbed, walls) looked up in vain from one address: at 128
 * random bits a slug cannot be guessed, but each miss is a lookup, so an address that misses more than
 * `max` times in the window is refused (429) on every public lookup until the window ends. Only misses
 * count: viewers of a live video, however many behind one address, never use it up (decision 148).
 */
export const PUBLIC_MISS_LIMIT = { max: 60, timeWindow: '10 minutes' } as const;

export function publicMisses(app: FastifyInstance) {
  const length = windowMs(PUBLIC_MISS_LIMIT.timeWindow);
  const key = (request: FastifyRequest) => `public-miss:${byIp(request)}`;
  return {
    /** Throws the 429 (with Retry-After) when this address has missed too often. */
    check(request: FastifyRequest, reply: FastifyReply): void {
      if (app.rateCounters.peek(key(request)) < PUBLIC_MISS_LIMIT.max) return;
      reply.header('retry-after', Math.ceil(length / 1000));
      throw new AppError('rate_limited', { reason: 'rate_limited', errorKey: 'rateLimited' });
    },
    /** Counts a miss of this address. */
    missed(request: FastifyRequest): void {
      app.rateCounters.hit(key(request), length);
    },
  };
}
