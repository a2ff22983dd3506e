// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TPublicCollectionLink } from '../../../../contract/api/collection.schema.js';
import { loadRecordingMessages, RecordingI18nProvider } from '../../../i18n/recording-i18n';
import CollectPage from './collect-page';

// The unit-test config compiles JSX with esbuild's classic runtime: React as a global, set before any module runs.
await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * A reload at the e-mail code step of a collection link (issue 30) comes back to the same request's
 * code step: the real page, its translations and the browser's sessionStorage, against a stand-in for
 * the HTTP API (the only part replaced) that counts the requests started.
 */
const SLUG = 'bakery-counter';
const LINK: TPublicCollectionLink = {
  name: 'Bakery counter',
  language: 'english',
  background_color: '#1f2937',
  gift: null,
  email_code_required: true,
  company: { name: 'Bright Bakery', logo_url: null },
  questions: [{ id: '6f1c2e3d-4b5a-4c6d-8e7f-0a1b2c3d4e5f', text: 'What did you like?', order_position: 1 } as TPublicCollectionLink['questions'][number]],
  powered_by: true,
};

let starts = 0;
beforeEach(() => {
  starts = 0;
  window.sessionStorage.clear();
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (url.endsWith(`/collect/${SLUG}`) && init?.method === 'POST') {
      starts += 1;
      return json({ token: `tok_started_request_${starts}`, code_required: true });
    }
    if (url.includes(SLUG)) return json(LINK);
    return json({ error: 'Not found', code: 'not_found' }, 404);
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function renderPage(onStarted = vi.fn()) {
  const messages = await loadRecordingMessages('en');
  render(
    <RecordingI18nProvider initial={{ language: 'en', messages }}>
      <CollectPage slug={SLUG} onStarted={onStarted} />
    </RecordingI18nProvider>,
  );
  return onStarted;
}

describe('a collection link reloaded at the code step', () => {
  it('comes back to the code step of the request already started, without starting another', async () => {
    await renderPage();
    fireEvent.change(await screen.findByLabelText('Your name'), { target: { value: 'Camille Martin' } });
    fireEvent.change(screen.getByLabelText('Your e-mail'), { target: { value: 'camille@example.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByTestId('collect-code')).toBeTruthy();
    expect(starts).toBe(1);

    // The reload: a new page in the same tab.
    cleanup();
    await renderPage();
    expect(await screen.findByTestId('collect-code')).toBeTruthy();
    expect(screen.getByTestId('collect-code').textContent).toContain('camille@example.test');
    expect(starts).toBe(1);
  });

  it('forgets it when the customer starts again, so the next reload shows the details', async () => {
    window.sessionStorage.setItem(`vouchreel.collect.${SLUG}`, JSON.stringify({ token: 'tok_started_request_9', email: 'old@example.test' }));
    await renderPage();
    fireEvent.click(await screen.findByTestId('code-start-again'));
    expect(await screen.findByLabelText('Your name')).toBeTruthy();
    cleanup();
    await renderPage();
    expect(await screen.findByLabelText('Your name')).toBeTruthy();
    expect(screen.queryByTestId('collect-code')).toBeNull();
  });
});
