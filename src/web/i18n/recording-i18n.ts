import { createContext, createElement, useCallback, useContext, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { DEFAULT_LANGUAGE } from '../../contract/constants.js';
import type { TLanguage } from '../../contract/constants.js';
import { cookieDomainFor } from './cookie-domain';
import { LANGUAGE_COOKIE, LANGUAGE_STORAGE_KEY, toSupportedLanguage } from './language';
import { createTranslator } from './translator';
import type { TMessages } from './translator';

/** Each language's messages of the recording page, a chunk of their own, loaded when spoken. */
const catalogues: Record<TLanguage, () => Promise<{ default: TMessages }>> = {
  en: () => import('./recording-messages.en'),
  fr: () => import('./recording-messages.fr'),
};

/** The element in which the server inlines one language's messages (src/server/http/web-app.ts). */
export const INLINE_MESSAGES_ID = 'recording-messages';

const ONE_YEAR_IN_SECONDS = 60 * 60 * 24 * 365;

/** The language the page speaks and its messages. */
export interface RecordingLanguage {
  language: TLanguage;
  messages: TMessages;
}

/**
 * The browser's language as the app's detector finds it (i18n/detection.ts): the kept preference
 * (cookie, then local storage), then the browser's languages, the first one offered; else English.
 */
export function detectRecordingLanguage(): TLanguage {
  const cookie = new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=([^;]*)`).exec(document.cookie)?.[1];
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    // Storage refused (a private window, a blocked site): the other sources decide.
  }
  const candidates = [cookie ? decodeURIComponent(cookie) : null, stored, ...(navigator.languages ?? []), navigator.language];
  for (const candidate of candidates) {
    const language = toSupportedLanguage(candidate);
    if (language) return language;
  }
  return DEFAULT_LANGUAGE;
}

/** Keeps the preference where the app reads it (the same cookie and local storage), and `<html lang>`. */
function keepLanguage(language: TLanguage): void {
  document.documentElement.lang = language;
  const domain = cookieDomainFor(window.location.hostname);
  document.cookie = `${LANGUAGE_COOKIE}=${language}; path=/; max-age=${ONE_YEAR_IN_SECONDS}; samesite=lax${domain ? `; domain=${domain}` : ''}`;
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Not kept on this device; the cookie still is.
  }
}

/** The messages the server wrote into the page for `language`, or null (another language, none, unreadable). */
function inlineMessages(language: TLanguage): TMessages | null {
  const element = document.getElementById(INLINE_MESSAGES_ID);
  if (!element || element.dataset.language !== language) return null;
  try {
    return JSON.parse(element.textContent ?? '') as TMessages;
  } catch {
    return null;
  }
}

/** One language's messages: the ones written into the page when they are this language's, else its chunk. */
export async function loadRecordingMessages(language: TLanguage): Promise<TMessages> {
  return inlineMessages(language) ?? (await catalogues[language]()).default;
}

/**
 * The translations of the customer's recording page (its own entry, docs/decisions/125 and 139):
 * the same detection and kept preference as the app, but only the messages the page reads, in the
 * language it speaks, and no i18next. The browser's language first (its messages are usually in the
 * page already, written by the server); the request's language once the link is read
 * (`changeLanguage` then loads that language's chunk). No fallback language: both catalogues hold
 * every key (translations.test.ts).
 */
export async function initRecordingI18n(): Promise<RecordingLanguage> {
  const language = detectRecordingLanguage();
  const messages = await loadRecordingMessages(language);
  keepLanguage(language);
  return { language, messages };
}

export interface RecordingT {
  /** The message of a key in the page's language (translator.ts). */
  t: TFunction;
  language: TLanguage;
  /** Speaks `language` from now on: loads its messages, then re-renders the page; kept as the preference. */
  changeLanguage: (language: TLanguage) => Promise<void>;
}

const RecordingTContext = createContext<RecordingT | null>(null);

/** Gives the page its translator; `initial` comes from initRecordingI18n (or a test). */
export function RecordingI18nProvider({ initial, children }: { initial: RecordingLanguage; children: ReactNode }) {
  const [current, setCurrent] = useState(initial);
  const changeLanguage = useCallback(async (language: TLanguage) => {
    const messages = await loadRecordingMessages(language);
    keepLanguage(language);
    setCurrent((was) => (was.language === language ? was : { language, messages }));
  }, []);
  const value = useMemo<RecordingT>(
    () => ({
      t: createTranslator(current.language, current.messages),
      language: current.language,
      changeLanguage,
    }),
    [current, changeLanguage],
  );
  return createElement(RecordingTContext.Provider, { value }, children);
}

/** The recording page's translator: `const { t, language, changeLanguage } = useRecordingT()`. */
export function useRecordingT(): RecordingT {
  const value = useContext(RecordingTContext);
  if (!value) throw new Error('useRecordingT: render the recording page inside RecordingI18nProvider.');
  return value;
}
