// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import * as React from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, Outlet, RouterProvider, useLocation } from 'react-router';
import type { TUser } from '../../contract/api/auth.schema.js';
import { API } from '../../contract/api/paths.js';
import { RequireAuth } from '../app/require-auth';
import { AuthProvider, useAuth } from './auth-context';
import { saveSession, SESSION_KEYS } from './session';

// The unit-test config compiles JSX with esbuild's classic runtime (it has no tsconfig.json to read
// 'react-jsx' from), so the components under test find React as a global.
Object.assign(globalThis, { React });

/**
 * The start-up steps of spec §4 and the route guard of §2, with the real provider, guard and router
 * in memory, against a stand-in for GET /api/auth/me.
 */

const USER: TUser = {
  id: '7b0c1c3e-4a57-4c1e-9d8e-2f1a6b7c8d90',
  company_id: '1e2d3c4b-5a69-4877-8a9b-0c1d2e3f4a5b',
  email: 'ada@example.com',
  firstname: 'Ada',
  lastname: 'Lovelace',
  avatar_url: null,
  onboarding_completed: false,
  email_confirmed: true,
  mail_language: 'en',
};

interface MeCall {
  authorization: string | undefined;
}

/** Answers GET /api/auth/me with `status`, recording the calls. */
function stubMe(status: number, user: TUser = { ...USER, firstname: 'Augusta' }) {
  const calls: MeCall[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    if (path !== API.auth.me.path) throw new Error(`unexpected call ${path}`);
    calls.push({ authorization: (init?.headers as Record<string, string> | undefined)?.authorization });
    const body =
      status === 200
        ? { user, token: 'access-1', refreshToken: 'refresh-1' }
        : { error: 'A server error occurred.', code: 'server_error' };
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

/** Shows the auth state and where the router is. */
function Probe() {
  const { status, user } = useAuth();
  const location = useLocation();
  const state = location.state as { step?: number; fromGoogle?: boolean } | null;
  return (
    <div>
      <p data-testid="status">{status}</p>
      <p data-testid="user">{user ? user.firstname : 'none'}</p>
      <p data-testid="path">{location.pathname}</p>
      <p data-testid="nav-state">{state ? JSON.stringify(state) : 'none'}</p>
    </div>
  );
}

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      {
        element: (
          <AuthProvider>
            <Probe />
            <Outlet />
          </AuthProvider>
        ),
        children: [
          { path: '/', element: <p>home</p> },
          { path: '/signin', element: <p>signin page</p> },
          { path: '/signup', element: <p>signup page</p> },
          {
            element: <RequireAuth />,
            children: [
              { path: '/dashboard', element: <p>dashboard</p> },
              { path: '/dashboard/questions', element: <p>questions</p> },
            ],
          },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const text = (testId: string) => screen.getByTestId(testId).textContent;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('AuthProvider: restoring the session at start', () => {
  it('token, refreshToken and user → authenticated, then checked with GET /api/auth/me', async () => {
    saveSession({ token: 'access-1', refreshToken: 'refresh-1', user: USER, rememberMe: true });
    const calls = stubMe(200);
    renderAt('/dashboard');

    // The first import of the session chunk (zod) can take seconds on a busy machine.
    await waitFor(() => expect(text('status')).toBe('authenticated'), { timeout: 10_000 });
    expect(screen.getByText('dashboard')).toBeTruthy();
    // The check's user replaces the stored one.
    await waitFor(() => expect(text('user')).toBe('Augusta'));
    expect(calls).toEqual([{ authorization: 'Bearer access-1' }]);
    expect((JSON.parse(localStorage.getItem(SESSION_KEYS.user) ?? '{}') as TUser).firstname).toBe('Augusta');
  });

  it('a failed check is only logged (console.warn) and the stored session is kept', async () => {
    saveSession({ token: 'access-1', refreshToken: 'refresh-1', user: USER, rememberMe: false });
    stubMe(500);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderAt('/dashboard');

    await waitFor(() => expect(warn).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    expect(text('status')).toBe('authenticated');
    expect(text('user')).toBe('Ada');
    expect(screen.getByText('dashboard')).toBeTruthy();
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBe('access-1');
    expect(sessionStorage.getItem(SESSION_KEYS.user)).not.toBeNull();
  });

  it('discards a stored user that cannot be read: anonymous, and the guard sends to /signin', async () => {
    saveSession({ token: 'access-1', refreshToken: 'refresh-1', user: USER, rememberMe: true });
    localStorage.setItem(SESSION_KEYS.user, '{"firstname": "Ada"');
    const calls = stubMe(200);
    renderAt('/dashboard/questions');

    await waitFor(() => expect(text('path')).toBe('/signin'));
    expect(text('status')).toBe('anonymous');
    expect(localStorage.getItem(SESSION_KEYS.user)).toBeNull();
    expect(calls).toEqual([]);
    expect(text('nav-state')).toBe(JSON.stringify({ from: '/dashboard/questions' }));
  });

  it('only a token → authenticated with the user read from storage, without a check', async () => {
    sessionStorage.setItem(SESSION_KEYS.token, 'access-1');
    const calls = stubMe(200);
    renderAt('/dashboard');

    await waitFor(() => expect(text('status')).toBe('authenticated'));
    expect(text('user')).toBe('none');
    expect(screen.getByText('dashboard')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('nothing stored → anonymous at once, without the session chunk or a check; the guard sends to /signin', async () => {
    const calls = stubMe(200);
    renderAt('/dashboard');
    // No token: nothing to restore (docs/decisions/141), so the landing page never loads the schemas.
    expect(text('status')).toBe('anonymous');
    expect(screen.queryByText('dashboard')).toBeNull();
    await waitFor(() => expect(text('path')).toBe('/signin'));
    expect(calls).toEqual([]);
  });

  it('googleSignupInProgress → /signup at step 2, flagged as coming from Google', async () => {
    sessionStorage.setItem(SESSION_KEYS.googleSignupInProgress, 'true');
    stubMe(200);
    renderAt('/');

    await waitFor(() => expect(text('path')).toBe('/signup'));
    expect(text('nav-state')).toBe(JSON.stringify({ step: 2, fromGoogle: true }));
  });
});

describe('RequireAuth during a Google sign-up', () => {
  it('sends exactly /dashboard to /signup step 2, and other dashboard paths to /signin', async () => {
    stubMe(200);
    sessionStorage.setItem(SESSION_KEYS.googleSignupInProgress, 'true');
    // On /signup itself the start-up step leaves the page alone.
    const router = renderAt('/signup');
    await waitFor(() => expect(text('status')).toBe('anonymous'));
    expect(text('nav-state')).toBe('none');

    await act(() => router.navigate('/dashboard'));
    await waitFor(() => expect(text('nav-state')).toBe(JSON.stringify({ step: 2, fromGoogle: true })));
    expect(text('path')).toBe('/signup');

    await act(() => router.navigate('/dashboard/questions'));
    await waitFor(() => expect(text('path')).toBe('/signin'));
  });
});
