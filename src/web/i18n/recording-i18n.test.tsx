// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import fr from './fr.json';
import recordingEn from './recording-messages.en';
import recordingFr from './recording-messages.fr';
import {
  detectRecordingLanguage,
  initRecordingI18n,
  INLINE_MESSAGES_ID,
  loadRecordingMessages,
  RecordingI18nProvider,
  useRecordingT,
} from './recording-i18n';
import type { RecordingT } from './recording-i18n';

// The unit-test config compiles JSX with esbuild's classic runtime: React as a global, set first.
await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * The recording page's translations without i18next (docs/decisions/139 and 140): the browser's
 * language found as the app's detector finds it, the messages the server wrote into the page read
 * when they are that language's, and a switch of language that loads the other chunk and is kept.
 */

function clearPreference() {
  document.cookie = 'i18next=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  localStorage.clear();
}

function inlineMessages(language: string, messages: unknown) {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = INLINE_MESSAGES_ID;
  element.dataset.language = language;
  element.textContent = JSON.stringify(messages);
  document.body.append(element);
}

beforeEach(clearPreference);
afterEach(() => {
  cleanup();
  document.getElementById(INLINE_MESSAGES_ID)?.remove();
  vi.restoreAllMocks();
  clearPreference();
});

describe('the language the page starts in', () => {
  it('is the kept cookie, then local storage, then the browser languages, else English', () => {
    const languages = vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['de-DE', 'fr-CA', 'en']);
    expect(detectRecordingLanguage()).toBe('fr');
    localStorage.setItem('i18nextLng', 'en-GB');
    expect(detectRecordingLanguage()).toBe('en');
    document.cookie = 'i18next=fr; path=/';
    expect(detectRecordingLanguage()).toBe('fr');
    clearPreference();
    languages.mockReturnValue(['de']);
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('de');
    expect(detectRecordingLanguage()).toBe('en');
  });

  it('starts with the messages written into the page, and keeps the language', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['fr-FR']);
    inlineMessages('fr', { recording: { title: 'Écrit dans la page' } });
    const started = await initRecordingI18n();
    expect(started.language).toBe('fr');
    expect(started.messages).toEqual({ recording: { title: 'Écrit dans la page' } });
    expect(document.documentElement.lang).toBe('fr');
    expect(document.cookie).toContain('i18next=fr');
    expect(localStorage.getItem('i18nextLng')).toBe('fr');
  });

  it("loads its own chunk when the page's messages are another language's", async () => {
    inlineMessages('en', { recording: { title: 'Written into the page' } });
    expect(await loadRecordingMessages('fr')).toEqual(recordingFr);
    expect(await loadRecordingMessages('en')).toEqual({ recording: { title: 'Written into the page' } });
    document.getElementById(INLINE_MESSAGES_ID)?.remove();
    expect(await loadRecordingMessages('en')).toEqual(recordingEn);
  });
});

describe('useRecordingT', () => {
  it("translates in the page's language and switches to the request's", async () => {
    let current: RecordingT | null = null;
    function Probe() {
      current = useRecordingT();
      return <p data-testid="text">{current.t('recording.info.nextQuestions', { count: 1 })}</p>;
    }
    render(
      <RecordingI18nProvider initial={{ language: 'en', messages: recordingEn }}>
        <Probe />
      </RecordingI18nProvider>,
    );
    expect(screen.getByTestId('text').textContent).toMatch(/^Answer 1 question,/);
    await act(async () => {
      await current?.changeLanguage('fr');
    });
    expect(current!.language).toBe('fr');
    expect(screen.getByTestId('text').textContent).toBe(fr.recording.info.nextQuestions_one.replace('{{count}}', '1'));
    expect(document.documentElement.lang).toBe('fr');
    expect(document.cookie).toContain('i18next=fr');
  });

  it('says where it belongs when used outside the provider', () => {
    function Lost() {
      useRecordingT();
      return null;
    }
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<Lost />)).toThrow(/RecordingI18nProvider/);
  });
});
