import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, isNull, lt, or } from 'drizzle-orm';
import type { TApiKey, TApiKeyBody, TApiKeyScope, TCreatedApiKey } from '../../../contract/api/api-keys.schema.js';
import type { AppContext } from '../../context.js';
import { apiKeys } from '../../db/schema.js';
import { notFound } from '../../lib/errors.js';
import { recordActivity } from '../events/events.service.js';

type KeyRow = typeof apiKeys.$inferSelect;

/** `vr_live_` + 12 hex characters of public prefix + `_` + 43 base64url characters of secret (256 bits). */
export const KEY_PATTERN = /^vr_live_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;
const PREFIX_BYTES = 6;
const SECRET_BYTES = 32;
/** last_used_at is written at most this often per key. */
export const LAST_USED_EVERY_MS = 60_000;

export const hashSecret = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

const toApiKey = (row: KeyRow): TApiKey => ({
  id: row.id,
  name: row.name,
  scope: row.scope,
  prefix: `vr_live_${row.prefix}`,
  created_at: row.createdAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
  revoked_at: row.revokedAt?.toISOString() ?? null,
});

/** The company's keys, newest first, revoked ones included (with their date); never a secret. */
export async function listApiKeys(ctx: AppContext, companyId: string): Promise<TApiKey[]> {
  const rows = await ctx.db.select().from(apiKeys).where(eq(apiKeys.companyId, companyId)).orderBy(desc(apiKeys.createdAt));
  return rows.map(toApiKey);
}

/** A new key: only its prefix and the SHA-256 of its secret are stored; the full key is answered this once. */
export async function createApiKey(ctx: AppContext, companyId: string, body: TApiKeyBody, actorUserId?: string): Promise<TCreatedApiKey> {
  const prefix = randomBytes(PREFIX_BYTES).toString('hex');
  const secret = randomBytes(SECRET_BYTES).toString('base64url');
  const row = await ctx.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(apiKeys)
      .values({ companyId, name: body.name, scope: body.scope, prefix, secretHash: hashSecret(secret) })
      .returning();
    // The activity log (decision 220): the key's name and scope, never its secret.
    await recordActivity(tx, companyId, 'api_key.created', { key_id: inserted!.id, name: inserted!.name, scope: inserted!.scope }, { actorUserId });
    return inserted;
  });
  return { ...toApiKey(row!), key: `vr_live_${prefix}_${secret}` };
}

/** Revokes one of the company's keys (again: no change); another company's or an unknown id is 404. */
export async function revokeApiKey(ctx: AppContext, companyId: string, id: string, actorUserId?: string): Promise<void> {
  const [row] = await ctx.db.select({ id: apiKeys.id, revokedAt: apiKeys.revokedAt }).from(apiKeys).where(and(eq(apiKeys.id, id), eq(apiKeys.companyId, companyId)));
  if (!row) throw notFound('This API key does not exist.');
  if (row.revokedAt) return;
  await ctx.db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id, name: apiKeys.name });
    // Logged once, by whoever revoked it first.
    if (revoked) await recordActivity(tx, companyId, 'api_key.revoked', { key_id: revoked.id, name: revoked.name }, { actorUserId });
  });
}

export interface KeyCaller {
  keyId: string;
  companyId: string;
  scope: TApiKeyScope;
}

/**
 * The caller of a presented key, or null: a malformed, unknown or revoked key, or a wrong secret. Found
 * by its public prefix (unique index), its secret's hash compared in constant time. Marks the key used,
 * at most once a minute (a conditional update, so concurrent calls write once).
 */
export async function authenticateKey(ctx: AppContext, presented: string, now = new Date()): Promise<KeyCaller | null> {
  const match = KEY_PATTERN.exec(presented);
  if (!match) return null;
  const [, prefix, secret] = match as unknown as [string, string, string];
  const [row] = await ctx.db.select().from(apiKeys).where(eq(apiKeys.prefix, prefix));
  const expected = Buffer.from(row?.secretHash ?? hashSecret(''), 'hex');
  const given = Buffer.from(hashSecret(secret), 'hex');
  const same = timingSafeEqual(expected, given);
  if (!row || !same || row.revokedAt) return null;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_EVERY_MS) {
    const before = new Date(now.getTime() - LAST_USED_EVERY_MS);
    await ctx.db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(and(eq(apiKeys.id, row.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, before))));
  }
  return { keyId: row.id, companyId: row.companyId, scope: row.scope };
}
