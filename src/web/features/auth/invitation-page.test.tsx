// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TUser } from '../../../contract/api/auth.schema.js';
import { ZAcceptInvitationResponse, ZInvitationPreview, type TInvitationPreview } from '../../../contract/api/members.schema.js';
import i18n from '../../i18n/i18n';
import { AuthProvider } from '../../lib/auth-context';
import { getPendingInvitation, savePendingInvitation } from '../../lib/pending-invitation';
import { getToken, saveSession } from '../../lib/session';
import { InvitationPage } from './invitation-page';
import { SignupPage } from './signup-page';

await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * The invitation page (issue 32, decision 218) and the sign-up by invitation, with the real pages,
 * auth provider, fetchers and translations against a stand-in HTTP API answering the contract's shapes.
 */

const TOKEN = 'tok_' + 'a'.repeat(40);
const HOME_COMPANY = '44444444-4444-4444-8444-444444444444';
const ACME = '55555555-5555-4555-8555-555555555555';
const preview: TInvitationPreview = ZInvitationPreview.parse({
  companyName: 'Acme Bakery',
  email: 'eddie@example.com',
  role: 'editor',
  expiresAt: '2026-12-05T10:00:00.000Z',
  accountExists: false,
});
const user = (email: string, companyId: string): TUser => ({
  id: '66666666-6666-4666-8666-666666666666',
  company_id: companyId,
  email,
  firstname: 'Eddie',
  lastname: 'Editor',
  avatar_url: null,
  onboarding_completed: true,
  email_confirmed: true,
  mail_language: 'en',
});

type Reply = { status: number; body?: unknown };
function stubApi(routes: Record<string, Reply[]>) {
  const calls: { method: string; path: string; body: unknown; auth: string | null }[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    const method = init?.method ?? 'GET';
    const headers = new Headers(init?.headers);
    calls.push({ method, path, body: init?.body ? JSON.parse(String(init.body)) : undefined, auth: headers.get('authorization') });
    const queue = routes[`${method} ${path}`];
    if (!queue?.length) throw new Error(`unexpected call ${method} ${path}`);
    const { status, body } = queue.length > 1 ? queue.shift()! : queue[0]!;
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

function renderAt(entry: string) {
  const router = createMemoryRouter(
    [
      { path: '/invitation', element: <AuthProvider><InvitationPage /></AuthProvider> },
      { path: '/signup', element: <AuthProvider><SignupPage /></AuthProvider> },
      { path: '/signin', element: <p data-testid="signin-screen">sign in</p> },
      { path: '/dashboard', element: <p data-testid="dashboard-screen">dashboard</p> },
      { path: '/', element: <p data-testid="home-screen">home</p> },
    ],
    { initialEntries: [entry] },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const PREVIEW_PATH = `GET /api/invitations/preview?token=${TOKEN}`;

beforeEach(async () => {
  await i18n.changeLanguage('en');
  localStorage.clear();
  sessionStorage.clear();
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the invitation page', () => {
  it('shows who invites to which company with which role, and keeps the invitation for the sign-up', async () => {
    stubApi({ [PREVIEW_PATH]: [{ status: 200, body: preview }] });
    const router = renderAt(`/invitation#token=${TOKEN}`);
    const details = await screen.findByTestId('invitation-details');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Join Acme Bakery');
    expect(document.body.textContent).toContain('Acme Bakery invites you to join its team as an editor.');
    expect(details.textContent).toContain('eddie@example.com');
    expect(details.textContent).toContain('Editor');
    expect(details.textContent).toContain('05/12/2026');
    await waitFor(() => expect(getPendingInvitation()).toEqual({ token: TOKEN, email: 'eddie@example.com', companyName: 'Acme Bakery', role: 'editor' }));

    fireEvent.click(screen.getByTestId('invitation-signup'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/signup'));
    expect((await screen.findByTestId('signup-invitation')).textContent).toContain('You are joining Acme Bakery as an editor.');
  });

  it('offers only sign-in when an account already uses the address', async () => {
    stubApi({ [PREVIEW_PATH]: [{ status: 200, body: { ...preview, accountExists: true } }] });
    const router = renderAt(`/invitation#token=${TOKEN}`);
    fireEvent.click(await screen.findByTestId('invitation-signin'));
    expect(screen.queryByTestId('invitation-signup')).toBeNull();
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
    expect(router.state.location.state).toEqual({ from: '/invitation', email: 'eddie@example.com' });
  });

  it('says clearly when the link has expired, in French too, and when there is no link at all', async () => {
    stubApi({ [PREVIEW_PATH]: [{ status: 409, body: { error: 'This invitation has expired.', code: 'conflict', reason: 'invitation_expired' } }] });
    renderAt(`/invitation#token=${TOKEN}`);
    expect((await screen.findByTestId('invitation-error')).textContent).toBe(
      "This invitation has expired. Ask the company's owner to send it again.",
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('This invitation cannot be used');
    expect(screen.queryByTestId('invitation-join')).toBeNull();
    expect(getPendingInvitation()).toBeNull();
    cleanup();

    await i18n.changeLanguage('fr');
    renderAt('/invitation');
    expect((await screen.findByTestId('invitation-error')).textContent).toContain('Cette page s’ouvre depuis le lien de votre e-mail d’invitation.');
  });

  it('joins the company for the invited account: accept, the new token, the user re-read, then the dashboard', async () => {
    saveSession({ token: 'old-token', refreshToken: 'refresh', user: user('Eddie@example.com', HOME_COMPANY), rememberMe: false });
    const calls = stubApi({
      [PREVIEW_PATH]: [{ status: 200, body: { ...preview, accountExists: true } }],
      ['GET /api/auth/me']: [
        { status: 200, body: { user: user('eddie@example.com', HOME_COMPANY), role: 'owner', token: 'old-token' } },
        { status: 200, body: { user: user('eddie@example.com', ACME), role: 'editor', token: 'acme-token' } },
      ],
      ['POST /api/invitations/accept']: [{ status: 200, body: ZAcceptInvitationResponse.parse({ token: 'acme-token', companyId: ACME, role: 'editor' }) }],
    });
    const router = renderAt(`/invitation#token=${TOKEN}`);
    const join = await screen.findByTestId('invitation-join');
    expect(join.textContent).toBe('Join Acme Bakery');
    fireEvent.click(join);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ token: TOKEN });
    expect(getToken()).toBe('acme-token');
    // The user is read again with the new token, so the dashboard works in the invited company.
    expect(calls.filter((c) => c.path === '/api/auth/me').at(-1)?.auth).toBe('Bearer acme-token');
    expect(JSON.parse(sessionStorage.getItem('user') ?? '{}').company_id).toBe(ACME);
    expect(getPendingInvitation()).toBeNull();
  });

  it('signed in as someone else: says so and offers to sign out', async () => {
    saveSession({ token: 'old-token', refreshToken: 'refresh', user: user('someone@else.test', HOME_COMPANY), rememberMe: false });
    stubApi({
      [PREVIEW_PATH]: [{ status: 200, body: preview }],
      ['GET /api/auth/me']: [{ status: 200, body: { user: user('someone@else.test', HOME_COMPANY), role: 'owner', token: 'old-token' } }],
    });
    renderAt(`/invitation#token=${TOKEN}`);
    const other = await screen.findByTestId('invitation-other-account');
    expect(other.textContent).toBe(
      'This invitation is for eddie@example.com, but you are signed in as someone@else.test. Sign out, then sign in or create an account with eddie@example.com.',
    );
    expect(screen.getByTestId('invitation-signout').textContent).toBe('Sign out and continue');
    expect(screen.queryByTestId('invitation-join')).toBeNull();
  });
});

describe('signing up by an invitation', () => {
  it('skips the company step, locks the invited e-mail, and lands in the dashboard with the session', async () => {
    savePendingInvitation({ token: TOKEN, email: 'eddie@example.com', companyName: 'Acme Bakery', role: 'editor' });
    const calls = stubApi({
      ['POST /api/auth/signup']: [{ status: 201, body: { user: user('eddie@example.com', ACME), token: 'acme-token', refreshToken: 'acme-refresh' } }],
    });
    const router = renderAt('/signup');
    const step = await screen.findByTestId('signup-step');
    const email = within(step).getByLabelText<HTMLInputElement>('Work e-mail address');
    expect(email.value).toBe('eddie@example.com');
    expect(email.disabled).toBe(true);
    expect(document.body.textContent).toContain('Step 1 of 2');
    fireEvent.change(within(step).getByLabelText('First name'), { target: { value: 'Eddie' } });
    fireEvent.change(within(step).getByLabelText('Last name'), { target: { value: 'Editor' } });
    fireEvent.click(screen.getByTestId('signup-next'));
    await waitFor(() => expect(screen.getByTestId('signup-step').getAttribute('data-step')).toBe('3'), { timeout: 3000 });
    expect(document.body.textContent).toContain('Step 2 of 2');
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret-pass' } });
    fireEvent.change(screen.getByLabelText('Confirm your password'), { target: { value: 'secret-pass' } });
    fireEvent.click(screen.getByTestId('signup-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    const body = calls.find((c) => c.path === '/api/auth/signup')?.body as Record<string, unknown>;
    expect(body).toMatchObject({ firstname: 'Eddie', lastname: 'Editor', email: 'eddie@example.com', invitation: TOKEN, password: 'secret-pass', lang: 'en' });
    expect(body).not.toHaveProperty('companyName');
    expect(getToken()).toBe('acme-token');
    expect(getPendingInvitation()).toBeNull();
  });

  it("signing up by an invitation, 'already have an account' signs in and comes back to the invitation", async () => {
    savePendingInvitation({ token: TOKEN, email: 'eddie@example.com', companyName: 'Acme Bakery', role: 'editor' });
    stubApi({});
    const router = renderAt('/signup');
    fireEvent.click(await screen.findByTestId('signin-link'));
    await screen.findByTestId('signin-screen');
    expect(router.state.location.state).toEqual({ from: '/invitation' });
  });

  it('a new Google user invited: no company step, the invitation sent with the Google sign-up, straight into the company', async () => {
    savePendingInvitation({ token: TOKEN, email: 'eddie@example.com', companyName: 'Acme Bakery', role: 'editor' });
    sessionStorage.setItem('googleUserData', JSON.stringify({ sub: 'google-sub-7', email: 'eddie@example.com', firstname: 'Eddie', lastname: 'Editor', picture: null }));
    sessionStorage.setItem('googleAccessToken', 'google-signup-token');
    sessionStorage.setItem('googleSignupInProgress', 'true');
    const calls = stubApi({
      ['POST /api/auth/signup']: [{ status: 201, body: { user: user('eddie@example.com', ACME), token: 'acme-token', refreshToken: 'acme-refresh' } }],
    });
    const router = renderAt('/signup');
    // Google filled step 1 and the invitation skips the company: the sign-up opens at its last step.
    await waitFor(() => expect(screen.getByTestId('signup-step').getAttribute('data-step')).toBe('3'), { timeout: 3000 });
    expect(screen.queryByLabelText('Password')).toBeNull();
    fireEvent.click(screen.getByTestId('signup-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    const body = calls.find((c) => c.path === '/api/auth/signup')?.body as Record<string, unknown>;
    expect(body).toMatchObject({ email: 'eddie@example.com', fromGoogle: true, googleId: 'google-sub-7', accessToken: 'google-signup-token', invitation: TOKEN });
    expect(body).not.toHaveProperty('companyName');
    expect(getToken()).toBe('acme-token');
    expect(getPendingInvitation()).toBeNull();
    expect(sessionStorage.getItem('googleSignupInProgress')).toBeNull();
  });
});
