/**
 * The customer's calls on an open collection link (issue 30), without credentials and without zod (the
 * recording page stays light): the link's first step, the details that start a request, the e-mail code.
 */
import type { TCollectStartResponse, TPublicCollectionLink } from '../../../../contract/api/collection.schema.js';
import { API } from '../../../../contract/api/paths.js';
import { PublicCallError } from '../public-api';

async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      credentials: 'omit',
      cache: 'no-store',
      ...init,
      headers: { accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}) },
    });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw new PublicCallError(0, null);
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new PublicCallError(response.status, body);
  return body as T;
}

export function getPublicLink(slug: string, signal?: AbortSignal): Promise<TPublicCollectionLink> {
  return call(API.collection.publicLink.path(slug), signal ? { signal } : {});
}

export function startFromLink(slug: string, details: { name: string; position: string; email: string; website: string }): Promise<TCollectStartResponse> {
  return call(API.collection.start.path(slug), { method: 'POST', body: JSON.stringify(details) });
}

export function confirmCode(token: string, code: string): Promise<{ success: true }> {
  return call(API.collection.confirmCode.path, { method: 'POST', body: JSON.stringify({ token, code }) });
}

export function resendCode(token: string): Promise<{ success: true }> {
  return call(API.collection.resendCode.path, { method: 'POST', body: JSON.stringify({ token }) });
}
