// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TGetSettingsResponse } from '../../../../contract/api/settings.schema.js';
import { DEFAULT_VIDEO_STYLE, END_CARD_LIMITS } from '../../../../contract/constants.js';
import i18n from '../../../i18n/i18n';
import { VideoStylePanel } from './video-style-panel';

await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * The lower-third and end card fields of the video settings (issue 31), in the real panel with the real
 * translations, against a stand-in for the HTTP API: switches, the two texts with their limits and
 * messages in both languages, the body saved, and the preview following them.
 */

const SETTINGS: TGetSettingsResponse = {
  ...DEFAULT_VIDEO_STYLE,
  logo_url: '',
  company_logo_url: null,
  logo_plate: 'auto',
  logo_luminance: null,
  logo_aspect: null,
};

function stubApi() {
  const calls: { method: string; path: string; body: Record<string, unknown> }[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    calls.push({ method: init?.method ?? 'GET', path: String(input), body });
    return new Response(JSON.stringify({ ...SETTINGS, ...body }), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

function renderPanel() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <VideoStylePanel settings={SETTINGS} question="Why us?" onDirtyChange={() => undefined} />
    </QueryClientProvider>,
  );
}

describe('lower-third and end card settings (issue 31)', () => {
  beforeEach(async () => {
    // jsdom has no canvas: the preview measures with its average glyph width, as elsewhere in these tests.
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
    await i18n.changeLanguage('en');
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('turns the lower-third and the end card on, shows them in the preview, and saves the texts', async () => {
    const calls = stubApi();
    renderPanel();
    const lowerThird = screen.getByRole('switch', { name: 'Name and title on each answer' });
    expect(lowerThird.getAttribute('aria-checked')).toBe('false');
    expect(screen.getByTestId('preview-lower-third').getAttribute('data-on')).toBe('false');
    fireEvent.click(lowerThird);
    expect(lowerThird.getAttribute('aria-checked')).toBe('true');
    expect(screen.getByTestId('preview-lower-third').getAttribute('data-on')).toBe('true');
    expect(within(screen.getByTestId('preview-lower-third')).getByText('Jane Cooper')).toBeTruthy();
    // The switch puts the preview on the lower-third.
    expect(screen.getByRole('button', { name: 'Name' }).getAttribute('aria-pressed')).toBe('true');

    // The end card's fields appear once it is on; empty, it says it is left out.
    expect(screen.queryByLabelText(/Call to action/)).toBeNull();
    fireEvent.click(screen.getByRole('switch', { name: 'End card' }));
    expect(screen.getByRole('button', { name: 'End' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText(/an empty end card is left out/)).toBeTruthy();
    expect(screen.getByTestId('preview-end-card').getAttribute('data-on')).toBe('false');
    fireEvent.change(screen.getByLabelText(/Call to action/), { target: { value: 'Book a call' } });
    fireEvent.change(screen.getByLabelText(/Address/), { target: { value: 'acme.com' } });
    expect(screen.queryByText(/an empty end card is left out/)).toBeNull();
    expect(screen.getByTestId('preview-end-card').getAttribute('data-on')).toBe('true');
    expect(screen.getAllByTestId('preview-end-card-line').map((line) => line.textContent)).toEqual(['Book a call', 'acme.com']);
    expect(screen.getByText(`11/${END_CARD_LIMITS.text}`)).toBeTruthy();

    fireEvent.click(screen.getByTestId('style-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({ lower_third: true, end_card: true, end_card_text: 'Book a call', end_card_address: 'acme.com' });
  });

  it.each([
    ['en', `The call to action must be at most ${END_CARD_LIMITS.text} characters`, `The address must be at most ${END_CARD_LIMITS.address} characters`],
    ['fr', `L’appel à l’action doit faire au plus ${END_CARD_LIMITS.text} caractères`, `L’adresse doit faire au plus ${END_CARD_LIMITS.address} caractères`],
  ])('refuses texts over their limits with a message in %s, the focus on the first, nothing sent', async (language, textMessage, addressMessage) => {
    await i18n.changeLanguage(language);
    const calls = stubApi();
    renderPanel();
    fireEvent.click(screen.getByTestId('end-card'));
    const text = screen.getByTestId('end-card-text');
    const address = screen.getByTestId('end-card-address');
    fireEvent.change(text, { target: { value: 'x'.repeat(END_CARD_LIMITS.text + 1) } });
    fireEvent.change(address, { target: { value: 'y'.repeat(END_CARD_LIMITS.address + 1) } });
    fireEvent.click(screen.getByTestId('style-save'));
    expect(await screen.findByText(textMessage)).toBeTruthy();
    expect(screen.getByText(addressMessage)).toBeTruthy();
    expect(text.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(text);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    // Spaces around the text are not counted against it (the server trims them too).
    fireEvent.change(text, { target: { value: `  ${'x'.repeat(END_CARD_LIMITS.text)}  ` } });
    expect(screen.queryByText(textMessage)).toBeNull();
  });
});
