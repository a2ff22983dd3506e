// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TUser } from '../../../../contract/api/auth.schema.js';
import type { TDraft, TTestimonialRequest } from '../../../../contract/api/testimonials.schema.js';
import i18n from '../../../i18n/i18n';
import { AuthProvider } from '../../../lib/auth-context';
import { saveSession } from '../../../lib/session';
import { testJob } from '../jobs/job-fixtures';
import { TestimonialDetailScreen } from './testimonial-detail-screen';

await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * Issue 31: the draft's card on the detail screen, with the real components against a stand-in for the
 * HTTP API: first on the page, its progress followed while it renders, then playable, and published in
 * one click with its job.
 */

const COMPANY = '1e2d3c4b-5a69-4877-8a9b-0c1d2e3f4a5b';
const ID = '5c4d3e2f-1a0b-4c9d-8e7f-6a5b4c3d2e1f';
const RESPONSE = '7b0c1c3e-4a57-4c1e-9d8e-2f1a6b7c8d90';
const DRAFT_JOB = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';
const PUB = '4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a7b';
const SLUG = 'AbCdEfGhIjKlMnOpQrStUv';
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
const media = (key: string, sig = 'abc') => `http://localhost:3000/files/${key}?exp=4102444800&sig=${sig}`;

const draft = (overrides: Partial<TDraft> = {}): TDraft => ({
  job_id: DRAFT_JOB,
  phase: 'ready',
  progress: 100,
  error: null,
  error_reason: null,
  video_url: media('r/draft-j.mp4'),
  poster_url: media('r/draft-j.jpg'),
  subtitled: true,
  duration_seconds: 26.4,
  ...overrides,
});

const testimonial = (d: TDraft | null): TTestimonialRequest => ({
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
  paid: true,
  language: 'english',
  gift: null,
  video_url: null,
  video_url_subtitles: null,
  has_subtitles: false,
  short_video_url: null,
  short_video_url_original: null,
  testimonial_responses: [
    {
      id: RESPONSE,
      question: { id: '2b2b2b2b-2222-4222-8222-222222222222', text: 'What did you like most?' },
      video_url: media('a/answer.mp4'),
      modified_video_url: null,
      intro_generated: false,
      has_subtitles: false,
      short_video_url: null,
      short_video_url_original: null,
      orderPosition: 1,
      poster_url: media('a/poster.jpg'),
      render_state: null,
      media: { jobId: null, phase: 'ready', progress: 100, error: null },
    },
  ],
  render_state: null,
  draft: d,
});

type Reply = { status: number; body: unknown };
const ok = (body: unknown): Reply => ({ status: 200, body });
const detailPath = `GET /api/testimonials/request/${ID}?company_id=${COMPANY}`;
const draftJob = (phase: 'running' | 'ready', progress: number) =>
  testJob(DRAFT_JOB, phase, { testimonialId: ID, kind: 'draft', progress, outputUrl: phase === 'ready' ? media('r/draft-j.mp4', 'list') : null });

function stubApi(routes: Record<string, Reply[]>) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const table: Record<string, Reply[]> = {
    [`GET /api/publications?testimonialId=${ID}`]: [ok({ publications: [] })],
    [`GET /api/jobs?testimonialId=${ID}`]: [ok({ jobs: [draftJob('ready', 100)] })],
    ...routes,
  };
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    const method = init?.method ?? 'GET';
    calls.push({ method, path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const queue = table[`${method} ${path}`];
    if (!queue?.length) throw new Error(`unexpected call ${method} ${path}`);
    const { status, body } = queue.length > 1 ? queue.shift()! : queue[0]!;
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

function renderDetail() {
  const router = createMemoryRouter(
    [
      {
        path: '/dashboard/testimonials/:id',
        element: (
          <AuthProvider>
            <TestimonialDetailScreen />
          </AuthProvider>
        ),
      },
    ],
    { initialEntries: [`/dashboard/testimonials/${ID}`] },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

beforeEach(async () => {
  localStorage.clear();
  sessionStorage.clear();
  saveSession({ token: 'access-1', user: USER, rememberMe: true });
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  await i18n.changeLanguage('en');
});
afterEach(async () => {
  cleanup();
  await i18n.changeLanguage('en');
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the draft on the detail screen (issue 31)', () => {
  it('comes first, shows its progress while it renders, then plays once ready', async () => {
    stubApi({
      [detailPath]: [ok({ testimonial: testimonial(draft({ phase: 'running', progress: 30, video_url: null, poster_url: null, duration_seconds: null })), error_credit: false }), ok({ testimonial: testimonial(draft()), error_credit: false })],
      [`GET /api/jobs/${DRAFT_JOB}`]: [ok(draftJob('running', 30)), ok(draftJob('ready', 100))],
    });
    renderDetail();
    const card = await screen.findByTestId('draft-card');
    // Before the merged video's prompt and the answers.
    expect(card.compareDocumentPosition(screen.getByTestId('merge-prompt')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(card.compareDocumentPosition(screen.getByTestId('response-card')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(card.textContent).toContain('Your draft, ready to post');
    expect(card.textContent).toContain('Your draft is being made.');
    expect(within(card).queryByTestId('draft-video')).toBeNull();
    await waitFor(() => expect(within(card).getByTestId('job-percent').textContent).toBe('30%'));
    // The job ends: the detail is read again and the draft plays.
    const video = (await within(await screen.findByTestId('draft-card')).findByTestId('draft-video', {}, { timeout: 8_000 })) as HTMLVideoElement;
    expect(video.getAttribute('src')).toMatch(/\/files\/r\/draft-j\.mp4\?/);
    expect(video.getAttribute('poster')).toMatch(/\/files\/r\/draft-j\.jpg\?/);
    expect(screen.getByTestId('draft-card').textContent).toContain('Subtitles');
    expect(within(screen.getByTestId('draft-card')).getByTestId('video-duration').textContent).toBe('0:26');
  }, 15_000);

  it('publishes the draft in one click, by its job', async () => {
    const calls = stubApi({
      [detailPath]: [ok({ testimonial: testimonial(draft()), error_credit: false })],
      ['POST /api/publications']: [{ status: 201, body: { id: PUB, slug: SLUG, url: `http://localhost:3000/v/${SLUG}`, embedUrl: `http://localhost:3000/embed/${SLUG}` } }],
    });
    renderDetail();
    const publish = (await within(await screen.findByTestId('draft-card')).findByTestId('action-draft-publish')) as HTMLButtonElement;
    await waitFor(() => expect(publish.disabled).toBe(false));
    fireEvent.click(publish);
    expect(within(await screen.findByTestId('publish-dialog')).getByTestId('publish-item').textContent).toBe('Your draft, ready to post · Draft');
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ testimonialId: ID, jobId: DRAFT_JOB }));
  });

  it('says in French what the draft is, and shows nothing before its job starts', async () => {
    await i18n.changeLanguage('fr');
    stubApi({ [detailPath]: [ok({ testimonial: testimonial(draft()), error_credit: false })] });
    renderDetail();
    expect((await screen.findByTestId('draft-card')).textContent).toContain('Votre brouillon, prêt à publier');
    cleanup();
    stubApi({ [detailPath]: [ok({ testimonial: testimonial(null), error_credit: false })] });
    renderDetail();
    await screen.findByTestId('response-card');
    expect(screen.queryByTestId('draft-card')).toBeNull();
  });
});
