/**
 * The company's collection links (issue 30): one fetcher per call, the list's query and the mutations
 * that refresh it. The QR code is a file: fetched with the session's token and saved by the browser.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ZCollectionLink, ZCollectionLinkList } from '../../../../contract/api/collection.schema.js';
import type { TCollectionLink, TCollectionLinkBody } from '../../../../contract/api/collection.schema.js';
import { API } from '../../../../contract/api/paths.js';
import { apiFetch } from '../../../lib/api-client';
import { getToken } from '../../../lib/session';

export const collectionKeys = {
  all: ['collection-links'] as const,
  list: () => ['collection-links', 'list'] as const,
};

export function listLinks(signal?: AbortSignal): Promise<TCollectionLink[]> {
  return apiFetch(API.collection.list.path, { method: API.collection.list.method, schema: ZCollectionLinkList, signal });
}

export const collectionLinksQueryOptions = () => queryOptions({ queryKey: collectionKeys.list(), queryFn: ({ signal }) => listLinks(signal) });

export function useCollectionLinks() {
  return useQuery(collectionLinksQueryOptions());
}

export function useSaveLinkMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: TCollectionLinkBody }) =>
      id
        ? apiFetch(API.collection.update.path(id), { method: API.collection.update.method, body, schema: ZCollectionLink })
        : apiFetch(API.collection.create.path, { method: API.collection.create.method, body, schema: ZCollectionLink }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: collectionKeys.all }),
  });
}

export function useDeleteLinkMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch(API.collection.remove.path(id), { method: API.collection.remove.method, schema: z.unknown() }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: collectionKeys.all }),
  });
}

/** Downloads the link's QR code (SVG or PNG) as a file named after its slug. */
export async function downloadQr(link: Pick<TCollectionLink, 'id' | 'slug'>, format: 'svg' | 'png'): Promise<void> {
  const token = getToken();
  const response = await fetch(`${API.collection.qr.path(link.id)}?format=${format}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    cache: 'no-store',
  });
  if (!response.ok) throw new Error(`QR code download failed (${response.status})`);
  const url = URL.createObjectURL(await response.blob());
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = `qr-${link.slug}.${format}`;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
