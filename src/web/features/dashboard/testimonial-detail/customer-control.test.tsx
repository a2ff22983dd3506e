// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TUser } from '../../../../contract/api/auth.schema.js';
import type { TApproval, TConsentRecord, TCustomerControl } from '../../../../contract/api/consent.schema.js';
import type { TTestimonialRequest, TTestimonialResponse } from '../../../../contract/api/testimonials.schema.js';
import i18n from '../../../i18n/i18n';
import { AuthProvider } from '../../../lib/auth-context';
import { formatDateTime } from '../../../lib/format';
import { saveSession } from '../../../lib/session';
import { testJob } from '../jobs/job-fixtures';
import { ConsentRecordPage } from './consent-record-page';
import { TestimonialDetailScreen } from './testimonial-detail-screen';

await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * The customer's control on the detail screen (issue 29), with the real components, router, session,
 * query client and translations against a stand-in for the HTTP API shaped by the contract
 * (consent.schema.ts): the withdrawn banner and the locked studio, a removed answer, the approval
 * panel and the approval before Publish, the consent record and its printable page. The journeys with
 * the real server are in tests/e2e.
 */

const COMPANY = '1e2d3c4b-5a69-4877-8a9b-0c1d2e3f4a5b';
const ID = '5c4d3e2f-1a0b-4c9d-8e7f-6a5b4c3d2e1f';
const RESPONSE = '7b0c1c3e-4a57-4c1e-9d8e-2f1a6b7c8d90';
const RESPONSE_2 = '8c1d2d4f-5b68-4d2f-8e9f-3a2b7c8d9e01';
const APPROVAL = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
const APPROVAL_2 = 'b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e';
const MERGE_JOB = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';

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
    removal_requested_at: null,
    ...overrides,
  };
}

function control(overrides: Partial<TCustomerControl> = {}): TCustomerControl {
  return {
    consent_withdrawn_at: null,
    media_deletion_due_at: null,
    media_deleted_at: null,
    approval_required: false,
    approval_required_override: null,
    approvals: [],
    ...overrides,
  };
}

function approval(overrides: Partial<TApproval> = {}): TApproval {
  return {
    id: APPROVAL,
    jobId: null,
    responseId: RESPONSE,
    state: 'pending',
    comment: null,
    requestedAt: '2025-03-10T09:00:00.000Z',
    lastSentAt: '2025-03-10T09:00:00.000Z',
    reminderCount: 0,
    canRemindAt: '2025-03-11T09:00:00.000Z',
    decidedAt: null,
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
    customer_control: control(),
    ...overrides,
  };
}

/** A withdrawn testimonial as the server gives it: the media addresses are null. */
function withdrawn(more: Partial<TCustomerControl> = {}): TTestimonialRequest {
  return testimonial({
    testimonial_responses: [answer({ video_url: null, poster_url: null })],
    customer_control: control({ consent_withdrawn_at: '2025-03-12T15:30:00.000Z', media_deletion_due_at: '2025-04-11T15:30:00.000Z', ...more }),
  });
}

const record = (overrides: Partial<TConsentRecord> = {}): TConsentRecord => ({
  testimonial: { id: ID, customer_name: 'Claire Dubois', customer_email: 'claire@client.test', language: 'english', submitted_at: '2025-03-04T10:00:00.000Z' },
  company: { name: 'Acme Bikes' },
  consent: {
    text: 'I authorise Acme Bikes to use my image and voice. I can ask Acme Bikes to stop using them at any time.',
    textVersion: '2025-01',
    language: 'en',
    acceptedAt: '2025-03-04T10:00:00.000Z',
    ip: '203.0.113.7',
    userAgent: 'Mozilla/5.0',
    withdrawnAt: null,
    withdrawnIp: null,
  },
  events: [
    { kind: 'given', at: '2025-03-04T10:00:00.000Z', ip: '203.0.113.7', userAgent: 'Mozilla/5.0', responseId: null, question: null, approvalId: null, comment: null },
    { kind: 'approval_requested', at: '2025-03-10T09:00:00.000Z', ip: null, userAgent: null, responseId: null, question: null, approvalId: APPROVAL, comment: null },
    {
      kind: 'changes_requested',
      at: '2025-03-10T18:45:00.000Z',
      ip: '203.0.113.7',
      userAgent: 'Mozilla/5.0',
      responseId: null,
      question: null,
      approvalId: APPROVAL,
      comment: 'Please cut the first sentence.',
    },
    {
      kind: 'removal_requested',
      at: '2025-03-11T08:00:00.000Z',
      ip: '203.0.113.7',
      userAgent: 'Mozilla/5.0',
      responseId: RESPONSE_2,
      question: 'Would you recommend us?',
      approvalId: null,
      comment: null,
    },
  ],
  generatedAt: '2025-03-12T16:00:00.000Z',
  ...overrides,
});

type Reply = { status: number; body: unknown };
interface Call {
  method: string;
  path: string;
  body: unknown;
}

const detailPath = `GET /api/testimonials/request/${ID}?company_id=${COMPANY}`;
const publicationsPath = `GET /api/publications?testimonialId=${ID}`;
const jobsListPath = `GET /api/jobs?testimonialId=${ID}`;
const recordPath = `GET /api/testimonials/${ID}/consent-record`;
const ok = (body: unknown) => ({ status: 200, body });
const detail = (t: TTestimonialRequest) => ok({ testimonial: t, error_credit: false });
const refusal = (status: number, reason: string, params: Record<string, string | number> = {}) => ({
  status,
  body: { error: 'Refused.', code: status === 409 ? 'conflict' : 'invalid_data', reason, params },
});

function stubApi(routes: Record<string, Reply[]>) {
  const calls: Call[] = [];
  const table: Record<string, Reply[]> = {
    [publicationsPath]: [ok({ publications: [] })],
    [jobsListPath]: [ok({ jobs: [] })],
    [recordPath]: [ok(record())],
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

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/dashboard/testimonials/:id', element: <AuthProvider><TestimonialDetailScreen /></AuthProvider> },
      { path: '/dashboard/testimonials/:id/consent-record', element: <AuthProvider><ConsentRecordPage /></AuthProvider> },
    ],
    { initialEntries: [path] },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const posts = (calls: Call[]) => calls.filter((c) => c.method !== 'GET');

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  saveSession({ token: 'access-1', user: USER, rememberMe: true });
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  await i18n.changeLanguage('en');
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('a withdrawn testimonial', () => {
  it('says so with the date and when the videos go, and closes every studio action with the reason', async () => {
    stubApi({ [detailPath]: [detail(withdrawn())] });
    renderAt(`/dashboard/testimonials/${ID}`);
    const banner = await screen.findByTestId('consent-withdrawn-banner');
    expect(banner.textContent).toContain(
      'The customer withdrew their consent on 12/03/2025: this testimonial can no longer be published, edited, exported, downloaded or transcribed.',
    );
    expect(within(banner).getByTestId('media-deletion').textContent).toContain('Its videos will be deleted on 11/04/2025.');
    const card = screen.getByTestId('response-card');
    expect(within(card).getByTestId('studio-locked').textContent).toBe(
      'Consent withdrawn on 12/03/2025: nothing can be played, edited, exported, downloaded or published any more.',
    );
    expect(within(card).queryByTestId('action-intro')).toBeNull();
    expect(within(card).queryByTestId('action-publish')).toBeNull();
    expect(within(card).queryByTestId('answer-video')).toBeNull();
    expect(card.textContent).toContain('Consent withdrawn: this answer can no longer be played.');
    // The merge prompt stays, disabled, with the same reason.
    const prompt = screen.getByTestId('merge-prompt');
    expect((within(prompt).getByTestId('action-merge') as HTMLButtonElement).disabled).toBe(true);
    expect(within(prompt).getByTestId('studio-locked')).toBeTruthy();
    // The approval switch cannot be changed any more.
    expect((await screen.findByTestId('approval-switch') as HTMLButtonElement).disabled).toBe(true);
  });

  it('withdrawn before it was unlocked: no unlock offered, the withdrawal and the consent record shown', async () => {
    stubApi({ [detailPath]: [detail({ ...withdrawn(), paid: false })] });
    renderAt(`/dashboard/testimonials/${ID}`);
    const banner = await screen.findByTestId('consent-withdrawn-banner');
    expect(banner.textContent).toContain('The customer withdrew their consent on 12/03/2025');
    expect(screen.queryByTestId('pay-to-view')).toBeNull();
    expect(screen.queryByTestId('response-card')).toBeNull();
    expect(await screen.findByTestId('consent-record')).toBeTruthy();
  });

  it('with an enhanced answer and a merged video, disables each of their actions', async () => {
    const enhanced = answer({ modified_video_url: media('a/intro.mp4'), intro_generated: true });
    stubApi({ [detailPath]: [detail({ ...withdrawn(), testimonial_responses: [enhanced], video_url: media('m/merged.mp4') })] });
    renderAt(`/dashboard/testimonials/${ID}`);
    const card = await screen.findByTestId('response-card');
    for (const id of ['action-view', 'action-export', 'action-subtitles', 'action-regenerate']) {
      expect((within(card).getByTestId(id) as HTMLButtonElement).disabled, id).toBe(true);
    }
    expect(within(card).getByTestId('action-download').getAttribute('href')).toBeNull();
    const merged = screen.getByTestId('merged-card');
    expect((within(merged).getByTestId('action-merged-export') as HTMLButtonElement).disabled).toBe(true);
    expect(within(merged).queryByTestId('action-merged-publish')).toBeNull();
    expect(within(merged).getByTestId('studio-locked')).toBeTruthy();
  });

  it('deletes the videos now after asking, then says they were deleted', async () => {
    const calls = stubApi({
      [detailPath]: [detail(withdrawn()), detail(withdrawn({ media_deleted_at: '2025-03-13T08:00:00.000Z', media_deletion_due_at: null }))],
      [`POST /api/testimonials/${ID}/delete-media`]: [ok({ media_deleted_at: '2025-03-13T08:00:00.000Z' })],
    });
    renderAt(`/dashboard/testimonials/${ID}`);
    fireEvent.click(await screen.findByTestId('delete-media'));
    const dialog = await screen.findByTestId('delete-media-dialog');
    expect(dialog.textContent).toContain('Delete the videos now?');
    expect(posts(calls)).toEqual([]);
    fireEvent.click(within(dialog).getByTestId('delete-media-confirm'));
    await waitFor(() => expect(screen.getByTestId('media-deletion').textContent).toContain('Its videos were deleted on 13/03/2025.'));
    expect(screen.queryByTestId('delete-media-dialog')).toBeNull();
    expect(screen.queryByTestId('delete-media')).toBeNull();
    expect(posts(calls)).toEqual([{ method: 'POST', path: `/api/testimonials/${ID}/delete-media`, body: undefined }]);
  });

  it('says a refused deletion in its words', async () => {
    stubApi({ [detailPath]: [detail(withdrawn())], [`POST /api/testimonials/${ID}/delete-media`]: [refusal(409, 'media_deleted')] });
    renderAt(`/dashboard/testimonials/${ID}`);
    fireEvent.click(await screen.findByTestId('delete-media'));
    fireEvent.click(await screen.findByTestId('delete-media-confirm'));
    expect((await screen.findByTestId('delete-media-error')).textContent).toBe('The videos of this testimonial have been deleted.');
  });

  it('shows the translated refusal when the server refuses a studio action the page still offered', async () => {
    stubApi({
      [detailPath]: [detail(testimonial())],
      [`POST /api/testimonials/response/${RESPONSE}/generate-modified/intro`]: [refusal(409, 'consent_withdrawn', { date: '12/03/2025' })],
    });
    renderAt(`/dashboard/testimonials/${ID}`);
    fireEvent.click(await screen.findByTestId('action-intro'));
    fireEvent.click(screen.getByTestId('confirm-action'));
    expect((await screen.findByTestId('error-banner')).textContent).toContain('The customer withdrew their consent on 12/03/2025');
  });

  it('speaks French', async () => {
    await i18n.changeLanguage('fr');
    stubApi({ [detailPath]: [detail(withdrawn())] });
    renderAt(`/dashboard/testimonials/${ID}`);
    const banner = await screen.findByTestId('consent-withdrawn-banner');
    expect(banner.textContent).toContain('Le client a retiré son consentement le 12/03/2025');
    expect(banner.textContent).toContain('Ses vidéos seront supprimées le 11/04/2025.');
    expect(within(banner).getByTestId('delete-media').textContent).toBe('Supprimer les vidéos maintenant');
  });
});

describe('a removed answer', () => {
  it('shows why in place of its player, with no action, beside the answers still in use', async () => {
    const removed = answer({
      id: RESPONSE_2,
      orderPosition: 2,
      question: { id: '3c3c3c3c-3333-4333-8333-333333333333', text: 'Would you recommend us?' },
      video_url: null,
      poster_url: null,
      removal_requested_at: '2025-03-11T08:00:00.000Z',
    });
    stubApi({ [detailPath]: [detail(testimonial({ testimonial_responses: [answer(), removed] }))] });
    renderAt(`/dashboard/testimonials/${ID}`);
    await screen.findByTestId('answer-removed');
    const [kept, gone] = screen.getAllByTestId('response-card');
    expect(gone!.getAttribute('data-removed')).toBe('true');
    expect(within(gone!).getByTestId('answer-removed').textContent).toContain(
      'Claire Dubois asked on 11/03/2025 for this answer to be removed. It is left out of every video and publication',
    );
    expect(within(gone!).getByText('Would you recommend us?')).toBeTruthy();
    expect(within(gone!).queryAllByRole('button')).toEqual([]);
    expect(within(gone!).queryByTestId('answer-video')).toBeNull();
    expect(within(kept!).getByTestId('answer-video')).toBeTruthy();
    // Merging counts the answers still in use.
    expect(screen.getByTestId('merge-prompt').textContent).toContain('Merge the answer after its question card');
  });
});

describe('the approval panel', () => {
  it('shows the effective switch, following the company, and sends a boolean when switched', async () => {
    const calls = stubApi({
      [detailPath]: [detail(testimonial()), detail(testimonial({ customer_control: control({ approval_required: true, approval_required_override: true }) }))],
      [`PUT /api/testimonials/${ID}/approval-required`]: [ok({ approval_required: true, approval_required_override: true })],
    });
    renderAt(`/dashboard/testimonials/${ID}`);
    const panel = await screen.findByTestId('approval-panel');
    const toggle = within(panel).getByRole('switch', { name: 'Ask the customer to approve before publishing' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(toggle.getAttribute('data-testid')).toBe('approval-switch');
    expect(panel.textContent).toContain('Follows your company setting');
    expect(within(panel).getByTestId('approval-empty').textContent).toBe('No approval asked yet.');
    fireEvent.click(toggle);
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'));
    expect(panel.textContent).toContain('Set for this testimonial only.');
    expect(posts(calls)).toEqual([{ method: 'PUT', path: `/api/testimonials/${ID}/approval-required`, body: { required: true } }]);
  });

  it('lists each approval with its video, its state in words and the comment; reminds when allowed', async () => {
    vi.setSystemTime(new Date('2025-03-12T10:00:00.000Z'));
    const approvals = [
      approval({ id: APPROVAL_2, jobId: MERGE_JOB, responseId: null, requestedAt: '2025-03-11T08:00:00.000Z', lastSentAt: '2025-03-11T08:00:00.000Z', canRemindAt: '2025-03-12T08:00:00.000Z' }),
      approval({ state: 'changes_requested', comment: 'Please cut the first sentence.', canRemindAt: null, decidedAt: '2025-03-10T18:45:00.000Z' }),
    ];
    const calls = stubApi({
      [detailPath]: [detail(testimonial({ customer_control: control({ approval_required: true, approvals }) }))],
      [jobsListPath]: [ok({ jobs: [testJob(MERGE_JOB, 'ready', { testimonialId: ID, kind: 'merge', outputUrl: media('m/merged.mp4') })] })],
      [`POST /api/approvals/${APPROVAL_2}/remind`]: [ok({ ...approvals[0], reminderCount: 1 })],
    });
    renderAt(`/dashboard/testimonials/${ID}`);
    await waitFor(() => expect(screen.getAllByTestId('approval-video')[0]!.textContent).toBe('Merged video'));
    const [merged, answered] = screen.getAllByTestId('approval-item');
    expect(merged!.getAttribute('data-state')).toBe('pending');
    expect(within(merged!).getByTestId('approval-state').textContent).toBe('Awaiting approval');
    expect(answered!.getAttribute('data-state')).toBe('changes_requested');
    expect(within(answered!).getByTestId('approval-video').textContent).toBe('Question 1 · What did you like most?');
    expect(within(answered!).getByTestId('approval-state').textContent).toBe('Changes asked');
    expect(within(answered!).getByTestId('approval-comment').textContent).toBe('Please cut the first sentence.');
    expect(answered!.textContent).toContain(`Answered on ${formatDateTime('2025-03-10T18:45:00.000Z')}`);
    expect(within(answered!).queryByTestId('remind-approval')).toBeNull();
    const remind = within(merged!).getByTestId('remind-approval') as HTMLButtonElement;
    expect(remind.disabled).toBe(false);
    fireEvent.click(remind);
    await waitFor(() => expect(posts(calls)).toEqual([{ method: 'POST', path: `/api/approvals/${APPROVAL_2}/remind`, body: undefined }]));
  });

  it('waits to remind until 24 hours have passed, saying when', async () => {
    vi.setSystemTime(new Date('2025-03-10T12:00:00.000Z'));
    stubApi({
      [detailPath]: [detail(testimonial({ customer_control: control({ approval_required: true, approvals: [approval()] }) }))],
    });
    renderAt(`/dashboard/testimonials/${ID}`);
    const item = await screen.findByTestId('approval-item');
    const remind = within(item).getByTestId('remind-approval') as HTMLButtonElement;
    expect(remind.disabled).toBe(true);
    expect(within(item).getByTestId('remind-approval-at').textContent).toBe(`You can remind them again on ${formatDateTime('2025-03-11T09:00:00.000Z')}.`);
    expect(remind.getAttribute('aria-describedby')).toBe(within(item).getByTestId('remind-approval-at').id);
  });

  it('says a refused reminder in its words', async () => {
    stubApi({
      [detailPath]: [detail(testimonial({ customer_control: control({ approvals: [approval({ canRemindAt: '2025-01-01T00:00:00.000Z' })] }) }))],
      [`POST /api/approvals/${APPROVAL}/remind`]: [refusal(429, 'approval_reminder_too_soon', { hours: 5 })],
    });
    renderAt(`/dashboard/testimonials/${ID}`);
    fireEvent.click(await screen.findByTestId('remind-approval'));
    expect((await screen.findByTestId('remind-approval-error')).textContent).toContain('You can remind them again in 5 h.');
  });
});

describe('approval before Publish', () => {
  const required = (approvals: TApproval[] = []) => testimonial({ customer_control: control({ approval_required: true, approvals }) });

  it('offers "Ask for approval" before Publish with why, and asks for the answer shown', async () => {
    const calls = stubApi({
      [detailPath]: [detail(required()), detail(required([approval()]))],
      [`POST /api/testimonials/${ID}/approvals`]: [{ status: 201, body: approval() }],
    });
    renderAt(`/dashboard/testimonials/${ID}`);
    const card = await screen.findByTestId('response-card');
    const ask = await within(card).findByTestId('ask-approval');
    expect(ask.textContent).toBe('Ask for approval');
    expect(within(card).getByTestId('approval-gate-note').textContent).toBe(
      'Your customer approves this video before it is published: ask for their approval first.',
    );
    expect(within(card).getByTestId('action-publish')).toBeTruthy();
    fireEvent.click(ask);
    const dialog = await screen.findByTestId('ask-approval-dialog');
    expect(within(dialog).getByTestId('ask-approval-item').textContent).toBe('Question 1 · What did you like most? · Original');
    fireEvent.click(within(dialog).getByTestId('ask-approval-confirm'));
    await waitFor(() => expect(screen.queryByTestId('ask-approval-dialog')).toBeNull());
    expect(posts(calls)).toEqual([{ method: 'POST', path: `/api/testimonials/${ID}/approvals`, body: { responseId: RESPONSE } }]);
    expect((await within(card).findByTestId('approval-awaiting')).textContent).toBe('Awaiting approval');
    expect(within(card).getByTestId('approval-gate-note').getAttribute('data-gate')).toBe('pending');
    expect(within(card).queryByTestId('ask-approval')).toBeNull();
  });

  it('says why Publish was refused while the customer has not approved, in English and French', async () => {
    stubApi({
      [detailPath]: [detail(required([approval()]))],
      ['POST /api/publications']: [refusal(409, 'approval_pending')],
    });
    renderAt(`/dashboard/testimonials/${ID}`);
    const publish = (await within(await screen.findByTestId('response-card')).findByTestId('action-publish')) as HTMLButtonElement;
    await waitFor(() => expect(publish.disabled).toBe(false));
    fireEvent.click(publish);
    expect((await screen.findByTestId('publish-error')).textContent).toContain(
      'The customer has not approved this video yet. You will be told as soon as they answer.',
    );
    expect(screen.queryByTestId('publish-ask-approval')).toBeNull();
    expect(screen.queryByTestId('publish-retry')).toBeNull();
    cleanup();
    await i18n.changeLanguage('fr');
    renderAt(`/dashboard/testimonials/${ID}`);
    const publier = (await within(await screen.findByTestId('response-card')).findByTestId('action-publish')) as HTMLButtonElement;
    await waitFor(() => expect(publier.disabled).toBe(false));
    fireEvent.click(publier);
    expect((await screen.findByTestId('publish-error')).textContent).toContain('Le client n’a pas encore approuvé cette vidéo.');
  });

  it('offers to ask from a Publish refused for want of approval, and after changes asks again', async () => {
    stubApi({
      [detailPath]: [detail(required([approval({ state: 'changes_requested', comment: 'Shorter please.', canRemindAt: null })]))],
      ['POST /api/publications']: [refusal(409, 'approval_changes_requested')],
    });
    renderAt(`/dashboard/testimonials/${ID}`);
    const card = await screen.findByTestId('response-card');
    expect((await within(card).findByTestId('ask-approval')).textContent).toBe('Ask for approval again');
    const publish = within(card).getByTestId('action-publish') as HTMLButtonElement;
    await waitFor(() => expect(publish.disabled).toBe(false));
    fireEvent.click(publish);
    const error = await screen.findByTestId('publish-error');
    expect(error.textContent).toContain('The customer asked for changes to this video.');
    fireEvent.click(within(error).getByTestId('publish-ask-approval'));
    expect(await screen.findByTestId('ask-approval-dialog')).toBeTruthy();
    expect(screen.queryByTestId('publish-dialog')).toBeNull();
  });

  it('publishes as usual once the customer approved', async () => {
    stubApi({ [detailPath]: [detail(required([approval({ state: 'approved', canRemindAt: null, decidedAt: '2025-03-11T08:00:00.000Z' })]))] });
    renderAt(`/dashboard/testimonials/${ID}`);
    const card = await screen.findByTestId('response-card');
    await within(card).findByTestId('action-publish');
    expect(within(card).queryByTestId('ask-approval')).toBeNull();
    expect(within(card).queryByTestId('approval-gate-note')).toBeNull();
    expect(within(screen.getByTestId('approval-item')).getByTestId('approval-state').textContent).toBe('Approved');
  });

  it('says a refused request for approval in its words', async () => {
    stubApi({ [detailPath]: [detail(required())], [`POST /api/testimonials/${ID}/approvals`]: [refusal(409, 'approval_no_email')] });
    renderAt(`/dashboard/testimonials/${ID}`);
    fireEvent.click(await screen.findByTestId('ask-approval'));
    fireEvent.click(await screen.findByTestId('ask-approval-confirm'));
    expect((await screen.findByTestId('ask-approval-error')).textContent).toBe(
      'This customer gave no e-mail address, so they cannot be asked for their approval.',
    );
  });
});

describe('the consent record', () => {
  it('shows every moment with its date and time, and the details', async () => {
    stubApi({ [detailPath]: [detail(testimonial({ customer_control: control({ approvals: [approval({ state: 'changes_requested' })] }) }))] });
    renderAt(`/dashboard/testimonials/${ID}`);
    const section = await screen.findByTestId('consent-record');
    await waitFor(() => expect(within(section).getAllByTestId('consent-event')).toHaveLength(4));
    const events = within(section).getAllByTestId('consent-event');
    expect(events.map((e) => e.getAttribute('data-kind'))).toEqual(['given', 'approval_requested', 'changes_requested', 'removal_requested']);
    expect(events[0]!.textContent).toContain(`Consent given${formatDateTime('2025-03-04T10:00:00.000Z')}`);
    expect(events[0]!.textContent).toContain('From 203.0.113.7');
    expect(events[1]!.textContent).toContain('Video: Question 1 · What did you like most?');
    expect(events[2]!.textContent).toContain('Comment: “Please cut the first sentence.”');
    expect(events[3]!.textContent).toContain('Answer: Would you recommend us?');
    expect(within(section).getByTestId('consent-record-print').getAttribute('href')).toBe(`/dashboard/testimonials/${ID}/consent-record`);
  });

  it('adds the withdrawal from the consent when the events do not list it', async () => {
    const withdrawnRecord = record({ consent: { ...record().consent!, withdrawnAt: '2025-03-12T15:30:00.000Z', withdrawnIp: '198.51.100.4' } });
    stubApi({ [detailPath]: [detail(withdrawn())], [recordPath]: [ok(withdrawnRecord)] });
    renderAt(`/dashboard/testimonials/${ID}`);
    await waitFor(() => expect(screen.getAllByTestId('consent-event').at(-1)!.getAttribute('data-kind')).toBe('withdrawn'));
    expect(screen.getAllByTestId('consent-event').at(-1)!.textContent).toContain('From 198.51.100.4');
  });

  it('downloads the JSON read afresh through the authenticated client', async () => {
    const calls = stubApi({ [detailPath]: [detail(testimonial())] });
    const blobs: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:record';
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicks: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push({ href: this.getAttribute('href') ?? '', download: this.download });
    });
    renderAt(`/dashboard/testimonials/${ID}`);
    await screen.findAllByTestId('consent-event');
    fireEvent.click(screen.getByTestId('consent-record-json'));
    await waitFor(() => expect(clicks).toEqual([{ href: 'blob:record', download: 'claire-dubois-consent-record-2025-03-12.json' }]));
    const reads = calls.filter((c) => c.path === `/api/testimonials/${ID}/consent-record`);
    expect(reads).toHaveLength(2);
    expect(JSON.parse(await blobs[0]!.text())).toEqual(record());
    expect(blobs[0]!.type).toBe('application/json');
  });

  it('says a failed download', async () => {
    stubApi({ [detailPath]: [detail(testimonial())], [recordPath]: [ok(record()), { status: 500, body: { error: 'Boom', code: 'server_error' } }] });
    renderAt(`/dashboard/testimonials/${ID}`);
    await screen.findAllByTestId('consent-event');
    fireEvent.click(screen.getByTestId('consent-record-json'));
    expect((await screen.findByTestId('consent-record-download-error')).textContent).toContain('The consent record could not be downloaded.');
  });

  it('prints from its own page: the consent as accepted and the history', async () => {
    stubApi({});
    const print = vi.fn();
    vi.stubGlobal('print', print);
    renderAt(`/dashboard/testimonials/${ID}/consent-record`);
    const page = await screen.findByTestId('consent-record-page');
    expect(within(page).getByRole('heading', { level: 1 }).textContent).toBe('Consent record');
    expect(within(page).getByTestId('consent-record-text').textContent).toContain('I can ask Acme Bikes to stop using them at any time.');
    expect(within(page).getAllByTestId('consent-record-row').map((r) => r.getAttribute('data-kind'))).toEqual([
      'given',
      'approval_requested',
      'changes_requested',
      'removal_requested',
    ]);
    expect(page.textContent).toContain('203.0.113.7');
    expect(page.textContent).toContain(`Generated on ${formatDateTime('2025-03-12T16:00:00.000Z')} by Vouchreel for Acme Bikes.`);
    fireEvent.click(screen.getByTestId('consent-record-page-print'));
    expect(print).toHaveBeenCalledOnce();
    expect(screen.getByTestId('consent-record-page-back').getAttribute('href')).toBe(`/dashboard/testimonials/${ID}`);
  });
});
