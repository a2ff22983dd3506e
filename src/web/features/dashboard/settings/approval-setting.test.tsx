// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TUser } from '../../../../contract/api/auth.schema.js';
import type { TTestimonialRequestSafe } from '../../../../contract/api/testimonials.schema.js';
import i18n from '../../../i18n/i18n';
import { AuthProvider, useAuth } from '../../../lib/auth-context';
import { saveSession } from '../../../lib/session';
import { TestimonialsScreen } from '../testimonials/testimonials-screen';
import { ApprovalSettingCard } from './approval-setting';

await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * The company's approval setting on the settings screen and the withdrawn marker of the testimonials
 * list (issue 29), with the real components and translations against a stand-in for the HTTP API.
 */

const COMPANY = '1e2d3c4b-5a69-4877-8a9b-0c1d2e3f4a5b';
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
  company: { id: COMPANY, name: 'Acme Bikes', approval_required: false },
};

type Reply = { status: number; body: unknown };

function stubApi(routes: Record<string, Reply[]>) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    const method = init?.method ?? 'GET';
    calls.push({ method, path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const queue = routes[`${method} ${path}`];
    if (!queue?.length) throw new Error(`unexpected call ${method} ${path}`);
    const { status, body } = queue.length > 1 ? queue.shift()! : queue[0]!;
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

/** The card as the settings screen gives it its value (the profile's company), and the signed-in user's copy. */
function CompanySetting() {
  const { user } = useAuth();
  return (
    <>
      {user && <ApprovalSettingCard value={user.company?.approval_required ?? false} />}
      <p data-testid="user-setting">{String(user?.company?.approval_required)}</p>
    </>
  );
}

function renderIn(element: React.ReactNode) {
  const router = createMemoryRouter([{ path: '*', element: <AuthProvider>{element}</AuthProvider> }]);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  localStorage.clear();
  saveSession({ token: 'access-1', user: USER, rememberMe: true });
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(async () => {
  cleanup();
  await i18n.changeLanguage('en');
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the company approval setting', () => {
  it('is a labelled switch, off by default, saved at once when switched', async () => {
    const calls = stubApi({ ['PUT /api/user/approval-setting']: [{ status: 200, body: { approval_required: true } }] });
    renderIn(<CompanySetting />);
    const toggle = await screen.findByRole('switch', { name: 'Ask customers to approve videos before publishing' });
    expect(toggle.getAttribute('data-testid')).toBe('approval-setting');
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(toggle.getAttribute('aria-describedby')).toBeTruthy();
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    await waitFor(() => expect(screen.getByTestId('user-setting').textContent).toBe('true'));
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    expect(calls).toEqual([{ method: 'PUT', path: '/api/user/approval-setting', body: { approval_required: true } }]);
  });

  it('goes back and says why when saving fails; in French', async () => {
    await i18n.changeLanguage('fr');
    stubApi({ ['PUT /api/user/approval-setting']: [{ status: 500, body: { error: 'Boom', code: 'server_error' } }] });
    renderIn(<ApprovalSettingCard value={false} />);
    const toggle = screen.getByRole('switch', { name: 'Demander aux clients d’approuver les vidéos avant publication' });
    fireEvent.click(toggle);
    expect((await screen.findByTestId('approval-setting-error')).textContent).toContain('Le réglage n’a pas pu être enregistré');
    expect(toggle.getAttribute('aria-checked')).toBe('false');
  });
});

describe('the testimonials list', () => {
  const row = (overrides: Partial<TTestimonialRequestSafe>): TTestimonialRequestSafe => ({
    id: '5c4d3e2f-1a0b-4c9d-8e7f-6a5b4c3d2e1f',
    customer_name: 'Claire Dubois',
    customer_email: 'claire@client.test',
    customer_position: null,
    status: 'completed',
    created_at: '2025-03-01T10:00:00.000Z',
    updated_at: '2025-03-09T10:00:00.000Z',
    expires_at: '2025-03-15T10:00:00.000Z',
    last_reminder_sent: null,
    paid: true,
    language: 'english',
    gift: null,
    delivery: 'email',
    link: 'http://localhost/testimonial/submit/x',
    consent_withdrawn_at: null,
    ...overrides,
  });

  it('says "Consent withdrawn" with the date on a withdrawn testimonial only', async () => {
    stubApi({
      [`GET /api/testimonials/requests?company_id=${COMPANY}`]: [
        {
          status: 200,
          body: [row({ consent_withdrawn_at: '2025-03-12T15:30:00.000Z' }), row({ id: '6d5e4f30-2b1c-4d0e-9f80-7b6c5d4e3f20', customer_name: 'Hugo Martin' })],
        },
      ],
      [`GET /api/testimonials/stats?company_id=${COMPANY}`]: [
        { status: 200, body: { users: 1, questions: 1, testimonials: 2, completed: 2, requested: 0, credits: 3 } },
      ],
      ['GET /api/publications/plays']: [{ status: 200, body: { testimonials: [] } }],
    });
    renderIn(<TestimonialsScreen />);
    const markers = await screen.findAllByTestId('consent-withdrawn-marker');
    expect(markers).toHaveLength(1);
    expect(markers[0]!.textContent).toBe('Consent withdrawn12/03/2025');
    expect(markers[0]!.getAttribute('title')).toBe('Consent withdrawn on 12/03/2025');
    expect(markers[0]!.closest('[data-testid="testimonial-row"]')?.textContent).toContain('Claire Dubois');
  });
});
