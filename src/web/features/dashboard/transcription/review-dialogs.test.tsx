// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type * as React from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { jobReasonMessage, type TJob, type TJobPhase } from '../../../../contract/api/jobs.schema.js';
import type { TResponseTranscriptions } from '../../../../contract/api/transcription.schema.js';
import i18n from '../../../i18n/i18n';
import { testJob } from '../jobs/job-fixtures';
import { MergedTranscriptionReviewDialog } from './merged-transcription-review-dialog';
import { TranscriptionReviewDialog } from './transcription-review-dialog';
import { TRANSCRIPTION_POLL_MS as POLL_INTERVAL_MS } from '../api/transcription-job-status';

// The unit-test config compiles JSX with esbuild's classic runtime: the components find React as a
// global, set before any component module is evaluated (vi.hoisted runs above the imports).
await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * The two review dialogs with the real components, query client and translations, against a
 * stand-in for the HTTP API (the only part replaced): what they send, and the messages of spec §8.
 */

const RESPONSE = '7b0c1c3e-4a57-4c1e-9d8e-2f1a6b7c8d90';
const RESPONSE_2 = '1e2d3c4b-5a69-4877-8a9b-0c1d2e3f4a5b';
const TESTIMONIAL = '5c4d3e2f-1a0b-4c9d-8e7f-6a5b4c3d2e1f';
const JOB = '0b7f3f52-8d1e-4c1a-9a55-1d2f3e4a5b6c';
const JOB_B = '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d';

/** GET /api/jobs/{id}: the transcription job as the server shows it. */
const job = (id: string, phase: TJobPhase, overrides: Partial<TJob> = {}) => testJob(id, phase, { kind: 'merged_transcription', testimonialId: TESTIMONIAL, ...overrides });
const jobPath = (id: string) => `GET /api/jobs/${id}`;
const RENDER_JOB = { jobId: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a', state: { output: 'subtitles', phase: 'queued', progress: 0, error: null } };

const CUES = [
  { start: 0.48, end: 2.9, text: 'Working with this team was a great' },
  { start: 2.9, end: 5.125, text: 'experience. I recommend them.' },
];

type Reply = { status: number; body: unknown } | (() => { status: number; body: unknown });
interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** Answers each call with the next reply queued for its `METHOD path`, and records the calls. */
function stubApi(routes: Record<string, Reply[]>) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    const method = init?.method ?? 'GET';
    calls.push({ method, path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const queue = routes[`${method} ${path}`];
    if (!queue?.length) throw new Error(`unexpected call ${method} ${path}`);
    const next = queue.length > 1 ? queue.shift()! : queue[0]!;
    const { status, body } = typeof next === 'function' ? next() : next;
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

const ok = (body: unknown) => ({ status: 200, body });
const failure = (status: number, error: string) => ({ status, body: { error, code: status >= 500 ? 'server_error' : 'invalid_data' } });

function renderWithClient(ui: React.ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
}

function single(overrides: Partial<React.ComponentProps<typeof TranscriptionReviewDialog>> = {}) {
  const onOpenChange = vi.fn();
  const onGenerationStarted = vi.fn();
  renderWithClient(
    <TranscriptionReviewDialog
      open
      onOpenChange={onOpenChange}
      responseId={RESPONSE}
      questionText="What did you like most?"
      onGenerationStarted={onGenerationStarted}
      {...overrides}
    />,
  );
  return { onOpenChange, onGenerationStarted };
}

const transcribePath = `POST /api/testimonials/response/${RESPONSE}/transcribe`;
const generatePath = `POST /api/testimonials/response/${RESPONSE}/generate-modified/subtitles`;
const button = (testId: string) => screen.getByTestId(testId) as HTMLButtonElement;

beforeAll(async () => {
  await i18n.changeLanguage('en');
  // The client reads error replies with a schema it imports on first use: loaded before any clock is faked.
  await import('../../../../contract/errors.js');
});
let consoleError: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  // Spec §8: every error is also logged to the console. Tests that expect one assert it.
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
  await i18n.changeLanguage('en');
});

describe('single answer review', () => {
  it('shows the cues with mm:ss.ms times, and burns the edited cues in the interface language', async () => {
    const calls = stubApi({ [transcribePath]: [ok({ transcription: CUES })], [generatePath]: [{ status: 202, body: RENDER_JOB }] });
    const { onOpenChange, onGenerationStarted } = single();
    expect(screen.getByTestId('transcription-loading').textContent).toContain('Transcribing the answer');
    expect(button('generate-subtitles').disabled).toBe(true);

    const fields = (await screen.findAllByTestId('cue-text')) as HTMLTextAreaElement[];
    expect(fields.map((f) => f.value)).toEqual(CUES.map((c) => c.text));
    expect(screen.getByLabelText('Line 1 · 00:00.480 – 00:02.900')).toBe(fields[0]);
    expect(screen.getByLabelText('Line 2 · 00:02.900 – 00:05.125')).toBe(fields[1]);

    fireEvent.change(fields[0]!, { target: { value: 'Working with this crew was a great  ' } });
    fireEvent.change(fields[1]!, { target: { value: '   ' } });
    expect(screen.getByText('2 lines edited')).toBeTruthy();
    await i18n.changeLanguage('fr');
    fireEvent.click(button('generate-subtitles'));

    await waitFor(() => expect(onGenerationStarted).toHaveBeenCalledWith(expect.objectContaining({ jobId: RENDER_JOB.jobId })));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(calls.find((c) => c.path.endsWith('/generate-modified/subtitles'))?.body).toEqual({
      transcription: [{ start: 0.48, end: 2.9, text: 'Working with this crew was a great' }],
      language: 'fr',
    });
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('says the transcription failed in the words of the spec, logs it, and retries', async () => {
    stubApi({ [transcribePath]: [failure(500, 'A server error occurred.'), ok({ transcription: CUES })] });
    single();
    const alert = await screen.findByTestId('transcription-error');
    expect(alert.textContent).toContain('Failed to transcribe video. Please try again.');
    expect(alert.textContent).not.toContain('server error');
    expect(consoleError).toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findAllByTestId('cue-text')).toHaveLength(2);
  });

  it('shows why a refused transcription was refused (the engine cannot handle the language)', async () => {
    stubApi({ [transcribePath]: [failure(422, 'The offline engine only understands English.')] });
    single();
    const alert = await screen.findByTestId('transcription-error');
    expect(alert.textContent).toContain('Failed to transcribe video. Please try again.');
    expect(alert.textContent).toContain('The offline engine only understands English.');
  });

  it('disables generate and downloads, with the reason, when there are no cues', async () => {
    stubApi({ [transcribePath]: [ok({ transcription: [] })] });
    single();
    const empty = await screen.findByTestId('transcription-empty');
    expect(empty.textContent).toContain('No speech was found');
    for (const id of ['generate-subtitles', 'download-txt', 'download-json', 'download-srt']) {
      expect(button(id).disabled, id).toBe(true);
      expect(document.getElementById(button(id).getAttribute('aria-describedby') ?? '')?.textContent).toContain('No speech was found');
    }
  });

  it('transcribes again through a new job when the stored transcript found no speech', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const result: TResponseTranscriptions = [{ responseId: RESPONSE, questionText: 'What did you like most?', orderPosition: 1, transcription: CUES, error: null }];
    const calls = stubApi({
      [transcribePath]: [ok({ transcription: [] }), { status: 202, body: { transcription: [], jobId: JOB_B, status: 'queued' } }],
      [jobPath(JOB_B)]: [ok(job(JOB_B, 'ready', { kind: 'transcription', responseId: RESPONSE }))],
      [`GET /api/testimonials/transcription-job/${JOB_B}/status`]: [ok({ status: 'done', merged_url: JSON.stringify(result) })],
    });
    single();
    fireEvent.click(within(await screen.findByTestId('transcription-empty')).getByRole('button', { name: 'Transcribe again' }));
    expect(await screen.findAllByTestId('cue-text')).toHaveLength(2);
    expect(calls.filter((c) => c.path.endsWith('/transcribe')).map((c) => c.body)).toEqual([undefined, { force: true }]);
  });

  it('keeps the edits and offers a retry when starting the subtitled video fails', async () => {
    const calls = stubApi({
      [transcribePath]: [ok({ transcription: CUES })],
      [generatePath]: [failure(409, 'A video of this answer is already being generated. Please wait for it to finish.'), { status: 202, body: RENDER_JOB }],
    });
    const { onGenerationStarted, onOpenChange } = single();
    const fields = await screen.findAllByTestId('cue-text');
    fireEvent.change(fields[0]!, { target: { value: 'Edited text' } });
    fireEvent.click(button('generate-subtitles'));
    const alert = await screen.findByTestId('generate-error');
    expect(alert.textContent).toContain('Failed to generate video with subtitles. Please try again.');
    expect(alert.textContent).toContain('already being generated');
    expect(onGenerationStarted).not.toHaveBeenCalled();
    expect(onOpenChange).not.toHaveBeenCalled();
    expect((screen.getAllByTestId('cue-text')[0] as HTMLTextAreaElement).value).toBe('Edited text');
    expect(consoleError).toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(onGenerationStarted).toHaveBeenCalledTimes(1));
    expect(calls.filter((c) => c.path.endsWith('/subtitles'))).toHaveLength(2);
  });

  it("follows the engine's job when the server queues one (202), then shows its cues", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const statusPath = `GET /api/testimonials/transcription-job/${JOB}/status`;
    const result: TResponseTranscriptions = [{ responseId: RESPONSE, questionText: 'What did you like most?', orderPosition: 1, transcription: CUES, error: null }];
    const calls = stubApi({
      [transcribePath]: [{ status: 202, body: { transcription: [], jobId: JOB, status: 'queued' } }],
      [jobPath(JOB)]: [ok(job(JOB, 'running', { kind: 'transcription', responseId: RESPONSE, progress: 50 })), ok(job(JOB, 'ready', { kind: 'transcription', responseId: RESPONSE }))],
      [statusPath]: [ok({ status: 'done', merged_url: JSON.stringify(result) })],
    });
    single();
    // The job's progress, while the engine listens.
    const loading = await screen.findByTestId('transcription-loading');
    await waitFor(() => expect(loading.querySelector('[data-testid="job-percent"]')?.textContent).toBe('50%'));
    expect(screen.queryAllByTestId('cue-text')).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS));
    expect(await screen.findAllByTestId('cue-text')).toHaveLength(2);
    expect(calls.filter((c) => c.path === `/api/jobs/${JOB}`)).toHaveLength(2);
    expect(calls.filter((c) => c.path.endsWith('/status'))).toHaveLength(1);
  });

  it("says the job failed with its reason, and a company over its transcription limit (429) in the person's language", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const error = { reason: 'transcription_failed' as const, params: {}, message: 'The speech could not be transcribed.' };
    stubApi({
      [transcribePath]: [{ status: 202, body: { transcription: [], jobId: JOB, status: 'queued' } }],
      [jobPath(JOB)]: [ok(job(JOB, 'failed', { kind: 'transcription', responseId: RESPONSE, error }))],
    });
    single();
    const failed = await screen.findByTestId('transcription-error');
    expect(failed.textContent).toContain('Failed to transcribe video. Please try again.');
    expect(failed.textContent).toContain('The speech could not be transcribed.');
    expect(consoleError).toHaveBeenCalled();
    cleanup();

    // A job that found no engine for the language offers to type the subtitles instead (decision 167).
    const unavailable = { reason: 'transcription_unavailable' as const, params: {}, message: 'Automatic transcription is not available on this installation.' };
    stubApi({
      [transcribePath]: [{ status: 202, body: { transcription: [], jobId: JOB, status: 'queued' } }],
      [jobPath(JOB)]: [ok(job(JOB, 'failed', { kind: 'transcription', responseId: RESPONSE, error: unavailable }))],
    });
    single();
    expect((await screen.findByTestId('transcription-not-set-up')).textContent).toContain('Type the subtitles');
    cleanup();

    await i18n.changeLanguage('fr');
    stubApi({ [transcribePath]: [{ status: 429, body: { error: 'Too many transcriptions are running for your company.', code: 'rate_limited' } }] });
    single();
    const alert = await screen.findByTestId('transcription-error');
    expect(alert.textContent).toContain('Plusieurs transcriptions sont déjà en cours pour votre entreprise.');
    expect(alert.textContent).not.toContain('Too many');
  });

  it('offers to type the subtitles, without a retry, when no engine knows the language; typed lines are saved', async () => {
    await i18n.changeLanguage('fr');
    const calls = stubApi({
      [transcribePath]: [
        { status: 422, body: { error: 'Automatic transcription is not set up for this language on this installation. You can type the subtitles yourself.', code: 'invalid_data', reason: 'transcription_language_not_set_up', params: { language: 'fr' } } },
      ],
      [`PUT /api/testimonials/response/${RESPONSE}/transcription`]: [ok({ transcription: [{ start: 0, end: 2, text: 'Bonjour à tous.' }] })],
    });
    single();
    const notSetUp = await screen.findByTestId('transcription-not-set-up');
    expect(notSetUp.textContent).toContain('ne sont pas disponibles dans cette langue');
    expect(screen.getByTestId('transcription-review-dialog').textContent).not.toMatch(/Réessayer|TRANSCRIBE_URL/);
    expect((screen.getByTestId('generate-subtitles') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId('type-subtitles'));
    fireEvent.click(await screen.findByTestId('add-cue'));
    fireEvent.change(screen.getByTestId('cue-text'), { target: { value: 'Bonjour à tous.' } });
    fireEvent.click(screen.getByTestId('save-subtitles'));
    await screen.findByTestId('subtitles-saved');
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ transcription: [{ start: 0, end: 2, text: 'Bonjour à tous.' }] });
    expect((screen.getByTestId('generate-subtitles') as HTMLButtonElement).disabled).toBe(false);
  });

  it('makes no call while closed', () => {
    const calls = stubApi({});
    single({ open: false });
    expect(calls).toEqual([]);
    expect(screen.queryByTestId('transcription-review-dialog')).toBeNull();
  });
});

describe('merged review', () => {
  const startPath = `POST /api/testimonials/${TESTIMONIAL}/transcribe-merged-responses`;
  const statusPath = `GET /api/testimonials/transcription-job/${JOB}/status`;
  const generatePathMerged = `POST /api/testimonials/${TESTIMONIAL}/generate-merged-with-all-subtitles`;
  const RESULT: TResponseTranscriptions = [
    { responseId: RESPONSE, questionText: 'What did you like most?', orderPosition: 1, transcription: CUES, error: null },
    { responseId: RESPONSE_2, questionText: 'Would you recommend us?', orderPosition: 2, transcription: [], error: 'The audio could not be read.' },
  ];
  const done = ok({ status: 'done', merged_url: JSON.stringify(RESULT) });

  function merged(overrides: Partial<React.ComponentProps<typeof MergedTranscriptionReviewDialog>> = {}) {
    const onOpenChange = vi.fn();
    const onGenerationStarted = vi.fn();
    renderWithClient(
      <MergedTranscriptionReviewDialog open onOpenChange={onOpenChange} testimonialId={TESTIMONIAL} onGenerationStarted={onGenerationStarted} {...overrides} />,
    );
    return { onOpenChange, onGenerationStarted };
  }
  /** Lets the poller's 3 s pass. */
  const tick = (times = 1) => act(() => vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * times));

  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });

  it('follows the job, then shows every answer with its question, position and error', async () => {
    const calls = stubApi({
      [startPath]: [{ status: 202, body: { jobId: JOB } }],
      [jobPath(JOB)]: [ok(job(JOB, 'queued')), ok(job(JOB, 'running', { progress: 50 })), ok(job(JOB, 'ready'))],
      [statusPath]: [done],
      [generatePathMerged]: [{ status: 202, body: { ...RENDER_JOB, state: { ...RENDER_JOB.state, output: 'merged_subtitles' } } }],
    });
    const { onGenerationStarted } = merged();
    expect(screen.getByTestId('transcription-loading')).toBeTruthy();
    await tick(1);
    expect(screen.queryAllByTestId('merged-response')).toHaveLength(0);
    await tick();
    const answers = await screen.findAllByTestId('merged-response');
    expect(answers).toHaveLength(2);
    expect(calls.filter((c) => c.path === `/api/jobs/${JOB}`)).toHaveLength(3);
    expect(calls.filter((c) => c.path.endsWith('/status'))).toHaveLength(1);
    expect(answers[0]!.textContent).toContain('Answer 1');
    expect(answers[0]!.textContent).toContain('What did you like most?');
    expect(answers[1]!.textContent).toContain('Answer 2');
    expect(answers[1]!.textContent).toContain('Not transcribed');
    // The first answer and the failed one are open; the failed one shows why.
    expect(screen.getByTestId('merged-response-error').textContent).toContain('The audio could not be read.');
    const header = screen.getByRole('button', { name: /What did you like most\?/ });
    expect(header.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(header);
    expect(header.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryAllByTestId('cue-text')).toHaveLength(0);
    fireEvent.click(header);

    fireEvent.change(screen.getAllByTestId('cue-text')[1]!, { target: { value: 'experience. I recommend them to everyone.' } });
    fireEvent.click(button('generate-merged-subtitles'));
    await waitFor(() => expect(onGenerationStarted).toHaveBeenCalledWith(expect.objectContaining({ jobId: RENDER_JOB.jobId })));
    // Only the answers that were transcribed are sent; the failed one stays as it is on the server.
    expect(calls.find((c) => c.path.endsWith('/generate-merged-with-all-subtitles'))?.body).toEqual({
      transcriptions: [
        {
          responseId: RESPONSE,
          questionText: 'What did you like most?',
          orderPosition: 1,
          transcription: [CUES[0], { ...CUES[1], text: 'experience. I recommend them to everyone.' }],
          error: null,
        },
      ],
      language: 'en',
    });
  });

  it('shows each answer with its own player, whose line times seek it, like the single review (decision 179)', async () => {
    stubApi({ [startPath]: [{ status: 202, body: { jobId: JOB } }], [jobPath(JOB)]: [ok(job(JOB, 'ready'))], [statusPath]: [done] });
    merged({ videos: { [RESPONSE]: { videoUrl: '/media/answer-1.mp4', posterUrl: '/media/answer-1.jpg' }, [RESPONSE_2]: { videoUrl: '/media/answer-2.mp4' } } });
    const [first, failed] = await screen.findAllByTestId('merged-response');
    // The answer with lines has its player and the replay hint; the failed one has none.
    const video = within(first!).getByTestId('review-video') as HTMLVideoElement;
    expect(video.getAttribute('src')).toBe('/media/answer-1.mp4');
    expect(video.getAttribute('poster')).toBe('/media/answer-1.jpg');
    expect(within(first!).getByTestId('replay-hint').textContent).toContain('Alt+R');
    expect(within(failed!).queryByTestId('review-video')).toBeNull();
    // A line's time moves the player to the line's start.
    const seeks = within(first!).getAllByTestId('cue-seek');
    expect(seeks).toHaveLength(2);
    fireEvent.click(seeks[1]!);
    expect(video.currentTime).toBe(CUES[1]!.start);
  });

  it('has no player without the answers\' videos', async () => {
    stubApi({ [startPath]: [{ status: 202, body: { jobId: JOB } }], [jobPath(JOB)]: [ok(job(JOB, 'ready'))], [statusPath]: [done] });
    merged();
    await screen.findAllByTestId('merged-response');
    expect(screen.queryByTestId('review-video')).toBeNull();
    expect(screen.queryAllByTestId('cue-seek')).toHaveLength(0);
  });

  it('times out after more than 5 consecutive failed reads of the job, and a retry starts a new job', async () => {
    const calls = stubApi({
      [startPath]: [{ status: 202, body: { jobId: JOB } }, { status: 202, body: { jobId: JOB_B } }],
      [jobPath(JOB)]: [failure(503, 'Unavailable')],
      [jobPath(JOB_B)]: [ok(job(JOB_B, 'ready'))],
      [`GET /api/testimonials/transcription-job/${JOB_B}/status`]: [done],
    });
    merged();
    await tick(0);
    await tick(4);
    expect(screen.queryByTestId('transcription-error')).toBeNull();
    expect(screen.getByText(/did not answer the last check/)).toBeTruthy();
    await tick(2);
    expect((await screen.findByTestId('transcription-error')).textContent).toContain('Transcription timeout. Please try again.');
    expect(calls.filter((c) => c.path === `/api/jobs/${JOB}`)).toHaveLength(6);
    expect(consoleError).toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await tick();
    expect(await screen.findAllByTestId('merged-response')).toHaveLength(2);
    expect(calls.filter((c) => c.path.endsWith('/transcribe-merged-responses'))).toHaveLength(2);
  });

  it('says the start failed, or the job failed (with its reason), in the words of the spec', async () => {
    stubApi({ [startPath]: [failure(500, 'boom')] });
    merged();
    expect((await screen.findByTestId('transcription-error')).textContent).toContain('Failed to start transcription. Please try again.');
    cleanup();
    vi.unstubAllGlobals();

    const error = { reason: 'transcription_failed' as const, params: {}, message: 'The speech could not be transcribed.' };
    stubApi({ [startPath]: [{ status: 202, body: { jobId: JOB } }], [jobPath(JOB)]: [ok(job(JOB, 'failed', { error }))] });
    merged();
    await tick();
    const alert = await screen.findByTestId('transcription-error');
    expect(alert.textContent).toContain('Transcription failed. Please try again.');
    expect(alert.textContent).toContain('The speech could not be transcribed.');
  });

  it('offers typing, without a retry, when no engine knows the language; an answer left to type says so in the person’s language (decision 167)', async () => {
    await i18n.changeLanguage('fr');
    const unavailable = { reason: 'transcription_unavailable' as const, params: {}, message: 'Automatic transcription is not available on this installation.' };
    stubApi({ [startPath]: [{ status: 202, body: { jobId: JOB } }], [jobPath(JOB)]: [ok(job(JOB, 'failed', { error: unavailable }))] });
    merged();
    await tick();
    const notice = await screen.findByTestId('transcription-not-set-up');
    expect(notice.textContent).toContain('depuis sa carte');
    expect(screen.queryByRole('button', { name: 'Réessayer' })).toBeNull();
    expect(screen.queryByTestId('transcription-error')).toBeNull();
    cleanup();
    vi.unstubAllGlobals();

    const typedOne: TResponseTranscriptions = [
      { responseId: RESPONSE, questionText: 'Qu’avez-vous aimé ?', orderPosition: 1, transcription: CUES, error: null },
      { responseId: RESPONSE_2, questionText: 'Nous recommanderiez-vous ?', orderPosition: 2, transcription: [], error: jobReasonMessage('transcription_type_it') },
    ];
    stubApi({
      [startPath]: [{ status: 202, body: { jobId: JOB } }],
      [jobPath(JOB)]: [ok(job(JOB, 'ready'))],
      [statusPath]: [ok({ status: 'done', merged_url: JSON.stringify(typedOne) })],
    });
    merged();
    await tick();
    await screen.findAllByTestId('merged-response');
    const why = screen.getByTestId('merged-response-error').textContent ?? '';
    expect(why).toContain('saisissez les sous-titres de cette réponse depuis sa carte');
    expect(why).not.toContain('Automatic transcription');
  });

  it('says the merged generation failed in the words of the spec', async () => {
    stubApi({ [startPath]: [{ status: 202, body: { jobId: JOB } }], [jobPath(JOB)]: [ok(job(JOB, 'ready'))], [statusPath]: [done], [generatePathMerged]: [failure(500, 'boom')] });
    const { onGenerationStarted } = merged();
    await tick();
    await screen.findAllByTestId('merged-response');
    fireEvent.click(button('generate-merged-subtitles'));
    expect((await screen.findByTestId('generate-error')).textContent).toContain(
      'Failed to generate merged video with all subtitles. Please try again.',
    );
    expect(onGenerationStarted).not.toHaveBeenCalled();
  });
});
