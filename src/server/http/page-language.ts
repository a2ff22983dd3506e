import { DEFAULT_LANGUAGE, LANGUAGES } from '../../contract/constants.js';
import type { TLanguage } from '../../contract/constants.js';

/**
 * The language of the pages the server writes in a language before any script runs: the recording
 * page's messages (recording-page.ts) and the prerendered landing page (web-app.ts).
 */

/** The cookie in which the app keeps the interface language (src/web/i18n/language.ts). */
const LANGUAGE_COOKIE = 'i18next';

function supported(code: string | undefined): TLanguage | null {
  const base = code?.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return (LANGUAGES as readonly string[]).includes(base) ? (base as TLanguage) : null;
}

/**
 * The language a page will start in, as the browser's detector finds it (src/web/i18n/detection.ts,
 * the app's and the recording page's): the kept preference (the cookie; local storage is the
 * browser's alone), then the browser's languages in their order of preference, the first one
 * offered; else English.
 */
export function pageLanguage(headers: { cookie?: string | undefined; 'accept-language'?: string | undefined }): TLanguage {
  const cookie = new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=([^;]*)`).exec(headers.cookie ?? '')?.[1];
  const kept = supported(cookie);
  if (kept) return kept;
  const ranked = (headers['accept-language'] ?? '')
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag, q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const language = supported(tag);
    if (language) return language;
  }
  return DEFAULT_LANGUAGE;
}
