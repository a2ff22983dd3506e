// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TUser } from '../../contract/api/auth.schema.js';
import type { TRole } from '../../contract/api/members.schema.js';
import { useStats } from '../features/dashboard/api/get-stats';
import i18n from '../i18n/i18n';
import { AuthProvider, useAuth } from '../lib/auth-context';
import { getToken, saveSession } from '../lib/session';
import { CompanySwitcher } from './company-switcher';

await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * The company switcher (issue 32, decision 219) with the real auth state, session store, router, query
 * client and translations, against a stand-in for the HTTP API whose answers depend on the token sent:
 * it lists the companies with the role in each, and switching stores the new token, empties the cache
 * and fetches everything again as the other company.
 */

const ACME = '1e2d3c4b-5a69-4877-8a9b-0c1d2e3f4a5b';
const GLOBEX = '2f3e4d5c-6b7a-4988-9bac-1d2e3f4a5b6c';
const NAMES: Record<string, string> = { [ACME]: 'Acme', [GLOBEX]: 'Globex' };
const ROLE: Record<string, TRole> = { [ACME]: 'owner', [GLOBEX]: 'editor' };
const CREDITS: Record<string, number> = { [ACME]: 7, [GLOBEX]: 2 };
const TOKEN: Record<string, string> = { [ACME]: 'token-acme', [GLOBEX]: 'token-globex' };

const user = (companyId: string): TUser => ({
  id: '0b7f3f52-8d1e-4c1a-9a55-1d2f3e4a5b6c',
  company_id: companyId,
  email: 'ada@agency.test',
  firstname: 'Ada',
  lastname: 'Lovelace',
  avatar_url: null,
  onboarding_completed: true,
  email_confirmed: true,
  mail_language: 'en',
  company: { id: companyId, name: NAMES[companyId]! },
});

interface Call {
  method: string;
  path: string;
  token: string | null;
  body: unknown;
}

/** The API as the server answers it: the company is the token's. */
function stubApi(companies: string[]) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    const method = init?.method ?? 'GET';
    const token = new Headers(init?.headers).get('authorization')?.replace('Bearer ', '') ?? null;
    const body = init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined;
    calls.push({ method, path, token, body });
    const company = Object.keys(TOKEN).find((id) => TOKEN[id] === token)!;
    const json = (status: number, value: unknown) => new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });
    if (method === 'GET' && path === '/api/auth/me') {
      return json(200, {
        user: user(company),
        role: ROLE[company],
        companies: companies.map((id) => ({ id, name: NAMES[id], role: ROLE[id] })),
        token: token ?? '',
      });
    }
    if (method === 'GET' && path.startsWith('/api/testimonials/stats?company_id=')) {
      const asked = new URL(path, 'http://x').searchParams.get('company_id');
      if (asked !== company) return json(403, { error: 'Forbidden', code: 'no_permission' });
      return json(200, { users: 1, questions: 1, testimonials: 1, completed: 0, requested: 1, credits: CREDITS[company] });
    }
    if (method === 'POST' && path === '/api/companies/switch') {
      const target = (body as { companyId: string }).companyId;
      return json(200, { token: TOKEN[target], companyId: target, role: ROLE[target] });
    }
    throw new Error(`unexpected call ${method} ${path}`);
  });
  return calls;
}

/** What the dashboard shows of the active company: its credits (a query keyed by company) and where we are. */
function Probe() {
  const { user: current } = useAuth();
  const stats = useStats(current?.company_id);
  const { pathname } = useLocation();
  return (
    <>
      <p data-testid="where">{pathname}</p>
      <p data-testid="credits">{stats.data ? String(stats.data.credits) : 'none'}</p>
    </>
  );
}

function renderSwitcher(path = '/dashboard/testimonials') {
  const element = (
    <AuthProvider>
      <CompanySwitcher />
      <Probe />
    </AuthProvider>
  );
  const router = createMemoryRouter(
    [
      { path: '/dashboard', element },
      { path: '/dashboard/testimonials', element },
    ],
    { initialEntries: [path] },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return queryClient;
}

const open = async () => {
  const trigger = await screen.findByTestId('company-switcher', {}, { timeout: 10_000 });
  fireEvent.keyDown(trigger, { key: 'Enter' });
  return screen.findByTestId('company-switcher-content');
};

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  saveSession({ token: TOKEN[ACME]!, refreshToken: 'refresh-1', user: user(ACME), rememberMe: true });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('company switcher', () => {
  it('is not shown to a person in one company', async () => {
    const calls = stubApi([ACME]);
    renderSwitcher();
    await waitFor(() => expect(calls.some((call) => call.path === '/api/auth/me')).toBe(true), { timeout: 10_000 });
    expect(await screen.findByTestId('credits', {}, { timeout: 10_000 })).toHaveProperty('textContent', '7');
    expect(screen.queryByTestId('company-switcher')).toBeNull();
  });

  it('lists the companies with the role in each, the active one checked, from the keyboard', async () => {
    stubApi([ACME, GLOBEX]);
    renderSwitcher();
    expect((await screen.findByTestId('company-switcher-name', {}, { timeout: 10_000 })).textContent).toBe('Acme');
    const menu = await open();
    const items = within(menu).getAllByTestId('company-switcher-item');
    expect(items.map((item) => item.textContent)).toEqual(['AcmeOwner', 'GlobexEditor']);
    expect(items[0]!.getAttribute('aria-checked')).toBe('true');
    expect(items[1]!.getAttribute('aria-checked')).toBe('false');
    expect(items[0]!.getAttribute('role')).toBe('menuitemradio');
  });

  it('switching stores the new token, empties the cache and fetches everything again as the other company', async () => {
    const calls = stubApi([ACME, GLOBEX]);
    const queryClient = renderSwitcher();
    await waitFor(() => expect(screen.getByTestId('credits').textContent).toBe('7'), { timeout: 10_000 });
    await waitFor(() => expect(queryClient.getQueryData(['auth', 'me'])).toBeDefined(), { timeout: 10_000 });
    // Something of Acme's that nothing on screen follows: it must not survive the switch either.
    queryClient.setQueryData(['requests', ACME], [{ id: 'acme-secret' }]);

    const menu = await open();
    fireEvent.click(within(menu).getAllByTestId('company-switcher-item')[1]!);

    await waitFor(() => expect(screen.getByTestId('credits').textContent).toBe('2'), { timeout: 10_000 });
    expect(calls.find((call) => call.method === 'POST')).toMatchObject({ path: '/api/companies/switch', token: TOKEN[ACME], body: { companyId: GLOBEX } });
    expect(getToken()).toBe(TOKEN[GLOBEX]);
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/dashboard'), { timeout: 10_000 });
    expect(screen.getByTestId('company-switcher-name').textContent).toBe('Globex');
    expect(queryClient.getQueryData(['requests', ACME])).toBeUndefined();
    expect(queryClient.getQueryData(['stats', ACME])).toBeUndefined();
    // Every call after the switch carries the new token, and the role is fetched again (the menu now says Editor is active).
    const after = calls.slice(calls.findIndex((call) => call.method === 'POST') + 1);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((call) => call.token === TOKEN[GLOBEX])).toBe(true);
    await waitFor(() => expect(after.some((call) => call.path === '/api/auth/me')).toBe(true), { timeout: 10_000 });
    const reopened = await open();
    expect(within(reopened).getAllByTestId('company-switcher-item')[1]!.getAttribute('aria-checked')).toBe('true');
  });
});
