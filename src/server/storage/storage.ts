import type { Readable } from 'node:stream';

/** Object storage behind one interface: local disk by default, S3-compatible at scale. */
export interface Storage {
  readonly driver: 'local' | 's3';
  /** Streams `body` to `key`; the object appears only once fully written. Returns its size in bytes. */
  put(key: string, body: Readable | Buffer, contentType: string): Promise<number>;
  /** The object, or the inclusive byte range `[start, end]` of it. */
  get(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** Size and type, or null when the object does not exist. */
  head(key: string): Promise<{ size: number; contentType: string } | null>;
  delete(key: string): Promise<void>;
  /** The keys of every object under `prefix` (a key prefix ending in '/'), in no particular order. */
  list(prefix: string): Promise<string[]>;
  /** Deletes every object under `prefix` (ending in '/'); returns how many there were. */
  deletePrefix(prefix: string): Promise<number>;
  /** Proves the store is reachable and writable. */
  ping(): Promise<void>;
  /**
   * A time-limited address from which a browser (or ffprobe) reads the object directly, without going
   * through this process; only stores that serve objects themselves have it (S3). Call it only where a
   * signed /files address may be handed out: it carries no further check.
   */
  presignGet?(key: string, options: { expiresInSeconds: number; downloadName?: string; audience?: 'public' | 'internal' }): Promise<string>;
}

/** Keys are '/'-separated relative paths of safe characters; anything else is a programming error. */
export function assertValidKey(key: string): void {
  if (!/^[a-zA-Z0-9][a-zA-Z0-9._-]*(\/[a-zA-Z0-9][a-zA-Z0-9._-]*)*$/.test(key) || key.includes('..')) {
    throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
  }
}

/** A prefix of keys (a folder): a valid key followed by '/'. */
export function assertValidPrefix(prefix: string): void {
  if (!prefix.endsWith('/')) throw new Error(`Invalid storage prefix: ${JSON.stringify(prefix)}`);
  assertValidKey(prefix.slice(0, -1));
}
