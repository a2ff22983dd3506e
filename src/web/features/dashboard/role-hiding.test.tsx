// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TUser } from '../../../contract/api/auth.schema.js';
import type { TRole } from '../../../contract/api/members.schema.js';
import type { TTestimonialRequest } from '../../../contract/api/testimonials.schema.js';
import i18n from '../../i18n/i18n';
import { AuthProvider } from '../../lib/auth-context';
import { saveSession } from '../../lib/session';
import { RequestsScreen } from './requests/requests-screen';
import { SettingsScreen } from './settings/settings-screen';
import { TestimonialDetailScreen } from './testimonial-detail/testimonial-detail-screen';

await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * What each role sees on the key screens (issue 32, decision 219), with the real screens, auth state,
 * router, query client and translations; the role comes from GET /api/auth/me as the server answers it.
 * The stand-in API answers 404 to anything a screen asks that a test does not list.
 */

const COMPANY = '1e2d3c4b-5a69-4877-8a9b-0c1d2e3f4a5b';
const ID = '5c4d3e2f-1a0b-4c9d-8e7f-6a5b4c3d2e1f';
const USER: TUser = {
  id: '0b7f3f52-8d1e-4c1a-9a55-1d2f3e4a5b6c',
  company_id: COMPANY,
  email: 'vera@example.com',
  firstname: 'Vera',
  lastname: 'Viewer',
  avatar_url: null,
  onboarding_completed: true,
  email_confirmed: true,
  mail_language: 'en',
  company: { id: COMPANY, name: 'Acme' },
};

const locked: TTestimonialRequest = {
  id: ID,
  customer_name: 'Claire Dubois',
  customer_email: 'claire@client.test',
  delivery: 'email',
  link: 'http://localhost/testimonial/submit/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcd',
  customer_position: 'Head of Marketing',
  status: 'completed',
  created_at: '2025-03-01T10:00:00.000Z',
  updated_at: '2025-03-09T10:00:00.000Z',
  submitted_at: '2025-03-04T10:00:00.000Z',
  expires_at: '2025-03-15T10:00:00.000Z',
  last_reminder_sent: null,
  paid: false,
  language: 'english',
  gift: null,
  video_url: null,
  video_url_subtitles: null,
  has_subtitles: false,
  short_video_url: null,
  short_video_url_original: null,
  testimonial_responses: [],
  render_state: null,
};

function stubApi(role: TRole, routes: Record<string, unknown>) {
  const table: Record<string, unknown> = {
    'GET /api/auth/me': { user: USER, role, companies: [{ id: COMPANY, name: 'Acme', role }], token: 'access-1' },
    ...routes,
  };
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`;
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    return key in table ? json(200, table[key]) : json(404, { error: 'Not found', code: 'not_found' });
  });
}

function renderAt(path: string, route: string, element: ReactNode) {
  const router = createMemoryRouter([{ path: route, element: <AuthProvider>{element}</AuthProvider> }], { initialEntries: [path] });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const detailPath = `GET /api/testimonials/request/${ID}?company_id=${COMPANY}`;

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  saveSession({ token: 'access-1', user: USER, rememberMe: true });
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('role-aware screens', () => {
  it('testimonial detail: a viewer sees why it is locked where the pay button would be, and no pay button', async () => {
    stubApi('viewer', { [detailPath]: { testimonial: locked, error_credit: false } });
    renderAt(`/dashboard/testimonials/${ID}`, '/dashboard/testimonials/:id', <TestimonialDetailScreen />);
    const reason = await screen.findByTestId('pay-role-required', {}, { timeout: 10_000 });
    expect(reason.textContent).toBe('Viewers can watch, download and read transcripts. Ask an owner or editor to do this.');
    expect(screen.getByTestId('testimonial-locked').contains(reason)).toBe(true);
    expect(screen.queryByTestId('pay-to-view')).toBeNull();
  });

  it('testimonial detail: an editor has the pay button and no reason', async () => {
    stubApi('editor', { [detailPath]: { testimonial: locked, error_credit: false } });
    renderAt(`/dashboard/testimonials/${ID}`, '/dashboard/testimonials/:id', <TestimonialDetailScreen />);
    await screen.findByTestId('testimonial-locked', {}, { timeout: 10_000 });
    await waitFor(() => expect(screen.getByTestId('pay-to-view')).toBeTruthy(), { timeout: 10_000 });
    expect(screen.queryByTestId('pay-role-required')).toBeNull();
  });

  it('requests: a viewer gets the sent list without the new-request form; an editor gets the form', async () => {
    const routes = { [`GET /api/questions/list?company_id=${COMPANY}`]: [], [`GET /api/testimonials/requests?company_id=${COMPANY}`]: [] };
    stubApi('viewer', routes);
    renderAt('/dashboard/requests', '/dashboard/requests', <RequestsScreen />);
    await screen.findByTestId('sent-requests', {}, { timeout: 10_000 });
    await waitFor(() => expect(screen.queryByTestId('request-form')).toBeNull(), { timeout: 10_000 });
    expect(screen.queryByTestId('requests-tab-new')).toBeNull();
    cleanup();
    stubApi('editor', routes);
    renderAt('/dashboard/requests', '/dashboard/requests', <RequestsScreen />);
    expect(await screen.findByTestId('request-form', {}, { timeout: 10_000 })).toBeTruthy();
  });

  it('settings: an editor sees neither the company identity nor the keys and webhooks, and the reason once', async () => {
    stubApi('editor', { 'GET /api/user/profile': { user: USER } });
    renderAt('/dashboard/settings', '/dashboard/settings', <SettingsScreen />);
    const notice = await screen.findByTestId('settings-role-required', {}, { timeout: 10_000 });
    expect(notice.textContent).toContain('Your role in this company does not allow this: ask an owner.');
    expect(screen.getAllByTestId('settings-role-required')).toHaveLength(1);
    expect(screen.queryByTestId('company-name')).toBeNull();
    expect(screen.queryByText('API keys')).toBeNull();
    expect(screen.queryByText('Webhooks')).toBeNull();
  });

  it('settings: an owner has the company identity and no notice', async () => {
    stubApi('owner', { 'GET /api/user/profile': { user: USER } });
    renderAt('/dashboard/settings', '/dashboard/settings', <SettingsScreen />);
    await waitFor(() => expect(screen.getByTestId('company-name')).toBeTruthy(), { timeout: 10_000 });
    expect(screen.queryByTestId('settings-role-required')).toBeNull();
    // The cards the editor's test finds missing are there for an owner.
    expect(screen.getByText('API keys')).toBeTruthy();
    expect(screen.getByText('Webhooks')).toBeTruthy();
  });
});
