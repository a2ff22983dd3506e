import { createHash } from 'node:crypto';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { apiIdempotencyKeys } from '../../db/schema.js';
import { AppError, invalidData } from '../../lib/errors.js';

/**
 * `Idempotency-Key` on `/api/v1` writes (issue 32, decision 222). The first call with a key takes it
 * (a row without an answer), runs, and stores its answer; a retry with the same key and the same body
 * gets that answer again without running; the same key with another body is refused (409). Keys are
 * per API key and operation, and kept 24 hours. A call that fails gives its key back, so that the
 * retry runs; a key taken by a call that never finished (its process died) is free again after a minute.
 */

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/** A key taken this long ago without an answer belongs to a call that died: another may take it. */
export const IDEMPOTENCY_ABANDONED_MS = 60_000;
const KEY_FORM = /^[\x21-\x7e]{1,255}$/;

/** The key of a call: its header, checked (1 to 255 visible ASCII characters), or null without one. */
export function idempotencyKeyOf(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  const key = Array.isArray(header) ? header[0] : header;
  if (!key || !KEY_FORM.test(key)) throw invalidData('The Idempotency-Key header must be 1 to 255 visible ASCII characters (a UUID, for example).', 'Idempotency-Key');
  return key;
}

/** The same body whatever the order of its keys. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  return value;
}
export const bodyHash = (body: unknown) => createHash('sha256').update(JSON.stringify(canonical(body ?? null))).digest('hex');

export interface IdempotentCall<T> {
  apiKeyId: string;
  operation: string;
  key: string;
  body: unknown;
  status: number;
  run: () => Promise<T>;
}

/** Runs the call once per key: the first answer is stored, and a retry gets it back with `replayed`. */
export async function runIdempotent<T>(ctx: AppContext, call: IdempotentCall<T>, now = new Date()): Promise<{ response: T; replayed: boolean }> {
  const hash = bodyHash(call.body);
  const where = and(eq(apiIdempotencyKeys.apiKeyId, call.apiKeyId), eq(apiIdempotencyKeys.operation, call.operation), eq(apiIdempotencyKeys.key, call.key));
  // This API key's expired keys are removed, and this key is free again if a call that died took it.
  await ctx.db
    .delete(apiIdempotencyKeys)
    .where(
      and(
        eq(apiIdempotencyKeys.apiKeyId, call.apiKeyId),
        or(
          lt(apiIdempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_TTL_MS)),
          and(where, isNull(apiIdempotencyKeys.status), lt(apiIdempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_ABANDONED_MS))),
        ),
      ),
    );
  const [taken] = await ctx.db
    .insert(apiIdempotencyKeys)
    .values({ apiKeyId: call.apiKeyId, operation: call.operation, key: call.key, bodyHash: hash, createdAt: now })
    .onConflictDoNothing()
    .returning({ key: apiIdempotencyKeys.key });
  if (!taken) {
    const [first] = await ctx.db.select().from(apiIdempotencyKeys).where(where);
    if (!first) throw new AppError('conflict', { message: 'A call with this Idempotency-Key is in progress. Try again in a moment.' });
    if (first.bodyHash !== hash) {
      throw new AppError('conflict', { message: 'This Idempotency-Key was already used with a different body. Use a new key for a different call.', field: 'Idempotency-Key' });
    }
    if (first.status === null) throw new AppError('conflict', { message: 'A call with this Idempotency-Key is in progress. Try again in a moment.' });
    return { response: first.response as T, replayed: true };
  }
  let response: T;
  try {
    response = await call.run();
  } catch (error) {
    // The call did nothing: its key is given back, so that a retry runs.
    await ctx.db.delete(apiIdempotencyKeys).where(and(where, isNull(apiIdempotencyKeys.status)));
    throw error;
  }
  await ctx.db
    .update(apiIdempotencyKeys)
    .set({ status: call.status, response: sql`${JSON.stringify(response)}::jsonb` })
    .where(where);
  return { response, replayed: false };
}
