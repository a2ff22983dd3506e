// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorReasonMessage, type TErrorParams, type TErrorReason } from '../../../contract/error-reasons.js';
import type { TApiError } from '../../../contract/errors.js';
import type { TLanguage } from '../../../contract/constants.js';
import { loadRecordingMessages, RecordingI18nProvider } from '../../i18n/recording-i18n';
import { CompleteStep } from './components/complete-step';
import { PublicCallError } from './public-api';
import { RecordingPage } from './recording-page';

// The unit-test config compiles JSX with esbuild's classic runtime: the components find React as a
// global, set before any component module is evaluated (vi.hoisted runs above the imports).
await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * The customer's page when the server refuses the link or the answers: the real page (its own entry
 * has no router: it gets the link's token as a prop),
 * translations and storage fallback, against a stand-in for the HTTP API (the only part replaced)
 * that answers in the contract's error shape, as the server does (src/server/http/error-reasons.test.ts
 * checks the server's side). The page speaks the request's language, from the reason key, and never
 * shows the server's English text.
 */

const TOKEN = 'tok_abcdefghijklmnop';

/** The server's answer to a refusal: the English text of the reason, the code, the reason and its parameters. */
function refusalBody(code: TApiError['code'], reason: TErrorReason, params: TErrorParams = {}): TApiError {
  return { error: errorReasonMessage(reason, params), code, reason, params };
}

function stubValidate(status: number, body: unknown) {
  const calls: string[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    calls.push(String(input));
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
      status,
      headers: { 'content-type': typeof body === 'string' ? 'text/html' : 'application/json' },
    });
  });
  return calls;
}

/** The language the page starts in (the browser's), before the request's is known. */
let browserLanguage: TLanguage = 'en';

/** `ui` under the page's own translator, in the browser's language (as recording.tsx renders it). */
async function renderInBrowserLanguage(ui: ReactNode) {
  const messages = await loadRecordingMessages(browserLanguage);
  render(<RecordingI18nProvider initial={{ language: browserLanguage, messages }}>{ui}</RecordingI18nProvider>);
}

async function renderPage() {
  await renderInBrowserLanguage(<RecordingPage token={TOKEN} />);
}

beforeEach(async () => {
  localStorage.clear();
  document.cookie = 'i18next=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  // jsdom has no scrolling; the page scrolls to the top on each step.
  vi.stubGlobal('scrollTo', () => undefined);
  browserLanguage = 'en';
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('a refused link, in the request language', () => {
  it('shows an expired link of a French request in French, in an English browser', async () => {
    const body = refusalBody('invalid_data', 'link_expired', { company: 'Fleurs & Co', language: 'fr' });
    const calls = stubValidate(410, body);
    await renderPage();
    const card = await screen.findByTestId('load-error');
    expect(calls).toEqual([`/api/public/testimonial/validate/${TOKEN}`]);
    expect(card.getAttribute('data-status')).toBe('410');
    expect(card.getAttribute('data-reason')).toBe('link_expired');
    expect(card.textContent).toContain('Ce lien ne peut pas être ouvert');
    expect(screen.getByRole('alert').textContent).toBe('Ce lien a expiré. Demandez-en un nouveau à Fleurs & Co.');
    expect(card.textContent).not.toContain(body.error);
    expect(document.documentElement.lang).toBe('fr');
    // Nothing to try again: an expired link stays expired.
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('shows an English request already sent in English, in a French browser', async () => {
    browserLanguage = 'fr';
    stubValidate(409, refusalBody('conflict', 'already_sent', { language: 'en' }));
    await renderPage();
    const card = await screen.findByTestId('load-error');
    expect(card.textContent).toContain('Already sent');
    expect(card.textContent).toContain('This testimonial has already been recorded and sent. Thank you!');
  });

  it('shows a bad link in the browser language (no request is known), from the reason and not the text', async () => {
    browserLanguage = 'fr';
    // The English text differs on purpose: the page shows its translation of the reason.
    stubValidate(404, { ...refusalBody('not_found', 'link_invalid'), error: 'Some other English text.' });
    await renderPage();
    const card = await screen.findByTestId('load-error');
    expect(card.getAttribute('data-reason')).toBe('link_invalid');
    expect(screen.getByRole('alert').textContent).toBe("Ce lien de témoignage n'est pas valide. Vérifiez le lien reçu par e-mail.");
    expect(card.textContent).not.toContain('English');
  });

  it('falls back on the status for a refusal without a reason (a proxy, an older server)', async () => {
    browserLanguage = 'fr';
    stubValidate(410, '<html>Gone</html>');
    await renderPage();
    await screen.findByTestId('load-error');
    expect(screen.getByRole('alert').textContent).toBe('Ce lien a expiré. Demandez-en un nouveau.');
  });

  it('offers a retry when too many attempts were made, in the browser language', async () => {
    stubValidate(429, { ...refusalBody('rate_limited', 'rate_limited'), errorKey: 'rateLimited' });
    await renderPage();
    await screen.findByTestId('load-error');
    expect(screen.getByRole('alert').textContent).toBe('Too many attempts. Please wait a few minutes and try again.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

describe('a valid link', () => {
  it('switches to the request language with one validate call', async () => {
    const calls = stubValidate(200, {
      testimonial: {
        id: '5c4d3e2f-1a0b-4c9d-8e7f-6a5b4c3d2e1f',
        background_color: '#000000',
        customer_name: 'Camille',
        customer_position: null,
        customer_email: 'camille@example.test',
        language: 'french',
        gift: null,
        company: { name: 'Fleurs & Co', logo_url: null },
      },
      questions: [{ id: '2b2b2b2b-2222-4222-8222-222222222222', text: 'Qu’est-ce qui vous a plu ?' }],
      powered_by: false,
    });
    await renderPage();
    await screen.findByTestId('consent');
    expect(document.documentElement.lang).toBe('fr');
    expect(calls).toHaveLength(1);
  });

  /** A valid English link whose answer says whether the operator wants the 'powered by' line. */
  const validLink = (poweredBy: boolean) => ({
    testimonial: {
      id: '5c4d3e2f-1a0b-4c9d-8e7f-6a5b4c3d2e1f',
      background_color: '#000000',
      customer_name: 'Sam',
      customer_position: null,
      customer_email: 'sam@example.test',
      language: 'english',
      gift: null,
      company: { name: 'Fleurs & Co', logo_url: null },
    },
    questions: [{ id: '2b2b2b2b-2222-4222-8222-222222222222', text: 'What did you like?' }],
    powered_by: poweredBy,
  });

  it('shows no promotion of ours by default: the page belongs to the business (issue 27)', async () => {
    stubValidate(200, validLink(false));
    await renderPage();
    await screen.findByTestId('consent');
    expect(document.querySelector('footer')).toBeNull();
    expect(document.body.textContent).not.toMatch(/Video testimonials by|free account/i);
  });

  it('shows a small powered-by line when the operator turned it on', async () => {
    stubValidate(200, validLink(true));
    await renderPage();
    await screen.findByTestId('consent');
    expect(document.querySelector('footer')?.textContent).toMatch(/^Video testimonials by /);
  });
});

describe('refused answers, in the request language', () => {
  /** The page's step 3 after the server refused the upload with this answer. */
  async function refusedUpload(error: PublicCallError) {
    await renderInBrowserLanguage(
      <CompleteStep
        company="Fleurs & Co"
        answerCount={2}
        state={{ phase: 'failed', refusal: { status: error.status, reason: error.reason, params: error.params } }}
        onRetryNow={() => undefined}
        onRecordAgain={() => undefined}
      />,
    );
    return screen.getByTestId('upload-error');
  }

  it('names the answer that is too large, without sound or too long, in French', async () => {
    browserLanguage = 'fr';
    const cases: [number, TApiError, string][] = [
      [413, refusalBody('payload_too_large', 'answer_too_large', { answer: 2, megabytes: 60 }), 'La réponse 2 dépasse 60 Mo.'],
      [400, refusalBody('invalid_format', 'answer_no_sound', { answer: 1 }), "La réponse 1 n'a pas de son."],
      [400, refusalBody('invalid_format', 'answer_too_long', { answer: 2, seconds: 20 }), 'La réponse 2 dure plus de 20 secondes ; une réponse est limitée à 20 secondes.'],
      [413, refusalBody('payload_too_large', 'too_many_files'), "L'envoi contient trop de fichiers."],
      [415, refusalBody('unsupported_media_type', 'multipart_expected'), 'Vos enregistrements ne sont pas arrivés sous la forme attendue.'],
    ];
    for (const [status, body, expected] of cases) {
      const alert = await refusedUpload(new PublicCallError(status, body));
      expect(alert.textContent).toContain(expected);
      expect(alert.textContent).not.toContain(body.error);
      cleanup();
    }
  });

  it('leads back to the refused answer, to replace it (a chosen video as well as a recording)', async () => {
    browserLanguage = 'fr';
    const alert = await refusedUpload(new PublicCallError(400, refusalBody('invalid_format', 'answer_no_sound', { answer: 2 })));
    expect(alert.textContent).toContain("La réponse 2 n'a pas de son.");
    expect(screen.getByTestId('record-again').textContent).toBe('Remplacer la réponse 2');
    cleanup();
    browserLanguage = 'en';
    await refusedUpload(new PublicCallError(409, refusalBody('conflict', 'already_sent')));
    expect(screen.getByTestId('record-again').textContent).toBe('Record my answers again');
  });

  it('tells a refusal without a reason by its status', async () => {
    browserLanguage = 'fr';
    expect((await refusedUpload(new PublicCallError(413, '<html>Request Entity Too Large</html>'))).textContent).toContain(
      'Vos enregistrements dépassent la taille que nous acceptons.',
    );
    cleanup();
    expect((await refusedUpload(new PublicCallError(400, { error: 'Bad thing', code: 'invalid_data' }))).textContent).not.toContain('Bad thing');
  });
});
