// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { TUser } from '../../contract/api/auth.schema.js';
import { API } from '../../contract/api/paths.js';
import { ApiError, createApiClient } from './api-client';
import { getRefreshToken, getToken, saveSession, SESSION_KEYS } from './session';

/**
 * The real client against a stand-in of the server's token rules: access tokens expire, refresh
 * tokens rotate on every use, and presenting a rotated refresh token is refused.
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

const ZList = z.object({ items: z.array(z.string()) });
const PROTECTED = API.questions.list.path;
const PUBLIC = API.public.appConfig.path;

interface Recorded {
  path: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A small fake of the server: which access token is valid, which refresh token is current. */
function fakeServer(options: { refreshFails?: boolean; refreshDelayMs?: number; publicStatus?: number } = {}) {
  // Nothing is valid until the first refresh: the client's stored 'access-1' has expired.
  const state = { validToken: 'expired-for-all', currentRefresh: 'refresh-1', rotations: 0 };
  const calls: Recorded[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const path = String(input);
    const headers = { ...((init?.headers as Record<string, string> | undefined) ?? {}) };
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ path, method: init?.method ?? 'GET', headers, body });
    await tick();

    if (path === API.auth.refresh.path) {
      await tick(options.refreshDelayMs ?? 20);
      const presented = (body as { refresh_token?: string } | undefined)?.refresh_token;
      if (options.refreshFails || presented !== state.currentRefresh) {
        return json(401, {
          error: 'Your session has expired. Please sign in again.',
          code: 'unauthorized',
          errorKey: 'sessionExpired',
        });
      }
      state.rotations += 1;
      state.currentRefresh = `refresh-${state.rotations + 1}`;
      state.validToken = `access-${state.rotations + 1}`;
      return json(200, { token: state.validToken, refreshToken: state.currentRefresh });
    }
    if (path === PUBLIC) {
      if (options.publicStatus) return json(options.publicStatus, { error: 'Nope.', code: 'unauthorized' });
      return json(200, { brandName: 'Vouchreel', supportEmail: 'help@example.com', googleEnabled: false, payments: 'test' });
    }
    if (path === API.auth.signin.path) {
      return json(401, {
        error: 'The e-mail or password is incorrect.',
        code: 'unauthorized',
        errorKey: 'incorrectCredentials',
      });
    }
    if (path === API.auth.signup.path) {
      return json(409, {
        error: 'A company with this name already exists.',
        code: 'name_exists',
        field: 'companyName',
      });
    }
    if (headers.authorization !== `Bearer ${state.validToken}`) {
      return json(401, {
        error: 'Your session has expired. Please sign in again.',
        code: 'unauthorized',
        errorKey: 'sessionExpired',
      });
    }
    return json(200, { items: [`seen with ${state.validToken}`] });
  };
  const callsTo = (path: string) => calls.filter((c) => c.path === path);
  return { state, calls, callsTo, fetchImpl };
}

function signedIn(rememberMe = true) {
  // The stored access token 'access-1' has expired on the server; 'refresh-1' is still good.
  saveSession({ token: 'access-1', refreshToken: 'refresh-1', user: USER, rememberMe });
}

function setup(server: ReturnType<typeof fakeServer>, pathname = '/dashboard/questions') {
  const navigations: string[] = [];
  const client = createApiClient({
    fetch: server.fetchImpl,
    navigate: (path) => navigations.push(path),
    currentPath: () => pathname,
  });
  return { client, navigations };
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('apiFetch: credentials', () => {
  it('sends the bearer token and x-refresh-token on every non-public call', async () => {
    signedIn();
    const server = fakeServer();
    server.state.validToken = 'access-1';
    const { client } = setup(server);

    await expect(client.apiFetch(PROTECTED, { schema: ZList })).resolves.toEqual({ items: ['seen with access-1'] });
    const [call] = server.calls;
    expect(call?.headers.authorization).toBe('Bearer access-1');
    expect(call?.headers['x-refresh-token']).toBe('refresh-1');
  });

  it('sends no credentials on public paths, and never refreshes them', async () => {
    signedIn();
    const server = fakeServer({ publicStatus: 401 });
    const { client, navigations } = setup(server);

    const error = await client.apiFetch(PUBLIC, { schema: z.unknown() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]?.headers.authorization).toBeUndefined();
    expect(server.calls[0]?.headers['x-refresh-token']).toBeUndefined();
    expect(server.callsTo(API.auth.refresh.path)).toHaveLength(0);
    // The session is untouched and nobody was sent anywhere.
    expect(getToken()).toBe('access-1');
    expect(navigations).toEqual([]);
  });

  it('parses the error shape into an ApiError', async () => {
    const server = fakeServer();
    const { client } = setup(server);
    const error = await client
      .apiFetch(API.auth.signup.path, { method: 'POST', body: { companyName: 'Acme' }, schema: z.unknown() })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 409,
      code: 'name_exists',
      field: 'companyName',
      errorKey: undefined,
      message: 'A company with this name already exists.',
    });
    expect(server.calls[0]?.headers['content-type']).toBe('application/json');
    expect(server.calls[0]?.body).toEqual({ companyName: 'Acme' });
  });
});

describe('apiFetch: token refresh', () => {
  it('refreshes exactly once for 5 concurrent 401s and replays each call once with the new token', async () => {
    signedIn();
    const server = fakeServer();
    const { client, navigations } = setup(server);

    const results = await Promise.all(Array.from({ length: 5 }, () => client.apiFetch(PROTECTED, { schema: ZList })));

    expect(server.callsTo(API.auth.refresh.path)).toHaveLength(1);
    expect(server.callsTo(API.auth.refresh.path)[0]?.body).toEqual({ refresh_token: 'refresh-1' });
    const protectedCalls = server.callsTo(PROTECTED);
    expect(protectedCalls).toHaveLength(10);
    expect(protectedCalls.slice(0, 5).every((c) => c.headers.authorization === 'Bearer access-1')).toBe(true);
    expect(protectedCalls.slice(5).every((c) => c.headers.authorization === 'Bearer access-2')).toBe(true);
    expect(protectedCalls.slice(5).every((c) => c.headers['x-refresh-token'] === 'refresh-2')).toBe(true);
    expect(results).toEqual(Array.from({ length: 5 }, () => ({ items: ['seen with access-2'] })));
    // The rotated pair replaced the old one, where rememberMe put it.
    expect(localStorage.getItem(SESSION_KEYS.token)).toBe('access-2');
    expect(localStorage.getItem(SESSION_KEYS.refreshToken)).toBe('refresh-2');
    expect(navigations).toEqual([]);
  });

  it('replays a 401 that arrives after the refresh finished without refreshing again', async () => {
    signedIn(false);
    const server = fakeServer({ refreshDelayMs: 0 });
    const { client } = setup(server);

    const first = client.apiFetch(PROTECTED, { schema: ZList });
    // This one is sent with the old token but answered only after the refresh is done.
    const slowFetch = server.fetchImpl;
    client.configure({
      fetch: async (input, init) => {
        const response = await slowFetch(input, init);
        if (String(input) === PROTECTED && response.status === 401) await tick(60);
        return response;
      },
    });
    const second = client.apiFetch(PROTECTED, { schema: ZList });

    await expect(Promise.all([first, second])).resolves.toHaveLength(2);
    expect(server.callsTo(API.auth.refresh.path)).toHaveLength(1);
    expect(server.callsTo(PROTECTED)).toHaveLength(4);
    // rememberMe false: the tokens stay in sessionStorage.
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBe('access-2');
    expect(localStorage.getItem(SESSION_KEYS.token)).toBeNull();
  });

  it('replays a call only once: a second 401 after a good refresh is returned', async () => {
    signedIn();
    const server = fakeServer();
    const { client } = setup(server);
    // The server refuses every access token.
    const refuseAll: typeof fetch = async (input, init) => {
      const response = await server.fetchImpl(input, init);
      if (String(input) === PROTECTED)
        return json(401, { error: 'No.', code: 'unauthorized', errorKey: 'unauthorized' });
      return response;
    };
    client.configure({ fetch: refuseAll });

    const error = await client.apiFetch(PROTECTED, { schema: ZList }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, errorKey: 'unauthorized' });
    expect(server.callsTo(API.auth.refresh.path)).toHaveLength(1);
    expect(server.callsTo(PROTECTED)).toHaveLength(2);
  });

  it('never refreshes a call that opts out (wrong password on sign-in)', async () => {
    signedIn();
    const server = fakeServer();
    const { client, navigations } = setup(server, '/signin');
    const error = await client
      .apiFetch(API.auth.signin.path, { method: 'POST', body: {}, schema: z.unknown(), skipRefresh: true })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, errorKey: 'incorrectCredentials' });
    expect(server.callsTo(API.auth.refresh.path)).toHaveLength(0);
    expect(getToken()).toBe('access-1');
    expect(navigations).toEqual([]);
  });
});

describe('apiFetch: failed refresh', () => {
  it('clears the session and goes to /signin once, failing every waiting call', async () => {
    signedIn();
    sessionStorage.setItem(SESSION_KEYS.googleAuthAction, 'signin');
    const server = fakeServer({ refreshFails: true });
    const { client, navigations } = setup(server, '/dashboard/questions');

    const outcomes = await Promise.allSettled(
      Array.from({ length: 3 }, () => client.apiFetch(PROTECTED, { schema: ZList })),
    );

    expect(outcomes.every((o) => o.status === 'rejected')).toBe(true);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') {
        expect(outcome.reason).toBeInstanceOf(ApiError);
        expect(outcome.reason).toMatchObject({ status: 401, errorKey: 'sessionExpired' });
      }
    }
    expect(server.callsTo(API.auth.refresh.path)).toHaveLength(1);
    // No replay after a failed refresh.
    expect(server.callsTo(PROTECTED)).toHaveLength(3);
    expect(navigations).toEqual(['/signin']);
    expect(getToken()).toBeNull();
    expect(getRefreshToken()).toBeNull();
    for (const key of Object.values(SESSION_KEYS)) {
      expect(localStorage.getItem(key), key).toBeNull();
      expect(sessionStorage.getItem(key), key).toBeNull();
    }
  });

  it.each(['/testimonial/submit/x', '/signin', '/signup'])('clears the session but stays on %s', async (pathname) => {
    signedIn();
    const server = fakeServer({ refreshFails: true });
    const { client, navigations } = setup(server, pathname);

    await expect(client.apiFetch(PROTECTED, { schema: ZList })).rejects.toBeInstanceOf(ApiError);
    expect(server.callsTo(API.auth.refresh.path)).toHaveLength(1);
    expect(getToken()).toBeNull();
    expect(navigations).toEqual([]);
  });

  it('with no refresh token, does not call refresh, clears the session and goes to /signin', async () => {
    saveSession({ token: 'access-1', user: USER, rememberMe: true });
    const server = fakeServer();
    const { client, navigations } = setup(server);

    await expect(client.apiFetch(PROTECTED, { schema: ZList })).rejects.toMatchObject({
      status: 401,
      errorKey: 'sessionExpired',
    });
    expect(server.callsTo(API.auth.refresh.path)).toHaveLength(0);
    expect(server.calls[0]?.headers['x-refresh-token']).toBeUndefined();
    expect(localStorage.getItem(SESSION_KEYS.token)).toBeNull();
    expect(localStorage.getItem(SESSION_KEYS.user)).toBeNull();
    expect(navigations).toEqual(['/signin']);
  });
});
