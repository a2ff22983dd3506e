import { addressGroup, FailureBackoff, type WindowCounters } from '../../http/rate-limit.js';
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
/** 1 s after the free failures, doubling with each further one, at most 15 minutes; forgotten after a quiet day. */
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
 * the check before the first one fails) and is forgotten when the password proves right. Per process,
 * like every rate limit (http/rate-limit.ts).
 */
export class SigninThrottle {
  private readonly pairs = new FailureBackoff(PAIR_BACKOFF);

  constructor(private readonly accounts: WindowCounters) {}

  private pairKey(ip: string, email: string): string {
    return `${addressGroup(ip)}|${normalEmail(email)}`;
  }

  private accountKey(email: string): string {
    return `signin-failures:${normalEmail(email)}`;
  }

  /**
   * Before a password is checked: throws SigninWait (429, and how long to wait) while this address
   * must wait for this account; otherwise counts the attempt.
   */
  begin(ip: string, email: string, now = Date.now()): void {
    const free = this.accounts.peek(this.accountKey(email), now) >= ACCOUNT_FAILURE_CEILING ? FREE_FAILURES_UNDER_ATTACK : PAIR_FREE_FAILURES;
    const key = this.pairKey(ip, email);
    const wait = this.pairs.waitMs(key, free, now);
    if (wait > 0) throw new SigninWait(wait);
    this.pairs.failed(key, now);
  }

  /** The password was right (even if the account cannot sign in yet): this pair starts afresh. */
  passwordRight(ip: string, email: string): void {
    this.pairs.succeeded(this.pairKey(ip, email));
  }

  /** The attempt failed before the password was judged (the database was unreachable): not a guess. */
  undecided(ip: string, email: string): void {
    this.pairs.refund(this.pairKey(ip, email));
  }

  /** The password was wrong (or the account unknown): counted against the account as a whole. */
  passwordWrong(email: string, now = Date.now()): void {
    this.accounts.hit(this.accountKey(email), HOUR, now);
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
