// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TUser } from '../../../../contract/api/auth.schema.js';
import type { TJob, TJobPhase } from '../../../../contract/api/jobs.schema.js';
import type { TExportPlatform, TRenderState } from '../../../../contract/api/studio.schema.js';
import type { TStoredExport, TTestimonialRequest, TTestimonialResponse } from '../../../../contract/api/testimonials.schema.js';
import i18n from '../../../i18n/i18n';
import { AuthProvider } from '../../../lib/auth-context';
import { saveSession } from '../../../lib/session';
import { testJob } from '../jobs/job-fixtures';
import { TestimonialDetailScreen } from './testimonial-detail-screen';

// The unit-test config compiles JSX with esbuild's classic runtime: the components find React as a
// global, set before any component module is evaluated (vi.hoisted runs above the imports).
await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * The detail screen with the real components, router, session, query client and translations,
 * against a stand-in for the HTTP API (the only part replaced): the states of the detail call, the
 * messages of spec §8 for start calls, renders and answers followed through their jobs (GET
 * /api/jobs/{id}), failed ones with their translated reason and a retry, and the 'export ready'
 * banner. The successful studio journey runs for real in tests/e2e/studio.e2e.ts.
 */

const COMPANY = '1e2d3c4b-5a69-4877-8a9b-0c1d2e3f4a5b';
const ID = '5c4d3e2f-1a0b-4c9d-8e7f-6a5b4c3d2e1f';
const RESPONSE = '7b0c1c3e-4a57-4c1e-9d8e-2f1a6b7c8d90';
const JOB = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';
const JOB_2 = '3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a';
const TRANSCODE = '6f5e4d3c-2b1a-4098-8f7e-6d5c4b3a2918';

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
    media: { jobId: null, phase: 'ready', progress: 100, error: null },
    ...overrides,
  };
}

function testimonial(overrides: Partial<TTestimonialRequest> = {}): TTestimonialRequest {
  return {
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

/** What publishing reads on a paid testimonial (issue 19): its publications and its jobs, none unless a test says. */
const publicationsPath = `GET /api/publications?testimonialId=${ID}`;
const jobsListPath = `GET /api/jobs?testimonialId=${ID}`;

/** Answers each call with the next reply queued for its `METHOD path` (the last one repeats). */
function stubApi(routes: Record<string, Reply[]>) {
  const calls: Call[] = [];
  const table: Record<string, Reply[]> = { [publicationsPath]: [ok({ publications: [] })], [jobsListPath]: [ok({ jobs: [] })], ...routes };
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    const method = init?.method ?? 'GET';
    calls.push({ method, path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const queue = table[`${method} ${path}`];
    if (!queue?.length) throw new Error(`unexpected call ${method} ${path}`);
    const { status, body } = queue.length > 1 ? queue.shift()! : queue[0]!;
    return new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
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

const jobPath = (id: string) => `GET /api/jobs/${id}`;
const missingSource = { reason: 'source_missing' as const, params: {}, message: 'A video this job needs is no longer available.' };

const job = (id: string, phase: TJobPhase, overrides: Partial<TJob> = {}) => testJob(id, phase, { testimonialId: ID, responseId: RESPONSE, ...overrides });

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
afterEach(async () => {
  cleanup();
  await i18n.changeLanguage('en');
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

  it("shows each version with its own poster, and the answer's stored length as the player shows it (issue 17)", async () => {
    const enhanced = answer({
      modified_video_url: media('a/intro-j.mp4'),
      modified_poster_url: media('a/intro-j.jpg'),
      intro_generated: true,
      duration_seconds: 9.6,
    });
    stubApi({ [detailPath]: [detail(testimonial({ testimonial_responses: [enhanced] }))] });
    renderAt(`/dashboard/testimonials/${ID}`);
    await screen.findByTestId('response-card');
    const video = within(card()).getByTestId('answer-video') as HTMLVideoElement;
    expect(video.getAttribute('poster')).toMatch(/\/files\/a\/intro-j\.jpg\?/);
    // The enhanced version's length is the player's own (its file is longer by the card): none yet in jsdom.
    expect(within(card()).queryByTestId('video-duration')).toBeNull();
    fireEvent.click(within(card()).getByTestId('version-original'));
    const original = within(card()).getByTestId('answer-video') as HTMLVideoElement;
    expect(original.getAttribute('poster')).toMatch(/\/files\/a\/poster\.jpg\?/);
    expect(within(card()).getByTestId('video-duration').textContent).toBe('0:09');
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
      [introPath]: [failure(409, 'A video of this answer is already being generated.', 'conflict')],
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

  it('follows a started render through its job in the processing modal, disables every action, and says why it failed', async () => {
    const rendering: TRenderState = { output: 'intro', jobId: JOB, phase: 'running', progress: 10, error: null };
    const failedState: TRenderState = { output: 'intro', jobId: JOB, phase: 'failed', progress: 0, error: 'A video this job needs is no longer available.' };
    const calls = stubApi({
      [detailPath]: [
        detail(testimonial()),
        detail(testimonial({ testimonial_responses: [answer({ render_state: rendering })] })),
        detail(testimonial({ testimonial_responses: [answer({ render_state: failedState })] })),
      ],
      [introPath]: [started({ output: 'intro', jobId: JOB, phase: 'queued', progress: 0, error: null })],
      [jobPath(JOB)]: [ok(job(JOB, 'running', { progress: 55 })), ok(job(JOB, 'failed', { error: missingSource }))],
    });
    renderAt(`/dashboard/testimonials/${ID}`);
    fireEvent.click(await screen.findByTestId('action-intro'));
    fireEvent.click(screen.getByTestId('confirm-action'));
    const modal = await screen.findByTestId('processing-modal');
    expect(modal.textContent).toContain('Generating the intro');
    expect(modal.textContent).toContain('You can leave this page: we will e-mail you when the video is ready.');
    // One promise, not two (issue 27): nothing asks to keep the page open.
    expect(modal.textContent).not.toMatch(/do not close|keep this (page|window) open/i);
    expect(within(modal).getByRole('progressbar')).toBeTruthy();
    // The job's own progress, read from GET /api/jobs/{id}.
    await waitFor(() => expect(within(modal).getByTestId('job-percent').textContent).toBe('55%'));
    expect(within(modal).getByTestId('processing-progress').getAttribute('data-phase')).toBe('running');
    expect((screen.getByTestId('action-merge') as HTMLButtonElement).disabled).toBe(true);
    // Read again 2 s later: the failed job closes the modal and says why, in the person's language.
    const banner = await screen.findByTestId('error-banner', {}, { timeout: 6_000 });
    expect(banner.textContent).toContain('The video could not be generated');
    expect(banner.textContent).toContain('A video this job needs is no longer available.');
    expect(screen.queryByTestId('processing-modal')).toBeNull();
    const state = within(card()).getByTestId('render-state');
    expect(state.getAttribute('data-phase')).toBe('failed');
    expect(state.textContent).toContain('A video this job needs is no longer available.');
    expect((screen.getByTestId('action-intro') as HTMLButtonElement).disabled).toBe(false);
    // The detail is read when the page opens, after the start, and once when the job has ended (issue 28:
    // the job's follower and the studio used to read it twice at the end): never polled.
    const detailReads = calls.filter((c) => c.path === detailPath.slice(4));
    expect(detailReads).toHaveLength(3);
    const jobReads = calls.filter((c) => c.path === `/api/jobs/${JOB}`);
    expect(jobReads).toHaveLength(2);
    expect(calls.slice(calls.indexOf(jobReads[1]!)).filter((c) => c.path === detailPath.slice(4))).toHaveLength(1);
  }, 15_000);

  it('retries a failed render from its card, then follows the new job', async () => {
    const failedState: TRenderState = { output: 'intro', jobId: JOB, phase: 'failed', progress: 0, error: 'The video could not be generated.' };
    const calls = stubApi({
      [detailPath]: [
        detail(testimonial({ testimonial_responses: [answer({ render_state: failedState })] })),
        detail(testimonial({ testimonial_responses: [answer({ render_state: { output: 'intro', jobId: JOB_2, phase: 'queued', progress: 0, error: null } })] })),
      ],
      [jobPath(JOB)]: [ok(job(JOB, 'failed', { error: { reason: 'render_failed', params: {}, message: 'The video could not be generated.' } }))],
      [`POST /api/jobs/${JOB}/retry`]: [{ status: 202, body: job(JOB_2, 'queued') }],
      [jobPath(JOB_2)]: [ok(job(JOB_2, 'running', { progress: 20 }))],
    });
    renderAt(`/dashboard/testimonials/${ID}`);
    // The job read once for its reason (translated), with a retry.
    const retry = await within(await screen.findByTestId('response-card')).findByTestId('job-retry');
    expect(within(card()).getByTestId('render-state').textContent).toContain('The video could not be generated.');
    fireEvent.click(retry);
    await waitFor(() => expect(within(card()).getByTestId('render-state').getAttribute('data-phase')).toBe('running'));
    expect(within(card()).getByTestId('job-percent').textContent).toBe('20%');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([`/api/jobs/${JOB}/retry`]);
    // The new job runs: the page says so, and every action waits.
    expect(await screen.findByTestId('job-status')).toBeTruthy();
    expect((screen.getByTestId('action-merge') as HTMLButtonElement).disabled).toBe(true);
  });

  it('disables every action while a job runs on the testimonial when the page opens, with its progress', async () => {
    stubApi({
      [detailPath]: [
        detail(
          testimonial({
            video_url: media('merged-1.mp4'),
            render_state: { output: 'merge', jobId: JOB, phase: 'running', progress: 30, error: null },
            testimonial_responses: [answer({ modified_video_url: media('a/intro-1.mp4'), intro_generated: true })],
          }),
        ),
      ],
      [jobPath(JOB)]: [ok(job(JOB, 'running', { kind: 'merge', progress: 30 }))],
    });
    renderAt(`/dashboard/testimonials/${ID}`);
    const status = await screen.findByTestId('job-status');
    await waitFor(() => expect(within(status).getByTestId('job-percent').textContent).toBe('30%'));
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

describe('testimonial detail: honest media states (issue 16)', () => {
  const preparing = (progress: number, poster_url: string | null = null) =>
    answer({ video_url: null, poster_url, media: { jobId: TRANSCODE, phase: progress > 0 ? 'running' : 'queued', progress, error: null } });

  it('shows the poster taken from the upload behind "Preparing…" as soon as it exists', async () => {
    stubApi({
      [detailPath]: [detail(testimonial({ testimonial_responses: [preparing(20, media('a/poster.jpg'))] }))],
      [jobPath(TRANSCODE)]: [ok(job(TRANSCODE, 'running', { kind: 'transcode', responseId: RESPONSE, progress: 20 }))],
    });
    renderAt(`/dashboard/testimonials/${ID}`);
    const panel = await within(await screen.findByTestId('response-card')).findByTestId('answer-media');
    expect(panel.getAttribute('data-phase')).toBe('preparing');
    expect(within(panel).getByTestId('answer-media-poster').getAttribute('src')).toBe(media('a/poster.jpg'));
    expect(within(card()).queryByTestId('answer-video')).toBeNull();
  });

  it('shows an answer still being prepared with its progress and no player, then the player once it is ready', async () => {
    const calls = stubApi({
      [detailPath]: [detail(testimonial({ testimonial_responses: [preparing(40)] })), detail(testimonial())],
      [jobPath(TRANSCODE)]: [ok(job(TRANSCODE, 'running', { kind: 'transcode', responseId: RESPONSE, progress: 40 })), ok(job(TRANSCODE, 'ready', { kind: 'transcode', responseId: RESPONSE }))],
    });
    renderAt(`/dashboard/testimonials/${ID}`);
    const panel = await within(await screen.findByTestId('response-card')).findByTestId('answer-media');
    expect(panel.getAttribute('data-phase')).toBe('preparing');
    expect(panel.textContent).toContain('Preparing this answer…');
    await waitFor(() => expect(within(panel).getByTestId('job-percent').textContent).toBe('40%'));
    expect(within(card()).queryByTestId('answer-video')).toBeNull();
    for (const id of ['action-intro', 'action-subtitles', 'action-download-original']) expect(within(card()).queryByTestId(id), id).toBeNull();
    // Merging waits for every answer.
    expect((screen.getByTestId('action-merge') as HTMLButtonElement).disabled).toBe(true);

    // The transcode ends: the detail is read again and the prepared answer plays.
    const video = await within(card()).findByTestId('answer-video', {}, { timeout: 5_000 });
    expect(video.getAttribute('src')).toContain('/files/a/answer.mp4?');
    expect(within(card()).queryByTestId('answer-media')).toBeNull();
    expect(calls.filter((c) => c.path === detailPath.slice(4))).toHaveLength(2);
  });

  it('shows why a transcode failed, in English and French, and prepares the answer again on retry', async () => {
    const error = { reason: 'transcode_failed' as const, params: {}, message: 'This answer could not be prepared for playback.' };
    const calls = stubApi({
      [detailPath]: [
        detail(testimonial({ testimonial_responses: [answer({ video_url: null, poster_url: null, media: { jobId: TRANSCODE, phase: 'failed', progress: 0, error } })] })),
        detail(testimonial({ testimonial_responses: [answer({ video_url: null, poster_url: null, media: { jobId: JOB_2, phase: 'queued', progress: 0, error: null } })] })),
      ],
      [jobPath(TRANSCODE)]: [ok(job(TRANSCODE, 'failed', { kind: 'transcode', responseId: RESPONSE, error }))],
      [`POST /api/jobs/${TRANSCODE}/retry`]: [{ status: 202, body: job(JOB_2, 'queued', { kind: 'transcode', responseId: RESPONSE }) }],
      [jobPath(JOB_2)]: [ok(job(JOB_2, 'queued', { kind: 'transcode', responseId: RESPONSE }))],
    });
    renderAt(`/dashboard/testimonials/${ID}`);
    const panel = await within(await screen.findByTestId('response-card')).findByTestId('answer-media');
    expect(panel.getAttribute('data-phase')).toBe('failed');
    expect(panel.textContent).toContain('This answer could not be prepared');
    await waitFor(() => expect(panel.textContent).toContain('This answer could not be prepared for playback.'));
    expect(within(card()).queryByTestId('answer-video')).toBeNull();
    await act(() => i18n.changeLanguage('fr'));
    expect(panel.textContent).toContain('Cette réponse n’a pas pu être préparée');
    expect(panel.textContent).toContain('Cette réponse n’a pas pu être préparée pour la lecture.');
    fireEvent.click(within(panel).getByTestId('job-retry'));
    await waitFor(() => expect(within(card()).getByTestId('answer-media').getAttribute('data-phase')).toBe('preparing'));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([`/api/jobs/${TRANSCODE}/retry`]);
  });
  it('offers no retry for a recording that cannot be read: the customer must record it again', async () => {
    const error = { reason: 'unreadable_upload' as const, params: {}, message: 'The recording could not be read. Ask the customer to record this answer again.' };
    stubApi({
      [detailPath]: [detail(testimonial({ testimonial_responses: [answer({ video_url: null, poster_url: null, media: { jobId: TRANSCODE, phase: 'failed', progress: 0, error } })] }))],
      [jobPath(TRANSCODE)]: [ok(job(TRANSCODE, 'failed', { kind: 'transcode', responseId: RESPONSE, error }))],
    });
    renderAt(`/dashboard/testimonials/${ID}`);
    const panel = await within(await screen.findByTestId('response-card')).findByTestId('answer-media');
    await waitFor(() => expect(panel.textContent).toContain('The recording could not be read. Ask the customer to record this answer again.'));
    expect(within(panel).queryByTestId('job-retry')).toBeNull();
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

  it('opens the output of the export job it names (exportJob), as the API gives it', async () => {
    const output = media('exports/export-shorts-7.mp4');
    stubApi({
      [detailPath]: [detail(testimonial())],
      [jobPath(JOB)]: [ok(job(JOB, 'ready', { kind: 'export', outputUrl: output.replace('sig=abc', 'sig=job') }))],
    });
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    renderAt(`/dashboard/testimonials/${ID}?export=ready&exportUrl=${encodeURIComponent(output)}&exportJob=${JOB}`);
    fireEvent.click(within(await screen.findByTestId('export-ready-banner')).getByTestId('export-ready-download'));
    expect(open).toHaveBeenCalledWith(output.replace('sig=abc', 'sig=job'), '_blank', 'noopener,noreferrer');
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

describe('testimonial detail: publishing (issue 19)', () => {
  const PUB = '4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a7b';
  const SLUG = 'AbCdEfGhIjKlMnOpQrStUv';
  const createPath = 'POST /api/publications';
  const publication = (overrides: Record<string, unknown> = {}) => ({
    id: PUB,
    testimonialId: ID,
    jobId: null,
    responseId: RESPONSE,
    slug: SLUG,
    url: `http://localhost:3000/v/${SLUG}`,
    embedUrl: `http://localhost:3000/embed/${SLUG}`,
    embedHtml: `<iframe src="http://localhost:3000/embed/${SLUG}" title="Claire Dubois" width="640" height="360"></iframe>`,
    createdAt: '2025-03-10T09:00:00.000Z',
    quote: null,
    transcript: [],
    views: 0,
    ...overrides,
  });
  const created = { status: 201, body: { id: PUB, slug: SLUG, url: `http://localhost:3000/v/${SLUG}`, embedUrl: `http://localhost:3000/embed/${SLUG}` } };
  const enhanced = () => answer({ modified_video_url: media('a/intro-j.mp4'), intro_generated: true });
  // The intro's job, as the jobs list gives it: the same stored file as the card's video, signed again.
  const introJob = () => job(JOB_2, 'ready', { kind: 'intro', outputUrl: media('a/intro-j.mp4').replace('sig=abc', 'sig=list') });

  /** The card's Publish button, once the publications and the jobs have been read (it waits for them). */
  async function publishButton(testId = 'action-publish', scope = 'response-card') {
    const button = (await within(await screen.findByTestId(scope)).findByTestId(testId)) as HTMLButtonElement;
    await waitFor(() => expect(button.disabled).toBe(false));
    return button;
  }

  function stubClipboard() {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { clipboard: { writeText } }));
    return writeText;
  }

  it('says, before publishing a trimmed answer as recorded, that the whole recording is published', async () => {
    stubApi({
      [detailPath]: [detail(testimonial({ testimonial_responses: [answer({ trim_start: 1.5, trim_end: null })] }))],
      [publicationsPath]: [ok({ publications: [] }), ok({ publications: [publication()] })],
      [createPath]: [created],
    });
    renderAt(`/dashboard/testimonials/${ID}`);
    fireEvent.click(await publishButton());
    const dialog = await screen.findByTestId('publish-dialog');
    expect(within(dialog).getByTestId('publish-note').textContent).toBe(
      'This publishes the whole recording. Your trim applies to the videos made from this answer: publish its enhanced version or an export to share only the part you kept.',
    );
  });

  it('publishes an answer as recorded in one click: the link and the embed code to copy, the page to open', async () => {
    const calls = stubApi({
      [detailPath]: [detail(testimonial())],
      [publicationsPath]: [ok({ publications: [] }), ok({ publications: [publication()] })],
      [createPath]: [created],
    });
    const writeText = stubClipboard();
    renderAt(`/dashboard/testimonials/${ID}`);
    const button = await publishButton();
    expect(button.textContent).toBe('Publish');
    expect(button.getAttribute('data-published')).toBe('false');
    fireEvent.click(button);

    const dialog = await screen.findByTestId('publish-dialog');
    expect(within(dialog).getByTestId('publish-item').textContent).toBe('Question 1 · What did you like most? · Original');
    // An untrimmed answer: nothing to warn about.
    expect(within(dialog).queryByTestId('publish-note')).toBeNull();
    const link = (await within(dialog).findByTestId('publish-link')) as HTMLInputElement;
    expect(calls.filter((c) => c.method === 'POST')).toEqual([{ method: 'POST', path: '/api/publications', body: { testimonialId: ID, responseId: RESPONSE } }]);
    expect(link.value).toBe(`http://localhost:3000/v/${SLUG}`);
    expect(within(dialog).getByLabelText('Public link')).toBe(link);
    expect((within(dialog).getByLabelText('Embed code') as HTMLTextAreaElement).value).toContain(`<iframe src="http://localhost:3000/embed/${SLUG}"`);
    expect(within(dialog).getByText('Your video is published')).toBeTruthy();
    const open = within(dialog).getByTestId('publish-open');
    expect(open.getAttribute('href')).toBe(`http://localhost:3000/v/${SLUG}`);
    expect(open.getAttribute('target')).toBe('_blank');
    expect(open.getAttribute('rel')).toBe('noopener noreferrer');

    fireEvent.click(within(dialog).getByTestId('publish-copy-link'));
    await waitFor(() => expect(within(dialog).getByTestId('publish-copy-link').textContent).toBe('Copied'));
    expect(writeText).toHaveBeenCalledWith(`http://localhost:3000/v/${SLUG}`);
    expect(within(dialog).getByText('Public link copied to the clipboard')).toBeTruthy();
    fireEvent.click(within(dialog).getByTestId('publish-copy-embed'));
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith(publication().embedHtml));

    // Closed, the card says it is published, and its button opens the same dialog without publishing again.
    fireEvent.click(within(dialog).getByTestId('publish-done'));
    await waitFor(() => expect(screen.queryByTestId('publish-dialog')).toBeNull());
    expect(within(card()).getByTestId('published-badge').textContent).toBe('Published');
    const share = within(card()).getByTestId('action-publish');
    expect(share.textContent).toBe('Share');
    expect(share.getAttribute('data-published')).toBe('true');
    fireEvent.click(share);
    expect(((await screen.findByTestId('publish-link')) as HTMLInputElement).value).toBe(`http://localhost:3000/v/${SLUG}`);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('publishes the version shown: the enhanced answer by the job that made it', async () => {
    const calls = stubApi({
      [detailPath]: [detail(testimonial({ testimonial_responses: [enhanced()] }))],
      [jobsListPath]: [ok({ jobs: [introJob(), job(TRANSCODE, 'ready', { kind: 'transcode', outputUrl: media('a/answer.mp4') })] })],
      [publicationsPath]: [ok({ publications: [] }), ok({ publications: [publication({ jobId: JOB_2 })] })],
      [createPath]: [created],
    });
    renderAt(`/dashboard/testimonials/${ID}`);
    fireEvent.click(await publishButton());
    const dialog = await screen.findByTestId('publish-dialog');
    expect(within(dialog).getByTestId('publish-item').textContent).toContain('Enhanced');
    await within(dialog).findByTestId('publish-link');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ testimonialId: ID, jobId: JOB_2 });
    fireEvent.click(within(dialog).getByTestId('publish-done'));
    await waitFor(() => expect(screen.queryByTestId('publish-dialog')).toBeNull());
    // The enhanced version is published, the original is not.
    expect(within(card()).getByTestId('action-publish').getAttribute('data-published')).toBe('true');
    fireEvent.click(within(card()).getByTestId('version-original'));
    expect(within(card()).getByTestId('action-publish').getAttribute('data-published')).toBe('false');
    expect(within(card()).queryByTestId('published-badge')).toBeNull();
  });

  it('publishes the merged video with its subtitles by its job', async () => {
    const merged = testimonial({ video_url: media('r/merged-m.mp4'), video_url_subtitles: media('r/merged-subtitles-s.mp4'), has_subtitles: true });
    const calls = stubApi({
      [detailPath]: [detail(merged)],
      [jobsListPath]: [
        ok({
          jobs: [
            job('5a5a5a5a-5a5a-4a5a-8a5a-5a5a5a5a5a5a', 'ready', { kind: 'merged_subtitles', responseId: null, outputUrl: media('r/merged-subtitles-s.mp4') }),
            job('6b6b6b6b-6b6b-4b6b-8b6b-6b6b6b6b6b6b', 'ready', { kind: 'merge', responseId: null, outputUrl: media('r/merged-m.mp4') }),
          ],
        }),
      ],
      [createPath]: [created],
    });
    renderAt(`/dashboard/testimonials/${ID}`);
    fireEvent.click(await publishButton('action-merged-publish', 'merged-card'));
    expect(within(await screen.findByTestId('publish-dialog')).getByTestId('publish-item').textContent).toBe('Merged video · With subtitles');
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ testimonialId: ID, jobId: '5a5a5a5a-5a5a-4a5a-8a5a-5a5a5a5a5a5a' }));
  });

  it('unpublishes after asking, and the card offers to publish again', async () => {
    const calls = stubApi({
      [detailPath]: [detail(testimonial({ testimonial_responses: [enhanced()] }))],
      [jobsListPath]: [ok({ jobs: [introJob()] })],
      [publicationsPath]: [ok({ publications: [publication({ jobId: JOB_2 })] }), ok({ publications: [] })],
      [`DELETE /api/publications/${PUB}`]: [{ status: 204, body: null }],
    });
    renderAt(`/dashboard/testimonials/${ID}`);
    const share = await within(await screen.findByTestId('response-card')).findByTestId('action-publish');
    await waitFor(() => expect(share.getAttribute('data-published')).toBe('true'));
    fireEvent.click(share);
    const dialog = await screen.findByTestId('publish-dialog');
    fireEvent.click(within(dialog).getByTestId('publish-unpublish'));
    const confirm = await screen.findByTestId('unpublish-dialog');
    expect(confirm.textContent).toContain('Unpublish this video?');
    // Cancelled: nothing is taken down.
    fireEvent.click(within(confirm).getByTestId('unpublish-cancel'));
    await waitFor(() => expect(screen.queryByTestId('unpublish-dialog')).toBeNull());
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
    fireEvent.click(within(screen.getByTestId('publish-dialog')).getByTestId('publish-unpublish'));
    fireEvent.click(within(await screen.findByTestId('unpublish-dialog')).getByTestId('unpublish-confirm'));
    await waitFor(() => expect(screen.queryByTestId('publish-dialog')).toBeNull());
    expect(screen.queryByTestId('unpublish-dialog')).toBeNull();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/api/publications/${PUB}`]);
    await waitFor(() => expect(within(card()).getByTestId('action-publish').getAttribute('data-published')).toBe('false'));
    expect(within(card()).getByTestId('action-publish').textContent).toBe('Publish');
  });

  it('says why publishing failed and tries again; in French', async () => {
    await i18n.changeLanguage('fr');
    const calls = stubApi({
      [detailPath]: [detail(testimonial())],
      [publicationsPath]: [ok({ publications: [] }), ok({ publications: [publication()] })],
      [createPath]: [failure(500, 'A server error occurred.', 'server_error'), created],
    });
    renderAt(`/dashboard/testimonials/${ID}`);
    const button = await publishButton();
    expect(button.textContent).toBe('Publier');
    fireEvent.click(button);
    const error = await screen.findByTestId('publish-error');
    expect(error.textContent).toContain('La vidéo n’a pas pu être publiée');
    fireEvent.click(within(error).getByTestId('publish-retry'));
    expect(((await screen.findByTestId('publish-link')) as HTMLInputElement).value).toBe(`http://localhost:3000/v/${SLUG}`);
    expect(screen.getByLabelText('Lien public')).toBeTruthy();
    expect(screen.getByTestId('publish-copy-embed').textContent).toBe('Copier le code');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2);
  });

  it("publishes an export from the 'export ready' banner, by the export's job", async () => {
    const output = media('exports/export-shorts-7.mp4');
    const calls = stubApi({
      [detailPath]: [detail(testimonial())],
      [jobPath(JOB)]: [ok(job(JOB, 'ready', { kind: 'export', outputUrl: output }))],
      // The list read when the page opened does not know the export yet: read again on publish.
      [jobsListPath]: [ok({ jobs: [] }), ok({ jobs: [job(JOB, 'ready', { kind: 'export', outputUrl: output.replace('sig=abc', 'sig=list') })] })],
      [createPath]: [created],
    });
    renderAt(`/dashboard/testimonials/${ID}?export=ready&exportUrl=${encodeURIComponent(output)}&exportJob=${JOB}`);
    fireEvent.click(within(await screen.findByTestId('export-ready-banner')).getByTestId('export-ready-publish'));
    expect(within(await screen.findByTestId('publish-dialog')).getByTestId('publish-item').textContent).toBe('Your exported video');
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ testimonialId: ID, jobId: JOB }));
  });

  describe('stored exports on the cards (decisions 149, 161)', () => {
    const JOB_3 = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
    const shortUrl = media(`a/answers/${RESPONSE}/export-shorts-${JOB}.mp4`);
    const linkedinUrl = media(`a/answers/${RESPONSE}/export-linkedin-${JOB_2}.mp4`);
    const linkedinOriginalUrl = media(`a/answers/${RESPONSE}/export-linkedin-${JOB_3}.mp4`);
    const stored = (id: string, platform: TExportPlatform, videoType: 'modified' | 'original', url: string): TStoredExport => ({
      id,
      platform,
      videoType,
      video_url: url,
      poster_url: url.replace('.mp4', '.jpg'),
      finished_at: '2026-11-27T09:00:00.000Z',
    });
    // A 9:16 and a 16:9 export of the enhanced version, and a 16:9 of the original: each its own row.
    const exported = () =>
      answer({
        ...enhanced(),
        short_video_url: linkedinUrl,
        short_video_url_original: linkedinOriginalUrl,
        exports: [stored(JOB, 'shorts', 'modified', shortUrl), stored(JOB_2, 'linkedin', 'modified', linkedinUrl), stored(JOB_3, 'linkedin', 'original', linkedinOriginalUrl)],
      });
    // The export's job as the jobs list gives it: the same stored file as the card's export, signed again.
    const exportJob = () => job(JOB, 'ready', { kind: 'export', outputUrl: shortUrl.replace('sig=abc', 'sig=list') });

    it('lists each format of each version with its download name, and publishes an export by its job', async () => {
      const calls = stubApi({
        [detailPath]: [detail(testimonial({ testimonial_responses: [exported()] }))],
        [jobsListPath]: [ok({ jobs: [introJob(), exportJob()] })],
        [publicationsPath]: [ok({ publications: [] }), ok({ publications: [publication({ jobId: JOB })] })],
        [createPath]: [created],
      });
      renderAt(`/dashboard/testimonials/${ID}`);
      const list = await within(await screen.findByTestId('response-card')).findByTestId('export-list');
      expect(within(list).getAllByRole('listitem').map((row) => row.getAttribute('data-testid'))).toEqual([
        'export-shorts-modified',
        'export-linkedin-modified',
        'export-linkedin-original',
      ]);
      const vertical = within(list).getByTestId('export-shorts-modified');
      expect(vertical.textContent).toContain('Shorts / Stories (9:16)');
      expect(vertical.textContent).toContain('Enhanced');
      expect(within(vertical).getByTestId('export-file-name').textContent).toBe('claire-dubois-q1-9x16.mp4');
      expect(within(vertical).getByTestId('export-download').getAttribute('href')).toBe(`${shortUrl}&download=claire-dubois-q1-9x16.mp4`);
      expect(vertical.querySelector('img')?.getAttribute('src')).toBe(shortUrl.replace('.mp4', '.jpg'));
      const landscape = within(list).getByTestId('export-linkedin-modified');
      expect(landscape.textContent).toContain('LinkedIn (16:9)');
      expect(landscape.textContent).toContain('Enhanced');
      expect(within(landscape).getByTestId('export-download').getAttribute('href')).toBe(`${linkedinUrl}&download=claire-dubois-q1-16x9.mp4`);
      const original = within(list).getByTestId('export-linkedin-original');
      expect(original.textContent).toContain('Original');
      expect(within(original).getByTestId('export-download').getAttribute('href')).toBe(`${linkedinOriginalUrl}&download=claire-dubois-q1-16x9-original.mp4`);

      const publish = within(vertical).getByTestId('export-publish') as HTMLButtonElement;
      await waitFor(() => expect(publish.disabled).toBe(false));
      expect(publish.getAttribute('data-published')).toBe('false');
      fireEvent.click(publish);
      const dialog = await screen.findByTestId('publish-dialog');
      expect(within(dialog).getByTestId('publish-item').textContent).toBe('Question 1 · What did you like most? · Shorts / Stories (9:16) export · Enhanced');
      await within(dialog).findByTestId('publish-link');
      expect(calls.filter((c) => c.method === 'POST')).toEqual([{ method: 'POST', path: '/api/publications', body: { testimonialId: ID, jobId: JOB } }]);
      fireEvent.click(within(dialog).getByTestId('publish-done'));
      await waitFor(() => expect(screen.queryByTestId('publish-dialog')).toBeNull());

      // The export is published; the enhanced video the player shows, and the other exports, are not.
      await waitFor(() => expect(within(vertical).getByTestId('export-publish').getAttribute('data-published')).toBe('true'));
      expect(within(vertical).getByTestId('export-publish').textContent).toContain('Share');
      expect(within(vertical).getByTestId('export-published-badge').textContent).toBe('Published');
      expect(within(landscape).getByTestId('export-publish').getAttribute('data-published')).toBe('false');
      expect(within(original).getByTestId('export-publish').getAttribute('data-published')).toBe('false');
      expect(within(card()).getByTestId('action-publish').getAttribute('data-published')).toBe('false');
      expect(within(card()).queryByTestId('published-badge')).toBeNull();
    });

    it("lists the merged video's exports as with or without subtitles", async () => {
      const mergedUrl = media(`r/export-shorts-${JOB}.mp4`);
      const merged = testimonial({
        video_url: media('r/merged-m.mp4'),
        video_url_subtitles: media('r/merged-subtitles-s.mp4'),
        has_subtitles: true,
        short_video_url_original: mergedUrl,
        exports: [stored(JOB, 'shorts', 'original', mergedUrl), stored(JOB_2, 'linkedin', 'modified', media(`r/export-linkedin-${JOB_2}.mp4`))],
      });
      const mergedExport = job(JOB, 'ready', { kind: 'export', responseId: null, outputUrl: mergedUrl.replace('sig=abc', 'sig=list') });
      const calls = stubApi({ [detailPath]: [detail(merged)], [jobsListPath]: [ok({ jobs: [mergedExport] })], [createPath]: [created] });
      renderAt(`/dashboard/testimonials/${ID}`);
      const row = await within(await screen.findByTestId('merged-card')).findByTestId('export-shorts-original');
      expect(within(screen.getByTestId('merged-card')).queryByTestId('export-shorts-modified')).toBeNull();
      expect(row.textContent).toContain('Without subtitles');
      expect(within(row).getByTestId('export-download').getAttribute('href')).toBe(`${mergedUrl}&download=claire-dubois-merged-9x16-original.mp4`);
      const landscape = within(screen.getByTestId('merged-card')).getByTestId('export-linkedin-modified');
      expect(landscape.textContent).toContain('With subtitles');
      expect(within(landscape).getByTestId('export-file-name').textContent).toBe('claire-dubois-merged-16x9.mp4');
      // The answer's card lists none of the merged video's exports.
      expect(within(card()).queryByTestId('export-list')).toBeNull();
      const publish = within(row).getByTestId('export-publish') as HTMLButtonElement;
      await waitFor(() => expect(publish.disabled).toBe(false));
      fireEvent.click(publish);
      expect(within(await screen.findByTestId('publish-dialog')).getByTestId('publish-item').textContent).toBe('Merged video · Shorts / Stories (9:16) export · Without subtitles');
      await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ testimonialId: ID, jobId: JOB }));
    });

    it('offers the download but no Publish when publishing is not offered (unpaid)', async () => {
      const calls = stubApi({ [detailPath]: [detail(testimonial({ status: 'expired', paid: false, testimonial_responses: [exported()] }))] });
      renderAt(`/dashboard/testimonials/${ID}`);
      const row = await within(await screen.findByTestId('response-card')).findByTestId('export-shorts-modified');
      expect(within(row).getByTestId('export-download').getAttribute('href')).toBe(`${shortUrl}&download=claire-dubois-q1-9x16.mp4`);
      expect(within(card()).queryByTestId('export-publish')).toBeNull();
      expect(within(card()).queryByTestId('action-publish')).toBeNull();
      expect(calls.some((c) => c.path.startsWith('/api/publications') || c.path.startsWith('/api/jobs?'))).toBe(false);
    });

    it('names the exports in French', async () => {
      await i18n.changeLanguage('fr');
      stubApi({ [detailPath]: [detail(testimonial({ testimonial_responses: [exported()] }))], [jobsListPath]: [ok({ jobs: [exportJob()] })] });
      renderAt(`/dashboard/testimonials/${ID}`);
      const list = await within(await screen.findByTestId('response-card')).findByTestId('export-list');
      expect(list.textContent).toContain('Exports');
      expect(within(list).getByTestId('export-shorts-modified').textContent).toContain('Améliorée');
      // The format's name is the export dialog's, in French.
      expect(within(list).getByTestId('export-shorts-modified').textContent).toContain('Shorts / Stories (9:16)');
      expect(within(list).getByTestId('export-linkedin-modified').textContent).toContain('LinkedIn (16:9)');
      expect(within(list).getByTestId('export-linkedin-original').textContent).toContain('Originale');
      expect(within(within(list).getByTestId('export-shorts-modified')).getByTestId('export-publish').textContent).toContain('Publier');
      expect(within(within(list).getByTestId('export-shorts-modified')).getByTestId('export-download').textContent).toContain('Télécharger');
      // The download names are the same in every language.
      expect(within(within(list).getByTestId('export-linkedin-modified')).getByTestId('export-file-name').textContent).toBe('claire-dubois-q1-16x9.mp4');
    });

    it('names a feed export by the export dialog’s French name', async () => {
      await i18n.changeLanguage('fr');
      const square = answer({ ...enhanced(), exports: [stored(JOB, 'square', 'modified', shortUrl), stored(JOB_2, 'portrait', 'modified', linkedinUrl)] });
      stubApi({ [detailPath]: [detail(testimonial({ testimonial_responses: [square] }))], [jobsListPath]: [ok({ jobs: [] })] });
      renderAt(`/dashboard/testimonials/${ID}`);
      const list = await within(await screen.findByTestId('response-card')).findByTestId('export-list');
      expect(within(list).getByTestId('export-square-modified').textContent).toContain('Publication carrée (1:1)');
      expect(within(list).getByTestId('export-portrait-modified').textContent).toContain('Publication portrait (4:5)');
      expect(list.textContent).not.toContain('post');
    });

    it('lists no export when the detail has none, whatever the version fields say (an older server)', async () => {
      stubApi({ [detailPath]: [detail(testimonial({ testimonial_responses: [answer({ ...enhanced(), short_video_url: shortUrl })] }))], [jobsListPath]: [ok({ jobs: [] })] });
      renderAt(`/dashboard/testimonials/${ID}`);
      await within(await screen.findByTestId('response-card')).findByTestId('action-export');
      expect(within(card()).queryByTestId('export-list')).toBeNull();
    });
  });

  it('offers no publishing while a render runs, nor on a locked testimonial', async () => {
    stubApi({ [detailPath]: [detail(testimonial({ render_state: { output: 'merge', jobId: JOB, phase: 'running', progress: 10, error: null } }))], [jobPath(JOB)]: [ok(job(JOB, 'running', { kind: 'merge', responseId: null }))] });
    renderAt(`/dashboard/testimonials/${ID}`);
    const button = await within(await screen.findByTestId('response-card')).findByTestId('action-publish');
    expect((button as HTMLButtonElement).disabled).toBe(true);
    cleanup();
    const calls = stubApi({ [detailPath]: [detail(testimonial({ paid: false, testimonial_responses: [answer({ video_url: null, poster_url: null })] }))] });
    renderAt(`/dashboard/testimonials/${ID}`);
    await screen.findByTestId('testimonial-locked');
    expect(screen.queryByTestId('action-publish')).toBeNull();
    expect(calls.some((c) => c.path.startsWith('/api/publications') || c.path.startsWith('/api/jobs?'))).toBe(false);
  });
});
