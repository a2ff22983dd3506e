// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TUser } from '../../../../contract/api/auth.schema.js';
import type { TRenderState } from '../../../../contract/api/studio.schema.js';
import type { TTestimonialRequest, TTestimonialResponse } from '../../../../contract/api/testimonials.schema.js';
import i18n from '../../../i18n/i18n';
import { AuthProvider } from '../../../lib/auth-context';
import { saveSession } from '../../../lib/session';
import { TestimonialDetailScreen } from './testimonial-detail-screen';

// The unit-test config compiles JSX with esbuild's classic runtime: the components find React as a
// global, set before any component module is evaluated (vi.hoisted runs above the imports).
await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * The detail screen with the real components, router, session, query client and translations,
 * against a stand-in for the HTTP API (the only part replaced): the states of the detail call and
 * the messages of spec §8 for start calls and failed renders, and the 'export ready' banner. The
 * successful studio journey runs for real in e2e/studio.e2e.ts.
 */

const COMPANY = '1e2d3c4b-5a69-4877-8a9b-0c1d2e3f4a5b';
const ID = '5c4d3e2f-1a0b-4c9d-8e7f-6a5b4c3d2e1f';
const RESPONSE = '7b0c1c3e-4a57-4c1e-9d8e-2f1a6b7c8d90';
const JOB = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';

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

const media = (key: string) => `http://localhost:3000/files/${key}?exp=4102444800&sig=abc`;

function answer(overrides: Partial<TTestimonialResponse> = {}): TTestimonialResponse {
  return {
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
    ...overrides,
  };
}

function testimonial(overrides: Partial<TTestimonialRequest> = {}): TTestimonialRequest {
  return {
    id: ID,
    customer_name: 'Claire Dubois',
    customer_email: 'claire@client.test',
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
    testimonial_responses: [answer()],
    render_state: null,
    ...overrides,
  };
}

type Reply = { status: number; body: unknown };
interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** Answers each call with the next reply queued for its `METHOD path` (the last one repeats). */
function stubApi(routes: Record<string, Reply[]>) {
  const calls: Call[] = [];
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

const detailPath = `GET /api/testimonials/request/${ID}?company_id=${COMPANY}`;
const introPath = `POST /api/testimonials/response/${RESPONSE}/generate-modified/intro`;
const mergePath = `POST /api/testimonials/${ID}/merge`;
const ok = (body: unknown) => ({ status: 200, body });
const detail = (t: TTestimonialRequest | null, errorCredit = false) => ok({ testimonial: t, error_credit: errorCredit });
const failure = (status: number, error: string, code = 'invalid_data') => ({ status, body: { error, code } });
const started = (state: TRenderState) => ({ status: 202, body: { jobId: JOB, state } });

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search}</p>;
}

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      {
        path: '/dashboard/testimonials/:id',
        element: (
          <AuthProvider>
            <Where />
            <TestimonialDetailScreen />
          </AuthProvider>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const card = () => screen.getByTestId('response-card');

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  // A stored session with a token and no refresh token: signed in at once, without a check.
  saveSession({ token: 'access-1', user: USER, rememberMe: true });
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('testimonial detail: header and states of the detail call', () => {
  it('shows the customer, status, e-mail, submitted date and title, and a timestamped player per answer', async () => {
    stubApi({ [detailPath]: [detail(testimonial())] });
    renderAt(`/dashboard/testimonials/${ID}`);
    expect(await screen.findByTestId('testimonial-title')).toHaveProperty('textContent', 'Claire Dubois');
    expect(screen.getByTestId('testimonial-status').textContent).toBe('Completed');
    expect(screen.getByTestId('testimonial-email').textContent).toBe('claire@client.test');
    expect(screen.getByTestId('testimonial-position').textContent).toBe('Head of Marketing');
    expect(screen.getByTestId('testimonial-date').textContent).toBe('04/03/2025');
    const video = within(card()).getByTestId('answer-video') as HTMLVideoElement;
    expect(video.getAttribute('src')).toMatch(/^http:\/\/localhost:3000\/files\/a\/answer\.mp4\?exp=4102444800&sig=abc&t=\d+$/);
    expect(video.getAttribute('preload')).toBe('metadata');
    expect(video.hasAttribute('controls')).toBe(true);
    expect(video.hasAttribute('playsinline')).toBe(true);
    expect(within(card()).getByTestId('action-download-original').getAttribute('href')).toBe(`${media('a/answer.mp4')}&download=claire-dubois-1-original.mp4`);
    expect(screen.getByTestId('testimonial-detail-back').getAttribute('href')).toBe('/dashboard/testimonials');
  });

  it('says when the company has no credits, with the way to buy some', async () => {
    stubApi({ [detailPath]: [detail(null, true)] });
    renderAt(`/dashboard/testimonials/${ID}`);
    const notice = await screen.findByTestId('no-credits');
    expect(notice.textContent).toContain('You have no credits left');
    expect(within(notice).getByTestId('no-credits-buy').getAttribute('href')).toBe('/dashboard/payment');
  });

  it('says when the testimonial does not exist or was deleted', async () => {
    stubApi({ [detailPath]: [detail(null)] });
    renderAt(`/dashboard/testimonials/${ID}`);
    expect((await screen.findByTestId('testimonial-not-found')).textContent).toContain('does not exist or was deleted');
  });

  it('says the load failed and loads again on retry', async () => {
    const down = failure(500, 'A server error occurred.', 'server_error');
    // A server error is tried once more by itself (after 1 s) before the error shows.
    stubApi({ [detailPath]: [down, down, detail(testimonial())] });
    renderAt(`/dashboard/testimonials/${ID}`);
    const error = await screen.findByTestId('testimonial-detail-error', {}, { timeout: 4_000 });
    expect(error.textContent).toContain('We could not load this testimonial');
    fireEvent.click(within(error).getByRole('button', { name: 'Try again' }));
    expect((await screen.findByTestId('testimonial-title')).textContent).toBe('Claire Dubois');
  });

  it('offers pay-to-view for a completed, unpaid testimonial, and shows no player', async () => {
    const calls = stubApi({
      [detailPath]: [
        detail(testimonial({ paid: false, testimonial_responses: [answer({ video_url: null, poster_url: null })] })),
        detail(testimonial()),
      ],
      [`POST /api/testimonials/pay/${ID}`]: [ok({ success: true, paid: true, credits: 0 })],
      [`GET /api/testimonials/stats?company_id=${COMPANY}`]: [
        ok({ users: 1, questions: 1, testimonials: 1, completed: 1, requested: 0, credits: 0 }),
      ],
      [`GET /api/testimonials/requests?company_id=${COMPANY}`]: [ok([])],
      ['GET /api/payment/list-transaction']: [ok([])],
    });
    renderAt(`/dashboard/testimonials/${ID}`);
    fireEvent.click(await screen.findByTestId('pay-to-view'));
    expect(screen.getByTestId('pay-dialog').textContent).toContain('One credit will be debited');
    expect(screen.queryByTestId('answer-video')).toBeNull();
    fireEvent.click(screen.getByTestId('confirm-action'));
    expect((await screen.findByTestId('success-banner')).textContent).toContain('Testimonial unlocked');
    expect(await screen.findByTestId('answer-video')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([`/api/testimonials/pay/${ID}`]);
  });
});

describe('testimonial detail: start calls and renders (spec §8)', () => {
  it("says 'Failed to start intro generation' when the start call is refused, and why", async () => {
    const calls = stubApi({
      [detailPath]: [detail(testimonial())],
      [introPath]: [failure(409, 'This answer is still being prepared. Try again in a minute.')],
    });
    renderAt(`/dashboard/testimonials/${ID}`);
    fireEvent.click(await screen.findByTestId('action-intro'));
    expect(screen.getByTestId('confirm-dialog').textContent).toContain('What did you like most?');
    fireEvent.click(screen.getByTestId('confirm-action'));
    const banner = await screen.findByTestId('error-banner');
    expect(banner.textContent).toContain('Failed to start intro generation');
    expect(banner.textContent).toContain('Another video is being generated, or an answer is still being prepared');
    expect(screen.queryByTestId('confirm-dialog')).toBeNull();
    expect(screen.queryByTestId('processing-modal')).toBeNull();
    expect(calls.find((c) => c.path.endsWith('/generate-modified/intro'))?.body).toEqual({ language: 'en' });
  });

  it("says 'Failed to start merge' when the merge cannot start", async () => {
    stubApi({ [detailPath]: [detail(testimonial())], [mergePath]: [failure(500, 'A server error occurred.', 'server_error')] });
    renderAt(`/dashboard/testimonials/${ID}`);
    fireEvent.click(await screen.findByTestId('action-merge'));
    fireEvent.click(screen.getByTestId('confirm-action'));
    expect((await screen.findByTestId('error-banner')).textContent).toContain('Failed to start merge');
  });

  it('follows a started render in the processing modal, disables every action, and shows the error of a failed job', async () => {
    const rendering: TRenderState = { output: 'intro', phase: 'rendering', progress: 55, error: null };
    const failed: TRenderState = { output: 'intro', phase: 'failed', progress: 0, error: 'ffmpeg exited with code 1' };
    stubApi({
      [detailPath]: [
        detail(testimonial()),
        detail(testimonial({ testimonial_responses: [answer({ render_state: rendering })] })),
        detail(testimonial({ testimonial_responses: [answer({ render_state: failed })] })),
      ],
      [introPath]: [started({ output: 'intro', phase: 'queued', progress: 0, error: null })],
    });
    renderAt(`/dashboard/testimonials/${ID}`);
    fireEvent.click(await screen.findByTestId('action-intro'));
    fireEvent.click(screen.getByTestId('confirm-action'));
    const modal = await screen.findByTestId('processing-modal');
    expect(modal.textContent).toContain('Generating the intro');
    expect(modal.textContent).toContain('We will send you an e-mail as soon as the video is ready.');
    expect(within(modal).getByRole('progressbar')).toBeTruthy();
    // The job's own progress once it reports it.
    await waitFor(() => expect(screen.getByTestId('processing-progress').textContent).toBe('55%'));
    expect((screen.getByTestId('action-merge') as HTMLButtonElement).disabled).toBe(true);
    // Polled every 2 s: the failed job closes the modal and says why.
    const banner = await screen.findByTestId('error-banner', {}, { timeout: 6_000 });
    expect(banner.textContent).toContain('The video could not be generated');
    expect(banner.textContent).toContain('ffmpeg exited with code 1');
    expect(screen.queryByTestId('processing-modal')).toBeNull();
    expect(within(card()).getByTestId('render-state').getAttribute('data-phase')).toBe('failed');
    expect((screen.getByTestId('action-intro') as HTMLButtonElement).disabled).toBe(false);
  }, 15_000);

  it('disables every action while a job runs on the testimonial when the page opens', async () => {
    stubApi({
      [detailPath]: [
        detail(
          testimonial({
            video_url: media('merged-1.mp4'),
            render_state: { output: 'merge', phase: 'rendering', progress: 30, error: null },
            testimonial_responses: [answer({ modified_video_url: media('a/intro-1.mp4'), intro_generated: true })],
          }),
        ),
      ],
    });
    renderAt(`/dashboard/testimonials/${ID}`);
    expect(await screen.findByTestId('job-status')).toBeTruthy();
    for (const id of [
      'action-view',
      'action-export',
      'action-regenerate',
      'action-subtitles',
      'action-merged-subtitles',
      'action-merged-export',
      'action-regenerate-merged',
    ]) {
      expect((screen.getByTestId(id) as HTMLButtonElement).disabled, id).toBe(true);
    }
    for (const id of ['action-download', 'action-merged-download']) {
      expect(screen.getByTestId(id).getAttribute('aria-disabled'), id).toBe('true');
      expect(screen.getByTestId(id).hasAttribute('href'), id).toBe(false);
    }
    // The original stays downloadable.
    expect(screen.getByTestId('action-download-original').getAttribute('href')).toBe(`${media('a/answer.mp4')}&download=claire-dubois-1-original.mp4`);
  });
});

describe("testimonial detail: the 'export ready' banner", () => {
  const exportUrl = media('a/export-shorts-1.mp4');
  const at = `/dashboard/testimonials/${ID}?export=ready&exportUrl=${encodeURIComponent(exportUrl)}`;
  // The detail as the API gives it once the export is stored (signed again: another signature).
  const exported = () => testimonial({ testimonial_responses: [answer({ short_video_url_original: exportUrl.replace('sig=abc', 'sig=fresh') })] });

  it('opens the export in a new tab, at the address the API gives, and removes the parameters', async () => {
    stubApi({ [detailPath]: [detail(exported())] });
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    renderAt(at);
    const banner = await screen.findByTestId('export-ready-banner');
    fireEvent.click(within(banner).getByTestId('export-ready-download'));
    expect(open).toHaveBeenCalledWith(exportUrl.replace('sig=abc', 'sig=fresh'), '_blank', 'noopener,noreferrer');
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe(`/dashboard/testimonials/${ID}`));
    expect(screen.queryByTestId('export-ready-banner')).toBeNull();
  });

  it('is dismissed, removing the parameters', async () => {
    stubApi({ [detailPath]: [detail(exported())] });
    renderAt(at);
    fireEvent.click(await screen.findByTestId('export-ready-dismiss'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe(`/dashboard/testimonials/${ID}`));
  });

  it('never offers an address that is not one of the exports the API gives (a script, another site, another file)', async () => {
    for (const value of ['javascript:alert(1)', 'https://evil.example/a/export-shorts-1.mp4', media('a/answer.mp4')]) {
      stubApi({ [detailPath]: [detail(exported())] });
      renderAt(`/dashboard/testimonials/${ID}?export=ready&exportUrl=${encodeURIComponent(value)}`);
      await screen.findByTestId('testimonial-title');
      expect(screen.queryByTestId('export-ready-banner'), value).toBeNull();
      cleanup();
    }
  });
});
