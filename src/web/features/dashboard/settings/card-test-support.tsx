import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { vi } from 'vitest';

/**
 * What the settings cards' jsdom tests share: a stand-in for the HTTP API answering each
 * `METHOD path` from a queue of replies (the last one repeats), and a render inside a fresh query
 * client without retries. Imported by tests only.
 */
export type Reply = { status: number; body?: unknown };

export function stubApi(routes: Record<string, Reply[]>) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    const method = init?.method ?? 'GET';
    calls.push({ method, path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const queue = routes[`${method} ${path}`];
    if (!queue?.length) throw new Error(`unexpected call ${method} ${path}`);
    const { status, body } = queue.length > 1 ? queue.shift()! : queue[0]!;
    if (status === 204) return new Response(null, { status });
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

export function renderWithQueries(element: ReactElement) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(<QueryClientProvider client={queryClient}>{element}</QueryClientProvider>);
}
