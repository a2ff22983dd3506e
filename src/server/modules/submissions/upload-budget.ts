/**
 * Bytes of customer uploads written to disk per client address, in fixed one-hour windows. The count
 * of calls (rate-limit.ts) does not bound what one call writes: a valid link lets each call write up
 * to its question count × UPLOAD_MAX_BYTES, so the bytes themselves are what is counted.
 *
 * Kept in this process's memory like the other limits, and bounded in keys the same way: when full,
 * ended windows go first, then the oldest quarter (an attacker rotating addresses only resets old
 * counters, never grows memory).
 */
export class UploadBudget {
  private readonly windows = new Map<string, { bytes: number; resetAt: number }>();

  constructor(
    readonly limitBytes: number,
    readonly windowMs = 3_600_000,
    private readonly maxKeys = 100_000,
  ) {}

  private windowOf(address: string, now: number) {
    let w = this.windows.get(address);
    if (w && w.resetAt <= now) {
      this.windows.delete(address);
      w = undefined;
    }
    if (!w) {
      if (this.windows.size >= this.maxKeys) this.makeRoom(now);
      w = { bytes: 0, resetAt: now + this.windowMs };
      this.windows.set(address, w);
    }
    return w;
  }

  /**
   * Counts `bytes` about to be written for `address`. Returns null when they fit; otherwise the
   * address has spent its window (whatever was left is not enough for what it is sending) and the
   * answer is the seconds until the window ends (for Retry-After).
   */
  take(address: string, bytes: number, now = Date.now()): number | null {
    const w = this.windowOf(address, now);
    if (w.bytes + bytes > this.limitBytes) {
      w.bytes = this.limitBytes;
      return Math.max(1, Math.ceil((w.resetAt - now) / 1000));
    }
    w.bytes += bytes;
    return null;
  }

  /** The seconds until the address's window ends when it has nothing left to send, else null. */
  exhausted(address: string, now = Date.now()): number | null {
    const w = this.windowOf(address, now);
    return w.bytes >= this.limitBytes ? Math.max(1, Math.ceil((w.resetAt - now) / 1000)) : null;
  }

  private makeRoom(now: number): void {
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
    if (this.windows.size < this.maxKeys) return;
    let drop = Math.ceil(this.maxKeys / 4);
    for (const key of this.windows.keys()) {
      this.windows.delete(key);
      if (--drop <= 0) break;
    }
  }
}
