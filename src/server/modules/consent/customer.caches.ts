import type { AppContext } from '../../context.js';

/**
 * The page caches of this process that hold live publications (publications.routes.ts keeps its share
 * pages, embeds, oEmbed, captions and media for LIVE_PAGE_TTL_MS). A customer's action takes
 * publications down outside those routes; after its commit it tells every cache registered here, so that
 * this process answers 404 at once, and the others within their TTL (decision 184).
 *
 * Keyed by the context: each app built on a context (the tests build several) has its own caches.
 */
type Forget = (publicationIds: readonly string[]) => Promise<void>;

const registry = new WeakMap<AppContext, Set<Forget>>();

/** Registers a cache's forget function; returns its removal (call it when the app closes). */
export function onPublicationsTakenDown(ctx: AppContext, forget: Forget): () => void {
  let set = registry.get(ctx);
  if (!set) registry.set(ctx, (set = new Set()));
  set.add(forget);
  return () => set.delete(forget);
}

/** Makes every registered cache of this process forget these publications (after the commit that took them down). */
export async function forgetPublications(ctx: AppContext, publicationIds: readonly string[]): Promise<void> {
  if (!publicationIds.length) return;
  for (const forget of registry.get(ctx) ?? []) await forget(publicationIds);
}
