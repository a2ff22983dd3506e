import { z } from 'zod';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZApiKeyList, ZCreatedApiKey } from '../../../../contract/api/api-keys.schema.js';
import type { TApiKeyBody, TApiKeyList, TCreatedApiKey } from '../../../../contract/api/api-keys.schema.js';
import { API } from '../../../../contract/api/paths.js';
import { apiFetch } from '../../../lib/api-client';

/** GET /api/api-keys: the company's API keys (issue 32), never their secret. */
export function listApiKeys(signal?: AbortSignal): Promise<TApiKeyList> {
  return apiFetch(API.apiKeys.list.path, { method: API.apiKeys.list.method, schema: ZApiKeyList, signal });
}

export const apiKeysKeys = { all: ['api-keys'] as const };

export const apiKeysQueryOptions = () => queryOptions({ queryKey: apiKeysKeys.all, queryFn: ({ signal }) => listApiKeys(signal) });

export function useApiKeys() {
  return useQuery(apiKeysQueryOptions());
}

/** POST /api/api-keys: a new key, answered with its full secret this once. */
export function createApiKey(body: TApiKeyBody): Promise<TCreatedApiKey> {
  return apiFetch(API.apiKeys.create.path, { method: API.apiKeys.create.method, body, schema: ZCreatedApiKey });
}

export function useCreateApiKeyMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysKeys.all }),
  });
}

/** DELETE /api/api-keys/{id}: revoke a key. */
export async function revokeApiKey(id: string): Promise<void> {
  await apiFetch(API.apiKeys.revoke.path(id), { method: API.apiKeys.revoke.method, schema: z.unknown() });
}

export function useRevokeApiKeyMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysKeys.all }),
  });
}
