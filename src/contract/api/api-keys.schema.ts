/**
 * API keys (issue 32, decision 209): the company's keys for `/api/v1`, listed without their secret,
 * created with a name and a scope (the full key answered once), revoked by id.
 */
import { z } from 'zod';
import { ZId, ZIsoDateTime, requiredText } from './common.js';

export const API_KEY_LIMITS = { name: 80 } as const;

export const API_KEY_SCOPES = ['read', 'read_write'] as const;
export const ZApiKeyScope = z.enum(API_KEY_SCOPES, { error: "The scope must be 'read' or 'read_write'" });
export type TApiKeyScope = z.infer<typeof ZApiKeyScope>;

/** `POST /api/api-keys`. */
export const ZApiKeyBody = z.object({
  name: requiredText('Name', API_KEY_LIMITS.name),
  scope: ZApiKeyScope,
});
export type TApiKeyBody = z.infer<typeof ZApiKeyBody>;

/** A key as listed: never its secret, only its public prefix. */
export const ZApiKey = z.object({
  id: ZId,
  name: z.string(),
  scope: ZApiKeyScope,
  /** The key's public part, `vr_live_<prefix>`, shown in lists to tell keys apart. */
  prefix: z.string(),
  created_at: ZIsoDateTime,
  last_used_at: ZIsoDateTime.nullable(),
  revoked_at: ZIsoDateTime.nullable(),
});
export type TApiKey = z.infer<typeof ZApiKey>;

export const ZApiKeyList = z.object({ keys: z.array(ZApiKey) });
export type TApiKeyList = z.infer<typeof ZApiKeyList>;

/** The answer of a creation: the key with its full secret, shown this once and never again. */
export const ZCreatedApiKey = ZApiKey.extend({ key: z.string() });
export type TCreatedApiKey = z.infer<typeof ZCreatedApiKey>;
