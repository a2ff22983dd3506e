import type { RateLimiterPostgres } from 'rate-limiter-flexible';
import { isLimitReached, retryAfterSeconds, type SharedLimits } from '../../http/rate-limit.js';

/** The budget is counted in KiB: a byte count of a day's budget would not fit the store's integer points. */
const KIB = 1024;
/** Bytes a call writes before it takes them from the shared budget (one database write per slice, not per chunk). */
export const BUDGET_SLICE_BYTES = 256 * KIB;

/**
 * Bytes of customer uploads written to disk per client address, in fixed one-hour windows. The count
 * of calls (rate-limit.ts) does not bound what one call writes: a valid link lets each call write up
 * to its question count × UPLOAD_MAX_BYTES, so the bytes themselves are what is counted.
 *
 * Counted in the database like the other limits that guard the service (decision 178), so every API
 * process takes from the same budget. A call takes its bytes in slices of BUDGET_SLICE_BYTES, and at
 * once when a chunk would not fit what the budget had left at its last reading: a call may write at most
 * one slice beyond the budget before it is refused, however the bytes arrive.
 */
export class UploadBudget {
  private readonly limiter: RateLimiterPostgres;
  readonly limitKib: number;

  constructor(
    shared: SharedLimits,
    readonly limitBytes: number,
    readonly windowMs = 3_600_000,
  ) {
    this.limitKib = Math.max(1, Math.floor(limitBytes / KIB));
    this.limiter = shared.limiter('upload-budget', this.limitKib, windowMs);
  }

  /** The seconds until the address's window ends when it has nothing left to send, else null. */
  async exhausted(address: string): Promise<number | null> {
    const state = await this.limiter.get(address);
    return state && state.consumedPoints >= this.limitKib ? retryAfterSeconds(state.msBeforeNext) : null;
  }

  /** A meter for one call's bytes from `address`. */
  meter(address: string): UploadMeter {
    return new UploadMeter(this.limiter, address);
  }
}

export class UploadMeter {
  private pendingBytes = 0;
  /** What the budget had left at the last reading, in bytes (unknown: none assumed, so the first chunk reads it). */
  private leftBytes = 0;

  constructor(
    private readonly limiter: RateLimiterPostgres,
    private readonly address: string,
  ) {}

  /**
   * Counts `bytes` about to be written. Returns null when they fit; otherwise the address has spent its
   * window and the answer is the seconds until the window ends (for Retry-After).
   */
  async take(bytes: number): Promise<number | null> {
    this.pendingBytes += bytes;
    if (this.pendingBytes < BUDGET_SLICE_BYTES && this.pendingBytes <= this.leftBytes) return null;
    return this.flush();
  }

  /** Takes what is still pending from the budget (at the end of a file). */
  async flush(): Promise<number | null> {
    if (this.pendingBytes === 0) return null;
    const kib = Math.ceil(this.pendingBytes / KIB);
    this.pendingBytes = 0;
    try {
      const state = await this.limiter.consume(this.address, kib);
      this.leftBytes = state.remainingPoints * KIB;
      return null;
    } catch (error) {
      if (!isLimitReached(error)) throw error;
      // Spent: whatever was left is not enough for what the call is sending. The count now stands past
      // the budget, so the next call is refused before it writes a byte.
      return retryAfterSeconds(error.msBeforeNext);
    }
  }
}
