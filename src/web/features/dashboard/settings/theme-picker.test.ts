// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TGetSettingsResponse } from '../../../../contract/api/settings.schema.js';
import { DEFAULT_VIDEO_STYLE } from '../../../../contract/constants.js';
import { VIDEO_THEMES } from '../../../../contract/video-themes.js';
import i18n from '../../../i18n/i18n';
import { VideoStylePanel } from './video-style-panel';

// The unit-test config compiles JSX with esbuild's classic runtime: the components find React as a
// global, set before any component module is evaluated (vi.hoisted runs above the imports).
await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * The ready-made themes of the settings screen (issue 17): a radio group of four swatches above the
 * fields; picking one fills the style fields (never the logo's), the preview follows at once, the
 * unsaved-changes bar shows as for any edit, and the theme whose values all match shows as picked. The
 * real panel, query client and translations, against a stand-in server (the only part replaced).
 */

const COMPANY = '1e2d3c4b-5a69-4877-8a9b-0c1d2e3f4a5b';
const LOGO = `http://app.test/api/public/logo/${COMPANY}?v=0123456789`;

/** A company's own style (no theme), with its logo shown in videos. */
const CUSTOM: TGetSettingsResponse = {
  ...DEFAULT_VIDEO_STYLE,
  logo_luminance: null,
  logo_aspect: null,
  font_style_question: 'Impact',
  font_size_question: 44,
  font_color_question: '#ffcc00',
  background_color: '#1e3a8a',
  font_style_subtitle: 'Arial',
  font_size_subtitle: 24,
  logo_url: LOGO,
  show_logo_in_videos: true,
  company_logo_url: LOGO,
};

type Reply = { status: number; body: unknown };

/** A stand-in server: each route answers with its reply; request bodies are recorded. */
function stubServer(routes: Record<string, (body: unknown) => Reply>) {
  const bodies: Record<string, unknown[]> = {};
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const call = `${init?.method ?? 'GET'} ${String(input)}`;
    const route = routes[call];
    if (!route) throw new Error(`unexpected call ${call}`);
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    (bodies[call] ??= []).push(body);
    const { status, body: answer } = route(body);
    return new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } });
  });
  return bodies;
}

let client: QueryClient;

function renderPanel(saved: TGetSettingsResponse) {
  client.setQueryData(['settings', 'style'], saved);
  const dirty: boolean[] = [];
  render(
    createElement(
      QueryClientProvider,
      { client },
      createElement(VideoStylePanel, { settings: saved, question: 'How did we help?', onDirtyChange: (d: boolean) => dirty.push(d) }),
    ),
  );
  return dirty;
}

const radios = () => within(screen.getByTestId('theme-picker')).getAllByRole('radio') as HTMLInputElement[];
const checkedTheme = () => radios().find((r) => r.checked)?.value ?? null;
const value = (testId: string) => (screen.getByTestId(testId) as HTMLInputElement | HTMLSelectElement).value;
const previewLine = () => screen.getAllByTestId('preview-question-line')[0]!;

beforeAll(async () => {
  await i18n.changeLanguage('en');
  await import('../../../../contract/errors.js');
});
beforeEach(() => {
  // jsdom has no canvas (the preview then measures text without one); it would log that it has none.
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
});
afterEach(async () => {
  cleanup();
  client.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

describe('ready-made themes', () => {
  it('are a labelled radio group of the four themes, named in the person’s language', async () => {
    await i18n.changeLanguage('fr');
    renderPanel(CUSTOM);
    const group = screen.getByRole('radiogroup', { name: 'Thème' });
    expect(group.getAttribute('aria-describedby')).toBe('settings-theme-title-description');
    expect(within(group).getAllByRole('radio').map((r) => r.getAttribute('value'))).toEqual(VIDEO_THEMES.map((t) => t.id));
    for (const name of ['Encre', 'Papier', 'Océan', 'Soleil']) expect(within(group).getByRole('radio', { name: new RegExp(name) })).toBeTruthy();
    // A style of its own matches no theme: none is picked.
    expect(checkedTheme()).toBeNull();
  });

  it('fill the style fields but not the logo’s, update the preview, and show the unsaved-changes bar', async () => {
    const bodies = stubServer({ 'POST /api/auth/update-settings': (body) => ({ status: 200, body: { ...(body as object), company_logo_url: LOGO, logo_luminance: null, logo_aspect: null } }) });
    const dirty = renderPanel(CUSTOM);
    expect((screen.getByTestId('style-save') as HTMLButtonElement).disabled).toBe(true);
    expect(previewLine().getAttribute('data-family')).toBe('Anton');

    const paper = VIDEO_THEMES.find((t) => t.id === 'paper')!;
    await act(async () => {
      fireEvent.click(screen.getByTestId('theme-paper-input'));
    });
    // The fields hold the theme's values…
    expect(value('question-font')).toBe('Georgia');
    expect(value('question-size')).toBe(String(paper.style.font_size_question));
    expect(value('question-color')).toBe(paper.style.font_color_question);
    expect(value('background-color')).toBe(paper.style.background_color);
    expect(value('subtitle-font')).toBe(paper.style.font_style_subtitle);
    expect(value('subtitle-size')).toBe(String(paper.style.font_size_subtitle));
    expect(screen.getByTestId('question-bold').getAttribute('aria-checked')).toBe('true');
    expect(screen.getByTestId('subtitle-bold').getAttribute('aria-checked')).toBe('true');
    // …the logo's stay as they were…
    expect(screen.getByTestId('show-logo-switch').getAttribute('aria-checked')).toBe('true');
    expect(screen.getByTestId('logo-current').getAttribute('src')).toBe(LOGO);
    // …the preview follows at once…
    expect(screen.getByTestId('preview-intro').querySelector('rect')!.getAttribute('fill')).toBe('#f5f1e8');
    expect(previewLine().getAttribute('data-family')).toBe('Gelasio');
    expect(previewLine().getAttribute('fill')).toBe('#1c2230');
    expect(screen.getByTestId('preview-logo').getAttribute('href')).toBe(LOGO);
    // …the theme shows as picked, and there is something to save.
    expect(checkedTheme()).toBe('paper');
    expect(screen.getByTestId('theme-paper').getAttribute('data-selected')).toBe('true');
    expect((screen.getByTestId('style-save') as HTMLButtonElement).disabled).toBe(false);
    expect(screen.getByTestId('style-save-status').textContent).toContain('Unsaved changes');
    expect(dirty.at(-1)).toBe(true);

    // One edit of a field makes it a style of its own again; picking the theme again matches.
    await act(async () => {
      fireEvent.change(screen.getByTestId('question-size'), { target: { value: '46' } });
    });
    expect(checkedTheme()).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByTestId('theme-paper-input'));
    });
    expect(value('question-size')).toBe('40');
    expect(checkedTheme()).toBe('paper');

    // Saved as any edit: the theme's style with the logo as it was.
    await act(async () => {
      fireEvent.click(screen.getByTestId('style-save'));
    });
    const sent = bodies['POST /api/auth/update-settings']!;
    expect(sent).toHaveLength(1);
    expect(sent[0]).toEqual({ ...paper.style, logo_url: LOGO, show_logo_in_videos: true, logo_plate: 'auto', lower_third: false, end_card: false, end_card_text: '', end_card_address: '', caption_style: 'line', prepare_drafts: false });
    expect((screen.getByTestId('style-save') as HTMLButtonElement).disabled).toBe(true);
    expect(checkedTheme()).toBe('paper');
  });

  it('shows the default theme as picked for a new company, and discarding a pick brings it back', async () => {
    renderPanel({ ...DEFAULT_VIDEO_STYLE, company_logo_url: null, logo_luminance: null, logo_aspect: null });
    expect(checkedTheme()).toBe('ink');
    expect(previewLine().getAttribute('data-family')).toBe('Fira Sans');
    await act(async () => {
      fireEvent.click(screen.getByTestId('theme-sunshine-input'));
    });
    expect(checkedTheme()).toBe('sunshine');
    expect(value('question-font')).toBe('Arial Black');
    expect(screen.getByTestId('question-bold').getAttribute('aria-checked')).toBe('false');
    expect(screen.getByTestId('show-logo-switch').getAttribute('aria-checked')).toBe('false');
    await act(async () => {
      fireEvent.click(screen.getByTestId('style-discard'));
    });
    expect(checkedTheme()).toBe('ink');
    expect((screen.getByTestId('style-save') as HTMLButtonElement).disabled).toBe(true);
  });
});
