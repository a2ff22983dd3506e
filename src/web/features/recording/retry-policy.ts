/**
 * When the upload of the answers is tried again. Pure functions, unit-tested in retry-policy.test.ts.
 *
 * - A network failure (no answer: status 0), a timeout, 408, 429 and every 5xx are retried
 *   automatically with a doubling delay (1, 2, 4, 8, 16 s, then every 30 s), for as long as the page
 *   stays open. A Retry-After header, when the server sends one, is honoured (up to the cap).
 * - Any other 4xx is the server refusing the content: it is shown with its message and a Retry button,
 *   and nothing is retried on its own.
 * Retrying is safe: the server answers an identical second submission with the first one's result.
 */

export const RETRY_BASE_MS = 1000;
export const RETRY_MAX_MS = 30_000;

/** The delay before automatic retry number `attempt` (1 for the first retry). */
export function retryDelayMs(attempt: number, retryAfterSeconds?: number | null): number {
  const backoff = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1));
  if (retryAfterSeconds != null && Number.isFinite(retryAfterSeconds) && retryAfterSeconds > 0) {
    return Math.min(RETRY_MAX_MS, Math.max(backoff, retryAfterSeconds * 1000));
  }
  return backoff;
}

/** Whether an upload that ended with this HTTP status (0: no answer at all) is retried automatically. */
export function isRetryableStatus(status: number): boolean {
  return status === 0 || status === 408 || status === 429 || status >= 500;
}

/** Reads a Retry-After header given in seconds (dates are ignored: the backoff applies). */
export function parseRetryAfter(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header.trim());
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}
