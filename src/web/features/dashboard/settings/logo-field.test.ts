// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TJob, TJobPhase } from '../../../../contract/api/jobs.schema.js';
import type { TGetSettingsResponse } from '../../../../contract/api/settings.schema.js';
import { DEFAULT_VIDEO_STYLE } from '../../../../contract/constants.js';
import i18n from '../../../i18n/i18n';
import { passTime, testJob } from '../jobs/job-fixtures';
import { JOB_POLL_MS } from '../jobs/use-job';
import { VideoStylePanel } from './video-style-panel';

// The unit-test config compiles JSX with esbuild's classic runtime: the components find React as a
// global, set before any component module is evaluated (vi.hoisted runs above the imports).
await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * The logo upload from the settings screen (issue 16): the upload answers at once with the file's
 * signed address and a `logo` job; the screen shows the file 'Preparing…' while a worker makes it the
 * stored logo, then the stored logo (the settings read again), or the job's translated reason and the
 * way to pick another file. The real panel, hook, query client and translations, against a stand-in
 * server (the only part replaced).
 */

const JOB = '3f9a2b1c-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const COMPANY = '1e2d3c4b-5a69-4877-8a9b-0c1d2e3f4a5b';
const SOURCE = `http://app.test/files/companies/${COMPANY}/logo/upload-0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d.png?exp=4102444800&sig=s`;
const STORED = `http://app.test/api/public/logo/${COMPANY}?v=0123456789`;
const BEFORE = `http://app.test/api/public/logo/${COMPANY}?v=9876543210`;

const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const logoFile = () => new File([PNG_BYTES], 'brand.png', { type: 'image/png' });

const logoJob = (phase: TJobPhase, overrides: Partial<TJob> = {}) =>
  testJob(JOB, phase, { kind: 'logo', testimonialId: null, params: { sourceKey: 'companies/x/logo/upload.png' }, ...overrides });

const settings = (logoUrl: string | null): TGetSettingsResponse => ({ ...DEFAULT_VIDEO_STYLE, logo_url: logoUrl ?? '', company_logo_url: logoUrl, logo_luminance: null, logo_aspect: null });

type Reply = { status: number; body: unknown };
const ok = (body: unknown): Reply => ({ status: 200, body });

/** A stand-in server: each route answers its queued replies in turn (the last one repeats); calls are recorded. */
function stubServer(routes: Record<string, Reply[]>, bodies: Record<string, unknown[]> = {}) {
  const calls: string[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const call = `${init?.method ?? 'GET'} ${String(input)}`;
    calls.push(call);
    if (typeof init?.body === 'string') (bodies[call] ??= []).push(JSON.parse(init.body));
    const replies = routes[call];
    if (!replies) throw new Error(`unexpected call ${call}`);
    const { status, body } = replies.length > 1 ? replies.shift()! : replies[0]!;
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

let client: QueryClient;

function renderPanel(saved: TGetSettingsResponse) {
  client.setQueryData(['settings', 'style'], saved);
  return render(
    createElement(
      QueryClientProvider,
      { client },
      createElement(VideoStylePanel, { settings: saved, question: 'How did we help?', onDirtyChange: () => undefined }),
    ),
  );
}

const chooseFile = async () => {
  await act(async () => {
    fireEvent.change(screen.getByTestId('logo-input'), { target: { files: [logoFile()] } });
  });
};

const pass = (ms: number) => passTime(ms, JOB_POLL_MS / 2);

beforeAll(async () => {
  await i18n.changeLanguage('en');
  // The client reads error replies with a schema it imports on first use: loaded before the clock is faked.
  await import('../../../../contract/errors.js');
});
beforeEach(() => {
  // jsdom has no canvas (the preview then measures text without one); it would log that it has none.
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
});
afterEach(async () => {
  cleanup();
  client.clear();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

describe('the logo field follows its job', () => {
  it('shows the uploaded file as preparing, then the stored logo once the job is ready', async () => {
    const calls = stubServer({
      'POST /api/auth/upload-logo': [ok({ logo_url: SOURCE, jobId: JOB })],
      [`GET /api/jobs/${JOB}`]: [ok(logoJob('queued')), ok(logoJob('running')), ok(logoJob('ready'))],
      'GET /api/auth/settings': [ok(settings(STORED))],
    });
    renderPanel(settings(null));
    expect(screen.queryByTestId('logo-current')).toBeNull();

    await chooseFile();
    await pass(10);
    const shown = screen.getByTestId('logo-current');
    expect(shown.getAttribute('src')).toBe(SOURCE);
    expect(shown.getAttribute('data-preparing')).toBe('true');
    expect(screen.getByTestId('logo-job').textContent).toContain('Preparing your logo…');

    await pass(JOB_POLL_MS * 3);
    expect(screen.getByTestId('logo-current').getAttribute('src')).toBe(STORED);
    expect(screen.getByTestId('logo-current').getAttribute('data-preparing')).toBeNull();
    expect(screen.queryByTestId('logo-job')).toBeNull();
    // The settings were read again once, and the job is read no more.
    const jobReads = calls.filter((c) => c === `GET /api/jobs/${JOB}`).length;
    expect(calls.filter((c) => c === 'GET /api/auth/settings')).toHaveLength(1);
    await pass(JOB_POLL_MS * 3);
    expect(calls.filter((c) => c === `GET /api/jobs/${JOB}`)).toHaveLength(jobReads);
    // A logo is uploaded to be seen (issue 27): the switch turned on with it, which is the one change to save.
    expect(screen.getByTestId('show-logo-switch').getAttribute('aria-checked')).toBe('true');
    expect((screen.getByTestId('style-save') as HTMLButtonElement).disabled).toBe(false);
  });

  it('leaves the switch as it was when the company had turned it on already', async () => {
    stubServer({
      'POST /api/auth/upload-logo': [ok({ logo_url: SOURCE, jobId: JOB })],
      [`GET /api/jobs/${JOB}`]: [ok(logoJob('ready'))],
      'GET /api/auth/settings': [ok({ ...settings(STORED), show_logo_in_videos: true })],
    });
    renderPanel({ ...settings(BEFORE), show_logo_in_videos: true });
    await chooseFile();
    await pass(JOB_POLL_MS * 3);
    expect(screen.getByTestId('logo-current').getAttribute('src')).toBe(STORED);
    expect(screen.getByTestId('show-logo-switch').getAttribute('aria-checked')).toBe('true');
    // Nothing to save: the stored logo and the switch are what the form holds.
    expect((screen.getByTestId('style-save') as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows a damaged picture’s reason in the person’s language, keeps the logo before, and lets them pick another file', async () => {
    await i18n.changeLanguage('fr');
    const damaged = { reason: 'logo_damaged' as const, params: {}, message: 'This image is damaged or incomplete. Please select another file.' };
    stubServer({
      'POST /api/auth/upload-logo': [ok({ logo_url: SOURCE, jobId: JOB })],
      [`GET /api/jobs/${JOB}`]: [ok(logoJob('running')), ok(logoJob('failed', { error: damaged }))],
      'GET /api/auth/settings': [ok(settings(BEFORE))],
    });
    renderPanel(settings(BEFORE));
    expect(screen.getByTestId('logo-current').getAttribute('src')).toBe(BEFORE);

    await chooseFile();
    await pass(10);
    expect(screen.getByTestId('logo-current').getAttribute('src')).toBe(SOURCE);
    await pass(JOB_POLL_MS * 2);
    const failure = screen.getByTestId('logo-job');
    expect(failure.getAttribute('data-phase')).toBe('failed');
    expect(failure.getAttribute('role')).toBe('alert');
    expect(failure.textContent).toContain('Cette image est endommagée ou incomplète. Veuillez choisir un autre fichier.');
    expect(screen.getByTestId('logo-current').getAttribute('src')).toBe(BEFORE);
    expect(screen.getByTestId('logo-current').getAttribute('data-preparing')).toBeNull();
    expect((screen.getByTestId('logo-choose') as HTMLButtonElement).disabled).toBe(false);
    // A failed logo turns nothing on.
    expect(screen.getByTestId('show-logo-switch').getAttribute('aria-checked')).toBe('false');
    expect((screen.getByTestId('style-save') as HTMLButtonElement).disabled).toBe(true);
  });
});

/**
 * Issue 28 (decision 177): the settings read while a logo is prepared show the upload and its job. The
 * screen opened then shows the logo preparing, follows its job, and a save meanwhile keeps the logo
 * (a save sending `logo_url: ''` would remove it and cancel its job on the server).
 */
describe('the screen opened while a logo is being prepared', () => {
  const pending: TGetSettingsResponse = { ...settings(null), logo_url: SOURCE, logo_job_id: JOB };

  it('shows the upload preparing, keeps it in a save meanwhile, then shows the stored logo once the job is ready', async () => {
    const bodies: Record<string, unknown[]> = {};
    const calls = stubServer(
      {
        [`GET /api/jobs/${JOB}`]: [ok(logoJob('queued')), ok(logoJob('running')), ok(logoJob('ready'))],
        'POST /api/auth/update-settings': [ok({ ...pending, show_logo_in_videos: true })],
        'GET /api/auth/settings': [ok({ ...settings(STORED), show_logo_in_videos: true })],
      },
      bodies,
    );
    renderPanel(pending);
    await pass(10);
    const shown = screen.getByTestId('logo-current');
    expect(shown.getAttribute('src')).toBe(SOURCE);
    expect(shown.getAttribute('data-preparing')).toBe('true');
    expect(screen.getByTestId('logo-job').textContent).toContain('Preparing your logo…');

    await act(async () => {
      fireEvent.click(screen.getByTestId('show-logo-switch'));
    });
    await act(async () => {
      fireEvent.click(screen.getByTestId('style-save'));
    });
    const sent = bodies['POST /api/auth/update-settings'];
    expect(sent).toHaveLength(1);
    expect(sent![0]).toMatchObject({ logo_url: SOURCE, show_logo_in_videos: true });
    expect(screen.getByTestId('logo-current').getAttribute('src')).toBe(SOURCE);

    await pass(JOB_POLL_MS * 3);
    expect(screen.getByTestId('logo-current').getAttribute('src')).toBe(STORED);
    expect(screen.getByTestId('logo-current').getAttribute('data-preparing')).toBeNull();
    expect(screen.queryByTestId('logo-job')).toBeNull();
    expect(calls.filter((c) => c === 'GET /api/auth/settings')).toHaveLength(1);
    // The stored logo is what the form holds: nothing left to save.
    expect((screen.getByTestId('style-save') as HTMLButtonElement).disabled).toBe(true);
  });

  it('removes it only when the company removes it', async () => {
    const bodies: Record<string, unknown[]> = {};
    stubServer(
      {
        [`GET /api/jobs/${JOB}`]: [ok(logoJob('queued')), ok(logoJob('cancelled'))],
        'POST /api/auth/update-settings': [ok(settings(null))],
        'GET /api/auth/settings': [ok(settings(null))],
      },
      bodies,
    );
    renderPanel(pending);
    await pass(10);
    await act(async () => {
      fireEvent.click(screen.getByTestId('logo-remove'));
    });
    await act(async () => {
      fireEvent.click(screen.getByTestId('style-save'));
    });
    expect(bodies['POST /api/auth/update-settings']![0]).toMatchObject({ logo_url: '' });
    await pass(JOB_POLL_MS * 3);
    expect(screen.queryByTestId('logo-current')).toBeNull();
    expect((screen.getByTestId('style-save') as HTMLButtonElement).disabled).toBe(true);
  });
});
