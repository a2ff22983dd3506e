/**
 * A cache of company-owned reads in this API process, kept exact by the database: a trigger announces
 * every committed change of a company's requests or of the company itself (migration 0004), and the
 * change feed (db/change-feed.ts) reports it here, which makes that company's entries stale at once,
 * in every API process.
 *
 * Only reads of the tables that announce may be cached (`testimonial_requests`, `companies`, the
 * requests' frozen questions, which never change, and `refresh_token_families`, the sessions the auth
 * guard checks on every call, announced under their user's company by migration 0007). While the feed is not connected the cache serves
 * nothing and stores nothing, since a change could go unannounced. Entries also end after `ttlMs` as a
 * last safety net. What depends on the clock (a link's expiry) is computed from the cached rows on
 * each call, never cached.
 */
/** The announcement of a change of every company at once. */
export const ALL_COMPANIES = '*';

export interface ReadTicket {
  /** The number of changes heard when the read began. */
  readonly sequence: number;
  readonly epoch: number;
}

interface Entry {
  companyId: string;
  value: unknown;
  /** The ticket of the read that produced the value. */
  sequence: number;
  epoch: number;
  expiresAt: number;
}

export interface ReadCacheOptions {
  maxEntries?: number;
  ttlMs?: number;
  /** Companies remembered as changed before everything is dropped at once instead. */
  maxChangedCompanies?: number;
}

export class ReadCache {
  private readonly entries = new Map<string, Entry>();
  /** Company id → the sequence number of its last announced change. */
  private readonly lastChange = new Map<string, number>();
  private sequence = 0;
  private epoch = 0;
  private connected = false;
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly maxChangedCompanies: number;
  hits = 0;
  misses = 0;

  constructor(options: ReadCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 20_000;
    this.ttlMs = options.ttlMs ?? 60_000;
    this.maxChangedCompanies = options.maxChangedCompanies ?? 50_000;
  }

  /** Whether changes are being heard, hence whether the cache serves. */
  get live(): boolean {
    return this.connected;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The change feed is listening (again): start from nothing, as changes may have been missed. */
  connect(): void {
    this.clear();
    this.connected = true;
  }

  /** The change feed lost its connection: serve nothing until it listens again. */
  disconnect(): void {
    this.connected = false;
    this.clear();
  }

  /** A change of this company was committed; '*' (a TRUNCATE) stands for every company. */
  changed(companyId: string): void {
    if (companyId === ALL_COMPANIES) {
      this.clear();
      return;
    }
    this.sequence += 1;
    if (this.lastChange.size >= this.maxChangedCompanies && !this.lastChange.has(companyId)) this.clear();
    this.lastChange.set(companyId, this.sequence);
  }

  /** Take before reading the database; hand to `set` with what was read. */
  ticket(): ReadTicket {
    return { sequence: this.sequence, epoch: this.epoch };
  }

  get<T>(key: string, now = Date.now()): T | undefined {
    if (!this.connected) return undefined;
    const entry = this.entries.get(key);
    if (!entry) {
      this.misses += 1;
      return undefined;
    }
    if (entry.epoch !== this.epoch || entry.expiresAt <= now || (this.lastChange.get(entry.companyId) ?? -1) > entry.sequence) {
      this.entries.delete(key);
      this.misses += 1;
      return undefined;
    }
    this.hits += 1;
    return entry.value as T;
  }

  /**
   * Stores what a read that began at `ticket` found for `companyId`, unless a change of that company
   * was announced since the read began (the value may predate it) or the feed is not listening.
   */
  set(key: string, companyId: string, value: unknown, ticket: ReadTicket, now = Date.now()): void {
    if (!this.connected || ticket.epoch !== this.epoch) return;
    if ((this.lastChange.get(companyId) ?? -1) > ticket.sequence) return;
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { companyId, value, sequence: ticket.sequence, epoch: this.epoch, expiresAt: now + this.ttlMs });
  }

  /** A read through the cache: `load` runs on a miss, and its result is kept for `companyOf(value)`. */
  async read<T>(key: string, load: () => Promise<T>, companyOf: (value: T) => string | undefined): Promise<T> {
    const cached = this.get<T>(key);
    if (cached !== undefined) return cached;
    const ticket = this.ticket();
    const value = await load();
    const companyId = companyOf(value);
    if (companyId) this.set(key, companyId, value, ticket);
    return value;
  }

  private clear(): void {
    this.entries.clear();
    this.lastChange.clear();
    this.epoch += 1;
  }
}
