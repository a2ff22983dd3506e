/**
 * Reads `read()` until `ok` holds (every `intervalMs`), for what the server finishes in its own time (a
 * render, a transcription); after `timeoutMs` it fails naming what it waited for and the last value seen.
 */
export async function until<T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean, options: { timeoutMs?: number; intervalMs?: number } = {}): Promise<T> {
  const { timeoutMs = 150_000, intervalMs = 500 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
