// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TUser } from '../../src/contract/api/auth.schema.js';
import type { TTestimonialRequest } from '../../src/contract/api/testimonials.schema.js';
import { AuthCallbackPage } from '../../src/web/features/auth/auth-callback-page';
import { SigninPage } from '../../src/web/features/auth/signin-page';
import { TestimonialDetailScreen } from '../../src/web/features/dashboard/testimonial-detail/testimonial-detail-screen';
import i18n from '../../src/web/i18n/i18n';
import { AuthProvider } from '../../src/web/lib/auth-context';
import { saveSession } from '../../src/web/lib/session';

// This config compiles JSX with esbuild's classic runtime: the components find React as a global, set
// before any component module is evaluated (vi.hoisted runs above the imports).
await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * Attacks that live in the address bar of the web app: a link crafted by an outsider and sent to a
 * signed-in person (or to anyone) must not make the real pages show the attacker's words or put the
 * attacker's address behind a real button. The pages run as they are (router, session, query client,
 * translations); only the HTTP API is a stand-in answering as the real one does.
 */

const COMPANY = '1e2d3c4b-5a69-4877-8a9b-0c1d2e3f4a5b';
const ID = '5c4d3e2f-1a0b-4c9d-8e7f-6a5b4c3d2e1f';
const USER: TUser = {
  id: '0b7f3f52-8d1e-4c1a-9a55-1d2f3e4a5b6c',
  company_id: COMPANY,
  email: 'ada@example.com',
  firstname: 'Ada',
  lastname: 'Lovelace',
  avatar_url: null,
  onboarding_completed: true,
  email_confirmed: true,
  mail_language: 'en',
};

const origin = window.location.origin;
/** The export as the API signs it for this testimonial. */
const EXPORT_FROM_API = `${origin}/files/c/${COMPANY}/t/${ID}/export-shorts-9d8c7b6a.mp4?exp=4102444800&sig=from-the-api`;

function testimonial(): TTestimonialRequest {
  return {
    id: ID,
    customer_name: 'Claire Dubois',
    customer_email: 'claire@client.test',
    delivery: 'email',
    link: 'http://localhost/testimonial/submit/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcd',
    customer_position: null,
    status: 'completed',
    created_at: '2025-03-01T10:00:00.000Z',
    updated_at: '2025-03-09T10:00:00.000Z',
    submitted_at: '2025-03-04T10:00:00.000Z',
    expires_at: '2025-03-15T10:00:00.000Z',
    last_reminder_sent: null,
    paid: true,
    language: 'english',
    gift: null,
    video_url: null,
    video_url_subtitles: null,
    has_subtitles: false,
    short_video_url: null,
    short_video_url_original: EXPORT_FROM_API,
    render_state: null,
    testimonial_responses: [
      {
        id: '7b0c1c3e-4a57-4c1e-9d8e-2f1a6b7c8d90',
        question: { id: '2b2b2b2b-2222-4222-8222-222222222222', text: 'What did you like most?' },
        video_url: `${origin}/files/a/answer.mp4?exp=4102444800&sig=abc`,
        modified_video_url: null,
        intro_generated: false,
        has_subtitles: false,
        short_video_url: null,
        short_video_url_original: null,
        orderPosition: 1,
        poster_url: null,
        render_state: null,
      },
    ],
  };
}

/** The API's answers: the testimonial's detail, and a public configuration without Google. */
function stubApi() {
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const path = String(input);
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (path === `/api/testimonials/request/${ID}?company_id=${COMPANY}`) return json(200, { testimonial: testimonial(), error_credit: false });
    if (path === '/api/public/app-config') return json(200, { brandName: 'Vouchreel', supportEmail: 'support@vouchreel.test', googleEnabled: false, payments: 'test' });
    return json(404, { error: 'Not found', code: 'not_found' });
  });
}

function renderAt(path: string, pattern: string, element: ReactNode) {
  const router = createMemoryRouter([{ path: pattern, element: <AuthProvider>{element}</AuthProvider> }], { initialEntries: [path] });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

beforeEach(async () => {
  await i18n.changeLanguage('en');
  localStorage.clear();
  sessionStorage.clear();
  stubApi();
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("open redirect through the detail screen's 'export ready' banner (issue 15, item 9)", () => {
  const detailAt = (exportUrl: string) => `/dashboard/testimonials/${ID}?export=ready&exportUrl=${encodeURIComponent(exportUrl)}`;
  const renderDetail = (exportUrl: string) => {
    saveSession({ token: 'access-1', user: USER, rememberMe: true });
    renderAt(detailAt(exportUrl), '/dashboard/testimonials/:id', <TestimonialDetailScreen />);
  };

  it('puts no foreign address behind the Download button (another site, a script, or a same-site path the API never gave)', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const attacks = [
      'https://evil.example/files/x/export-shorts-1.mp4?exp=4102444800&sig=x',
      // The real export's path on another host: only the origin differs.
      EXPORT_FROM_API.replace(origin, 'https://evil.example'),
      '//evil.example/files/x.mp4',
      'javascript:alert(document.cookie)',
      `${origin}/dev/outbox`,
    ];
    for (const attack of attacks) {
      renderDetail(attack);
      await screen.findByTestId('testimonial-title');
      // The detail has loaded: the banner would be there now if it were going to be.
      expect(screen.queryByTestId('export-ready-banner'), attack).toBeNull();
      cleanup();
    }
    expect(open).not.toHaveBeenCalled();
  });

  it("opens the address the API gives for the export, not the query's copy of it", async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    // The right export, with a signature that is not the API's: the button still opens the API's address.
    renderDetail(EXPORT_FROM_API.replace('sig=from-the-api', 'sig=forged'));
    const banner = await screen.findByTestId('export-ready-banner');
    fireEvent.click(within(banner).getByTestId('export-ready-download'));
    expect(open).toHaveBeenCalledTimes(1);
    expect(open.mock.calls[0]![0]).toBe(EXPORT_FROM_API);
  });
});

describe('free text on the sign-in page through ?message (issue 15, item 10)', () => {
  const renderSignin = (search: string) => renderAt(`/signin${search}`, '/signin', <SigninPage />);

  it('shows no notice for text, markup or unknown keys in ?message', async () => {
    const attacks = [
      'Your account is locked. Call +1 555 0100 to unlock it.',
      '<img src=x onerror=alert(1)>',
      '<script>alert(1)</script>',
      'signin.notices.sessionExpired',
      '__proto__',
      'toString',
    ];
    for (const attack of attacks) {
      renderSignin(`?message=${encodeURIComponent(attack)}`);
      await screen.findByTestId('signin-submit');
      expect(screen.queryByTestId('signin-message'), attack).toBeNull();
      expect(document.body.textContent, attack).not.toContain('555 0100');
      expect(document.body.innerHTML, attack).not.toContain('onerror');
      expect(document.body.innerHTML, attack).not.toContain('<script');
      cleanup();
    }
  });

  it('shows the translated notice of a known key, in English and in French', async () => {
    renderSignin('?message=sessionExpired');
    expect((await screen.findByTestId('signin-message')).textContent).toBe('Your session has ended. Please sign in again.');
    cleanup();

    await i18n.changeLanguage('fr');
    renderSignin('?message=passwordChanged');
    await waitFor(() =>
      expect(screen.getByTestId('signin-message').textContent).toBe(
        'Votre mot de passe a été modifié. Connectez-vous avec votre nouveau mot de passe.',
      ),
    );
  });
});

describe("free text on the Google return page through error_description (issue 15, item 10's sibling)", () => {
  it('shows the generic failure for an unknown error, never the words of the address', async () => {
    // The page reads the browser's address itself (the fragment never reaches the server).
    const attack = `/auth/callback#error=accountLocked&error_description=${encodeURIComponent('Your account is locked. Call +1 555 0100.')}`;
    window.history.replaceState(null, '', attack);
    try {
      renderAt('/auth/callback', '/auth/callback', <AuthCallbackPage />);
      const shown = await screen.findByTestId('callback-error');
      expect(shown.textContent).not.toContain('555 0100');
      expect(shown.textContent).toContain(i18n.t('authCallback.failed'));
    } finally {
      window.history.replaceState(null, '', '/');
    }
  });
});
