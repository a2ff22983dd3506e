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

  /** Takes back one hit counted in advance for something that turned out not to happen (a view not counted). */
  refund(key: string, now = Date.now()): void {
    const current = this.windows.get(key);
    if (current && current.resetAt > now && current.count > 0) current.count -= 1;
  }

  /** The count of the key's current window, without counting a hit. */
  peek(key: string, now = Date.now()): number {
    const current = this.windows.get(key);
    return current && current.resetAt > now ? current.count : 0;
  }

  /** Milliseconds left in the key's current window (0: none). */
  remainingMs(key: string, now = Date.now()): number {
    const current = this.windows.get(key);
    return current && current.resetAt > now ? current.resetAt - now : 0;
  }

  /** Starts the key afresh with one hit and a window of this length, whatever it held. */
  restart(key: string, windowLength: number, now = Date.now()): Window {
    this.windows.delete(key);
    return this.hit(key, windowLength, now);
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

interface Failures {
  count: number;
  lastAt: number;
}

export interface BackoffPolicy {
  /** The wait after the first failure beyond the free ones; it doubles with each further failure. */
  baseMs: number;
  /** The longest wait. */
  maxMs: number;
  /** A key quiet for this long is forgotten. */
  forgetMs: number;
}

/**
 * Failures per key with growing waits (password guessing from one address at one account): the first
 * `free` failures cost nothing, then each further attempt must wait baseMs·2^(failures − free), at most
 * maxMs, after the last failure. A success forgets the key. In memory, bounded like WindowCounters:
 * when full, forgotten keys go first, then the least recently failed quarter.
 */
export class FailureBackoff {
  private readonly entries = new Map<string, Failures>();

  constructor(
    private readonly policy: BackoffPolicy,
    private readonly maxKeys = 100_000,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Milliseconds the key must still wait before its next attempt (0: it may try now). */
  waitMs(key: string, free: number, now = Date.now()): number {
    const entry = this.current(key, now);
    if (!entry || entry.count < free) return 0;
    const delay = Math.min(this.policy.maxMs, this.policy.baseMs * 2 ** (entry.count - free));
    return Math.max(0, entry.lastAt + delay - now);
  }

  /** Counts a failure; returns the key's failures so far. */
  failed(key: string, now = Date.now()): number {
    const entry = this.current(key, now) ?? { count: 0, lastAt: now };
    entry.count += 1;
    entry.lastAt = now;
    // Re-inserted last: the keys that fail now are the last to make room.
    this.entries.delete(key);
    if (this.entries.size >= this.maxKeys) this.makeRoom(now);
    this.entries.set(key, entry);
    return entry.count;
  }

  succeeded(key: string): void {
    this.entries.delete(key);
  }

  /** Takes back one failure counted in advance for an attempt that turned out to decide nothing. */
  refund(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    entry.count -= 1;
    if (entry.count <= 0) this.entries.delete(key);
  }

  private current(key: string, now: number): Failures | undefined {
    const entry = this.entries.get(key);
    if (entry && now - entry.lastAt > this.policy.forgetMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private makeRoom(now: number): void {
    for (const [key, entry] of this.entries) if (now - entry.lastAt > this.policy.forgetMs) this.entries.delete(key);
    if (this.entries.size < this.maxKeys) return;
    let drop = Math.ceil(this.maxKeys / 4);
    for (const key of this.entries.keys()) {
      this.entries.delete(key);
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
 * A preHandler applying several limits to one call (e.g. per address and per e-mail): the rules count
 * in order up to the first one exceeded, which answers 429 with the 'rate limited' key and a
 * Retry-After header.
 */
export function limits(app: FastifyInstance, rules: LimitRule[]) {
  const counters = app.rateCounters;
  const compiled = rules.map((rule) => ({ ...rule, windowLength: windowMs(rule.timeWindow), prefix: `${rule.name}:` }));
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const now = Date.now();
    let exceeded: Window | undefined;
    for (const rule of compiled) {
      const window = counters.hit(rule.prefix + rule.key(request), rule.windowLength, now);
      // Stop at the first limit exceeded: a refused call must not add keys of the later rules, or a
      // client past its per-address limit could fill the bounded store (one new e-mail per call) until
      // its own counter is pushed out, and start afresh. So list the per-address rule first.
      if (window.count > rule.max) {
        exceeded = window;
        break;
      }
    }
    if (!exceeded) return done();
    reply.header('retry-after', Math.max(1, Math.ceil((exceeded.resetAt - now) / 1000)));
    done(
      new AppError('rate_limited', { reason: 'rate_limited', errorKey: 'rateLimited' }),
    );
  };
}

/** Per client address; an IPv6 client counts by its /64, which one household or machine can rotate inside. */
export const byIp = (request: FastifyRequest) => `ip:${addressGroup(request.ip)}`;

/**
 * The network an address stands for when counting one client: an IPv4 address itself, an IPv6
 * address's /64 (one subscriber usually holds a whole /64, and could change address at will within it).
 */
export function addressGroup(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!ip.includes(':')) return ip;
  const [head = '', tail] = ip.split('%')[0]!.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export const byBodyEmail = (request: FastifyRequest) => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? `email:${email.trim().toLowerCase()}` : `ip:${request.ip}`;
};
