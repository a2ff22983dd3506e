import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.js';

export interface LimitRule {
  /** Counter name; the key is `${name}:${key(request)}`. */
  name: string;
  max: number;
  timeWindow: string | number;
  key: (request: FastifyRequest) => string;
}

/**
 * A preHandler applying several limits to one call (e.g. per address and per e-mail): every rule
 * counts, and the first exceeded answers 429 with the 'rate limited' key and a Retry-After header.
 * (@fastify/rate-limit's own hooks run only one limit per request.)
 */
export function limits(app: FastifyInstance, rules: LimitRule[]) {
  const limiters = rules.map((rule) => ({
    rule,
    check: app.createRateLimit({ max: rule.max, timeWindow: rule.timeWindow, keyGenerator: (r) => `${rule.name}:${rule.key(r)}` }),
  }));
  return async (request: FastifyRequest, reply: { header: (name: string, value: string | number) => unknown }) => {
    for (const { check } of limiters) {
      const result = await check(request);
      if (!result.isAllowed && result.isExceeded) {
        reply.header('retry-after', result.ttlInSeconds);
        throw new AppError('rate_limited', {
          message: 'Too many attempts. Please wait a few minutes and try again.',
          errorKey: 'rateLimited',
        });
      }
    }
  };
}

export const byIp = (request: FastifyRequest) => `ip:${request.ip}`;

export const byBodyEmail = (request: FastifyRequest) => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? `email:${email.trim().toLowerCase()}` : `ip:${request.ip}`;
};
