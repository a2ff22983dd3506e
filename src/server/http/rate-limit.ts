import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { AppError } from '../lib/errors.js';

export interface LimitRule {
  /** Counter name; the key is `${name}:${key(request)}`. Rules of one name share their counters. */
  name: string;
  max: number;
  /** Milliseconds, or a duration such as '10 minutes'. */
  timeWindow: string | number;
  key: (request: FastifyRequest) => string;
}

const UNITS: Record<string, number> = { second: 1000, minute: 60_000, hour: 3_600_000, day: 86_400_000 };

export function windowMs(timeWindow: string | number): number {
  if (typeof timeWindow === 'number') return timeWindow;
  const match = /^(\d+)\s*(second|minute|hour|day)s?$/.exec(timeWindow.trim());
  if (!match) throw new Error(`Unreadable rate-limit window: ${timeWindow}`);
  return Number(match[1]) * UNITS[match[2]!]!;
}

interface Window {
  count: number;
  resetAt: number;
}

/**
 * Fixed-window counters in this process's memory, bounded in keys: when full, ended windows are
 * dropped first, then the oldest quarter (an attacker rotating addresses can only reset old counters,
 * never grow memory). Synchronous and O(1) per hit: the limit is checked on every customer call.
 */
export class WindowCounters {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly maxKeys = 100_000) {}

  get size(): number {
    return this.windows.size;
  }

  hit(key: string, windowLength: number, now = Date.now()): Window {
    let current = this.windows.get(key);
    if (current && current.resetAt <= now) {
      this.windows.delete(key);
      current = undefined;
    }
    if (!current) {
      if (this.windows.size >= this.maxKeys) this.makeRoom(now);
      current = { count: 0, resetAt: now + windowLength };
      this.windows.set(key, current);
    }
    current.count += 1;
    return current;
  }

  private makeRoom(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    if (this.windows.size < this.maxKeys) return;
    let drop = Math.ceil(this.maxKeys / 4);
    for (const key of this.windows.keys()) {
      this.windows.delete(key);
      if (--drop <= 0) break;
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The rate-limit counters of this app (one set per app, shared by its routes). */
    rateCounters: WindowCounters;
  }
}

export function registerRateLimits(app: FastifyInstance, counters = new WindowCounters()): void {
  app.decorate('rateCounters', counters);
}

/**
 * A preHandler applying several limits to one call (e.g. per address and per e-mail): every rule
 * counts, and the first exceeded answers 429 with the 'rate limited' key and a Retry-After header.
 */
export function limits(app: FastifyInstance, rules: LimitRule[]) {
  const counters = app.rateCounters;
  const compiled = rules.map((rule) => ({ ...rule, windowLength: windowMs(rule.timeWindow), prefix: `${rule.name}:` }));
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const now = Date.now();
    let exceeded: Window | undefined;
    for (const rule of compiled) {
      const window = counters.hit(rule.prefix + rule.key(request), rule.windowLength, now);
      if (window.count > rule.max && !exceeded) exceeded = window;
    }
    if (!exceeded) return done();
    reply.header('retry-after', Math.max(1, Math.ceil((exceeded.resetAt - now) / 1000)));
    done(
      new AppError('rate_limited', {
        message: 'Too many attempts. Please wait a few minutes and try again.',
        errorKey: 'rateLimited',
      }),
    );
  };
}

export const byIp = (request: FastifyRequest) => `ip:${request.ip}`;

export const byBodyEmail = (request: FastifyRequest) => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? `email:${email.trim().toLowerCase()}` : `ip:${request.ip}`;
};
