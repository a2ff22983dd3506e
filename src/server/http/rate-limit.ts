import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Database } from '../db/client.js';
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

declare module 'fastify' {
  interface FastifyInstance {
    /** The in-memory counters of this app, for the limits that stay per process (localLimits). */
    rateCounters: WindowCounters;
    /** The limits shared by every API process of the deployment (limits, the sign-in throttle, the upload budget). */
    sharedLimits: SharedLimits;
  }
}

/** The table of migration 0023, in rate-limiter-flexible's shape (key, points, expire in ms since the epoch). */
export const RATE_LIMIT_TABLE = 'rate_limits';
/** Rows ended this long ago are deleted by the sweep (as the library's own clean-up does). */
const SWEEP_AFTER_MS = 3_600_000;
const SWEEP_EVERY_MS = 5 * 60_000;

/** The one query rate-limiter-flexible's PostgreSQL limiter sends, on any client: text, values, rows and rowCount. */
interface StoreQuery {
  text: string;
  values?: unknown[];
}

/**
 * Counters kept in the database (decision 178), with rate-limiter-flexible's PostgreSQL limiter: every
 * API process of a deployment counts in the same rows, so N processes allow what one does. On PostgreSQL
 * the limiter gets the app's pool; on embedded PGlite (one process by construction) it gets the same
 * database through a small client, so that one code path runs in both and in the tests. The table is
 * created by migration 0023 (`tableCreated`: the app needs no DDL right at run time). A store that cannot
 * be reached fails the call (503 from the error handler): the limits that guard security fail closed.
 */
export class SharedLimits {
  private readonly limiters = new Map<string, RateLimiterPostgres>();
  private readonly storeClient: unknown;
  private readonly storeType: string;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly database: Database) {
    if (database.driver === 'postgres' && database.pool) {
      this.storeClient = database.pool;
      this.storeType = 'pool';
    } else {
      this.storeClient = {
        query: async (q: StoreQuery) => {
          const result = (await database.executeSql(q.text, q.values ?? [])) as { rows: unknown[]; rowCount?: number | null; affectedRows?: number };
          return { rows: result.rows, rowCount: result.rowCount ?? result.affectedRows ?? result.rows.length };
        },
      };
      this.storeType = 'client';
    }
  }

  /**
   * The limiter of one name (the first part of its keys): `points` per window of `durationMs`. One
   * instance per name and shape; rules of one name share their counters.
   */
  limiter(name: string, points: number, durationMs: number): RateLimiterPostgres {
    const id = `${name}|${points}|${durationMs}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = new RateLimiterPostgres({
        storeClient: this.storeClient,
        storeType: this.storeType,
        tableName: RATE_LIMIT_TABLE,
        tableCreated: true,
        clearExpiredByTimeout: false,
        keyPrefix: name,
        points,
        duration: durationMs / 1000,
      });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }

  /** Deletes rows whose window ended an hour ago, every five minutes, until `stop`. */
  startSweeping(): void {
    this.sweeper ??= setInterval(() => void this.sweep().catch(() => undefined), SWEEP_EVERY_MS).unref();
  }

  async sweep(now = Date.now()): Promise<void> {
    await this.database.executeSql(`delete from ${RATE_LIMIT_TABLE} where expire < $1`, [now - SWEEP_AFTER_MS]);
  }

  stop(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}

/** A refusal of the store (over the limit), as opposed to a failure to reach it. */
export const isLimitReached = (error: unknown): error is RateLimiterRes => error instanceof RateLimiterRes;

/** Seconds for Retry-After, at least 1. */
export const retryAfterSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export function registerRateLimits(app: FastifyInstance, database: Database, counters = new WindowCounters()): void {
  const shared = new SharedLimits(database);
  shared.startSweeping();
  app.decorate('rateCounters', counters);
  app.decorate('sharedLimits', shared);
  app.addHook('onClose', async () => shared.stop());
}

function rateLimited(reply: FastifyReply, retryAfterMs: number): AppError {
  reply.header('retry-after', retryAfterSeconds(retryAfterMs));
  return new AppError('rate_limited', { reason: 'rate_limited', errorKey: 'rateLimited' });
}

/**
 * A preHandler applying several limits to one call (e.g. per address and per e-mail), counted in the
 * database and so shared by every API process (decision 178): the rules count in order up to the first
 * one exceeded, which answers 429 with the 'rate limited' key and a Retry-After header. A store that
 * cannot be reached fails the call (fail closed).
 */
export function limits(app: FastifyInstance, rules: LimitRule[]) {
  const compiled = rules.map((rule) => ({ rule, limiter: app.sharedLimits.limiter(rule.name, rule.max, windowMs(rule.timeWindow)) }));
  return async (request: FastifyRequest, reply: FastifyReply) => {
    for (const { rule, limiter } of compiled) {
      try {
        await limiter.consume(rule.key(request));
      } catch (error) {
        // Stop at the first limit exceeded: a refused call adds no keys of the later rules.
        if (isLimitReached(error)) throw rateLimited(reply, error.msBeforeNext);
        throw error;
      }
    }
  };
}

/**
 * The same in this process's memory (WindowCounters): only for hot public paths where a limit is a
 * nuisance guard, not a security one, and a database write per call would cost more than it protects
 * (view beacons, client error reports; decision 178). N processes allow N times these.
 */
export function localLimits(app: FastifyInstance, rules: LimitRule[]) {
  const counters = app.rateCounters;
  const compiled = rules.map((rule) => ({ ...rule, windowLength: windowMs(rule.timeWindow), prefix: `${rule.name}:` }));
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const now = Date.now();
    for (const rule of compiled) {
      const window = counters.hit(rule.prefix + rule.key(request), rule.windowLength, now);
      // Stop at the first limit exceeded: a refused call must not add keys of the later rules, or a
      // client past its per-address limit could fill the bounded store (one new e-mail per call) until
      // its own counter is pushed out, and start afresh. So list the per-address rule first.
      if (window.count > rule.max) return done(rateLimited(reply, window.resetAt - now));
    }
    done();
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
