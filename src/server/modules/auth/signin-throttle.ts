import type { RateLimiterPostgres } from 'rate-limiter-flexible';
import { addressGroup, type SharedLimits } from '../../http/rate-limit.js';
import { AppError } from '../../lib/errors.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Wrong passwords one address may try on one account before it has to wait. */
export const PAIR_FREE_FAILURES = 5;
/**
 * Failures on one account, from every address, in an hour, after which each address gets only one
 * free try at it before waiting. Never zero: a first try from a new address always counts, so no
 * number of failures elsewhere keeps the owner out.
 */
export const ACCOUNT_FAILURE_CEILING = 50;
const FREE_FAILURES_UNDER_ATTACK = 1;
/** 1 s after the free failures, doubling with each further one, at most 15 minutes; forgotten a day after the first. */
const PAIR_BACKOFF = { baseMs: 1000, maxMs: 15 * MINUTE, forgetMs: 24 * HOUR };

const normalEmail = (email: string) => email.trim().toLowerCase();

function waitText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

/**
 * Slows password guessing without letting a stranger lock an account out. Wrong passwords are counted
 * per (address, account) pair: after a few, that pair waits longer after each (1 s, 2 s, 4 s… up to 15
 * minutes), and only that pair: the owner signing in from another address is not delayed. When an
 * account collects many failures from many addresses, each address gets a single free try there.
 *
 * An attempt counts as a failure from the moment it starts (a burst of parallel guesses cannot all pass
 * the check before the first one fails) and is forgotten when the password proves right. The counts live
 * in the database (http/rate-limit.ts, decision 178), so every API process of a deployment sees the same
 * ones: three processes allow what one does. A pair's failures are forgotten a day after its first one
 * (the store's fixed window); its last failure is a key of its own that ends a day after it.
 */
export class SigninThrottle {
  /** Failures per pair: an atomic count, so parallel attempts each get their own number. */
  private readonly pairs: RateLimiterPostgres;
  /** The time of the pair's last failure, as the end of a key set at that moment for a day. */
  private readonly lastFailure: RateLimiterPostgres;
  /** Wrong passwords per account from every address, per hour. */
  private readonly accounts: RateLimiterPostgres;

  constructor(shared: SharedLimits) {
    // The points are never reached: these count, and the throttle decides from the counts.
    this.pairs = shared.limiter('signin-pair', Number.MAX_SAFE_INTEGER, PAIR_BACKOFF.forgetMs);
    this.lastFailure = shared.limiter('signin-pair-last', Number.MAX_SAFE_INTEGER, PAIR_BACKOFF.forgetMs);
    this.accounts = shared.limiter('signin-failures', Number.MAX_SAFE_INTEGER, HOUR);
  }

  private pairKey(ip: string, email: string): string {
    return `${addressGroup(ip)}|${normalEmail(email)}`;
  }

  /**
   * Before a password is checked: throws SigninWait (429, and how long to wait) while this address
   * must wait for this account; otherwise counts the attempt.
   */
  async begin(ip: string, email: string, now?: number): Promise<void> {
    const key = this.pairKey(ip, email);
    const [account, last] = await Promise.all([this.accounts.get(normalEmail(email)), this.lastFailure.get(key)]);
    // The store counts from the clock when it answers; `now` may be later in tests.
    const readAt = Date.now();
    const free = (account?.consumedPoints ?? 0) >= ACCOUNT_FAILURE_CEILING ? FREE_FAILURES_UNDER_ATTACK : PAIR_FREE_FAILURES;
    // Counted first, atomically: of a burst, each attempt learns how many came before it.
    const before = (await this.pairs.consume(key)).consumedPoints - 1;
    if (before < free) return this.failedAt(key);
    // The last failure's time; an attempt of the same burst whose time is not written yet counts as now.
    const lastAt = last && last.msBeforeNext > 0 ? readAt + last.msBeforeNext - PAIR_BACKOFF.forgetMs : readAt;
    const wait = lastAt + Math.min(PAIR_BACKOFF.maxMs, PAIR_BACKOFF.baseMs * 2 ** (before - free)) - (now ?? readAt);
    if (wait > 0) {
      await this.pairs.reward(key);
      throw new SigninWait(wait);
    }
    await this.failedAt(key);
  }

  private async failedAt(key: string): Promise<void> {
    await this.lastFailure.set(key, 1, PAIR_BACKOFF.forgetMs / 1000);
  }

  /** The password was right (even if the account cannot sign in yet): this pair starts afresh. */
  async passwordRight(ip: string, email: string): Promise<void> {
    const key = this.pairKey(ip, email);
    await Promise.all([this.pairs.delete(key), this.lastFailure.delete(key)]);
  }

  /** The attempt failed before the password was judged (the database was unreachable): not a guess. */
  async undecided(ip: string, email: string): Promise<void> {
    await this.pairs.reward(this.pairKey(ip, email));
  }

  /** The password was wrong (or the account unknown): counted against the account as a whole. */
  async passwordWrong(email: string): Promise<void> {
    await this.accounts.consume(normalEmail(email));
  }
}

/** 429 with the error shape; `retryAfterSeconds` goes in the Retry-After header. */
export class SigninWait extends AppError {
  readonly retryAfterSeconds: number;

  constructor(waitMs: number) {
    super('rate_limited', {
      message: `Too many wrong passwords from your address for this account. Please wait ${waitText(waitMs)} and try again.`,
      errorKey: 'rateLimited',
    });
    this.retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
  }
}
