// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TTestimonialResponse } from '../../../../contract/api/testimonials.schema.js';
import i18n from '../../../i18n/i18n';
import { TrimDialog } from './trim-dialog';

await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * The trim editor (issue 31, decision 201) with the real slider, dialog, query client and translations
 * against a stand-in for the HTTP API shaped by the contract (trim.schema.ts): the keyboard's frame and
 * second nudges, the 1 s floor, the times shown, Save and Reset, a refusal in the person's language.
 */

const RESPONSE = '7b0c1c3e-4a57-4c1e-9d8e-2f1a6b7c8d90';
const answer = (over: Partial<TTestimonialResponse> = {}): TTestimonialResponse => ({
  id: RESPONSE,
  question: { id: '2b2b2b2b-2222-4222-8222-222222222222', text: 'What did you like most?' },
  video_url: 'http://app.test/files/a/answer.mp4?sig=x',
  modified_video_url: null,
  intro_generated: false,
  has_subtitles: false,
  short_video_url: null,
  short_video_url_original: null,
  orderPosition: 1,
  poster_url: null,
  duration_seconds: 10,
  trim_start: null,
  trim_end: null,
  ...over,
});

type Call = { method: string; path: string; body: unknown };
function stubApi(reply: { status: number; body: unknown }) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ method: init?.method ?? 'GET', path: String(input), body: init?.body ? JSON.parse(String(init.body)) : undefined });
    return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

function renderDialog(response: TTestimonialResponse) {
  const onSaved = vi.fn();
  const onOpenChange = vi.fn();
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <TrimDialog response={response} onOpenChange={onOpenChange} onSaved={onSaved} />
    </QueryClientProvider>,
  );
  return { onSaved, onOpenChange };
}

const now = (testId: string) => Number(screen.getByTestId(testId).getAttribute('aria-valuenow'));

beforeEach(async () => {
  await i18n.changeLanguage('en');
  // jsdom plays no media: pausing and playing do nothing here.
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('TrimDialog', () => {
  it('nudges a thumb by one frame with an arrow and by one second with Shift, never keeping less than 1 s', () => {
    renderDialog(answer());
    const start = screen.getByRole('slider', { name: 'Start of the kept part' });
    const end = screen.getByRole('slider', { name: 'End of the kept part' });
    expect([now('trim-start'), now('trim-end')]).toEqual([0, 10]);
    start.focus();
    fireEvent.keyDown(start, { key: 'ArrowRight' });
    expect(now('trim-start')).toBeCloseTo(1 / 30, 3);
    expect(start.getAttribute('aria-valuetext')).toBe('0:00.03');
    fireEvent.keyDown(start, { key: 'ArrowRight', shiftKey: true });
    expect(now('trim-start')).toBeCloseTo(1 + 1 / 30, 3);
    fireEvent.keyDown(start, { key: 'ArrowLeft' });
    expect(now('trim-start')).toBeCloseTo(1, 3);
    expect(screen.getByTestId('trim-start-time').textContent).toBe('0:01.00');
    fireEvent.keyDown(end, { key: 'ArrowLeft', shiftKey: true });
    fireEvent.keyDown(end, { key: 'ArrowLeft', shiftKey: true });
    expect(now('trim-end')).toBeCloseTo(8, 3);
    expect(screen.getByTestId('trim-kept-time').textContent).toBe('0:07.00');
    // The start cannot come closer than 1 s to the end, nor the end to the start.
    fireEvent.keyDown(start, { key: 'End' });
    expect(now('trim-start')).toBeCloseTo(7, 3);
    fireEvent.keyDown(start, { key: 'ArrowRight' });
    expect(now('trim-start')).toBeCloseTo(7, 3);
    fireEvent.keyDown(end, { key: 'Home' });
    expect(now('trim-end')).toBeCloseTo(8, 3);
    fireEvent.keyDown(start, { key: 'Home' });
    fireEvent.keyDown(end, { key: 'End' });
    expect([now('trim-start'), now('trim-end')]).toEqual([0, 10]);
  });

  it('saves the kept part, then reads the testimonial again and closes; Reset goes back to the whole answer', async () => {
    const calls = stubApi({ status: 200, body: { id: RESPONSE, trim_start: 2, trim_end: 9 } });
    const { onSaved, onOpenChange } = renderDialog(answer({ trim_start: 2, trim_end: 9, modified_video_url: 'http://app.test/files/a/intro.mp4?sig=y' }));
    expect([now('trim-start'), now('trim-end')]).toEqual([2, 9]);
    // Videos made before keep their length: the dialog says to make them again.
    expect(screen.getByTestId('trim-remake').textContent).toMatch(/make the intro, subtitles, merge and exports again/);
    expect((screen.getByTestId('trim-save') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId('trim-reset'));
    expect([now('trim-start'), now('trim-end')]).toEqual([0, 10]);
    const start = screen.getByTestId('trim-start');
    fireEvent.keyDown(start, { key: 'ArrowRight', shiftKey: true });
    fireEvent.keyDown(start, { key: 'ArrowRight' });
    fireEvent.click(screen.getByTestId('trim-save'));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'PUT', path: expect.stringContaining(`/api/testimonials/response/${RESPONSE}/trim`) });
    const body = calls[0]!.body as { start: number; end: number };
    expect(body.start).toBeCloseTo(1 + 1 / 30, 3);
    expect(body.end).toBe(10);
  });

  it("shows the server's refusal in the person's language and stays open", async () => {
    await i18n.changeLanguage('fr');
    stubApi({ status: 409, body: { error: 'Refused.', code: 'conflict', reason: 'consent_withdrawn', params: { date: '05/03/2026' } } });
    const { onSaved, onOpenChange } = renderDialog(answer());
    expect(screen.getByRole('dialog').textContent).toMatch(/Couper la réponse 1/);
    fireEvent.keyDown(screen.getByRole('slider', { name: 'Fin de la partie conservée' }), { key: 'ArrowLeft', shiftKey: true });
    fireEvent.click(screen.getByTestId('trim-save'));
    expect((await screen.findByTestId('trim-error')).textContent).toMatch(/05\/03\/2026/);
    expect(onSaved).not.toHaveBeenCalled();
    expect(onOpenChange).not.toHaveBeenCalledWith(false);
  });
});
