// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TUser } from '../../../../contract/api/auth.schema.js';
import type { TRole } from '../../../../contract/api/members.schema.js';
import i18n from '../../../i18n/i18n';
import { AuthProvider } from '../../../lib/auth-context';
import { saveSession } from '../../../lib/session';
import { SettingsScreen } from './settings-screen';

await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * The Team tab of the settings is the owners' (issue 32, decision 218): it follows the role that
 * GET /api/auth/me answers, and `?tab=team` opens it for an owner only. The other panels' calls fail
 * here on purpose: only the tabs are looked at.
 */

const user: TUser = {
  id: '66666666-6666-4666-8666-666666666666',
  company_id: '55555555-5555-4555-8555-555555555555',
  email: 'someone@example.com',
  firstname: 'Some',
  lastname: 'One',
  avatar_url: null,
  onboarding_completed: true,
  email_confirmed: true,
  mail_language: 'en',
};

let meAnswered = 0;

function renderAs(role: TRole, entry: string) {
  meAnswered = 0;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const path = String(input);
    if (path === '/api/auth/me') meAnswered += 1;
    const body = path === '/api/auth/me' ? { user, role, token: 'token' } : path === '/api/members' ? { members: [], invitations: [] } : { error: 'no', code: 'internal' };
    return new Response(JSON.stringify(body), { status: path === '/api/auth/me' || path === '/api/members' ? 200 : 500, headers: { 'content-type': 'application/json' } });
  });
  saveSession({ token: 'token', refreshToken: 'refresh', user, rememberMe: false });
  const router = createMemoryRouter([{ path: '/dashboard/settings', element: <AuthProvider><SettingsScreen /></AuthProvider> }], { initialEntries: [entry] });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

beforeEach(async () => {
  await i18n.changeLanguage('en');
  sessionStorage.clear();
  localStorage.clear();
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the Team tab of the settings', () => {
  it('is shown to an owner, and ?tab=team opens it', async () => {
    renderAs('owner', '/dashboard/settings?tab=team');
    expect((await screen.findByTestId('settings-tab-team')).getAttribute('data-state')).toBe('active');
    expect(await screen.findByTestId('team-panel')).toBeTruthy();
  });

  it('is hidden from an editor, for whom ?tab=team falls back to the account tab', async () => {
    renderAs('editor', '/dashboard/settings?tab=team');
    await waitFor(() => expect(screen.getByTestId('settings-tab-account').getAttribute('data-state')).toBe('active'));
    // Once the role is known (the call answered and the screen drew again), still no Team tab.
    await waitFor(() => expect(meAnswered).toBeGreaterThan(0));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByTestId('settings-tab-team')).toBeNull();
    expect(screen.queryByTestId('team-panel')).toBeNull();
  });
});
