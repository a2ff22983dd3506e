/**
 * The whole script of a prerendered page until its visitor shows intent (docs/decisions/170). The
 * page is its HTML: it paints, scrolls, and its links work without any script. The app (React, the
 * router, the translations) is fetched and takes the HTML over at the first sign that the visitor is
 * about to use it: the pointer moves or presses, a finger touches, a key is pressed, focus moves, the
 * wheel turns. A button pressed before the app has taken the page over is pressed again once it has
 * (the landing page announces it with TAKEN_OVER_EVENT), so the menus and the demo players answer the
 * first press.
 *
 * The build (scripts/vite-plugins.ts) writes `startOnIntent`'s code and one call of it (`startCall`)
 * as the page's only script, a few hundred bytes: the function uses nothing but its arguments.
 */
import { LANGUAGE_STORAGE_KEY } from '../i18n/language.js';

/** Sent on `document` by the landing page once the app has taken its HTML over. */
export const TAKEN_OVER_EVENT = 'vouchreel:taken-over';

/** What counts as the visitor being about to use the page. */
export const INTENT_EVENTS = ['pointermove', 'pointerdown', 'touchstart', 'keydown', 'focusin', 'wheel'] as const;

export function startOnIntent(modules: readonly string[], takenOverEvent: string, intents: readonly string[], storageKey: string): void {
  let started = false;
  let pressed: HTMLButtonElement | null = null;
  const start = () => {
    if (started) return;
    started = true;
    for (const type of intents) window.removeEventListener(type, start, true);
    for (const src of modules) void import(/* @vite-ignore */ src);
  };
  const remember = (event: MouseEvent) => {
    const button = event.target instanceof Element ? event.target.closest('button') : null;
    if (button) pressed = button;
  };
  document.addEventListener('click', remember, true);
  document.addEventListener(
    takenOverEvent,
    () => {
      document.removeEventListener('click', remember, true);
      const button = pressed;
      pressed = null;
      if (button?.isConnected) button.click();
    },
    { once: true },
  );
  for (const type of intents) window.addEventListener(type, start, { capture: true, passive: true });
  // A language kept only in this browser's storage, other than the page's: the app draws the page in
  // that language at once (main.tsx), rather than show the wrong one until the visitor moves.
  try {
    const kept = localStorage.getItem(storageKey);
    const page = document.getElementById('root')?.dataset.prerendered;
    if (kept && page && kept.slice(0, 2) !== page) start();
  } catch {
    // Storage refused (private mode): the server's choice of language stands.
  }
}

/** The call the build writes after the function: the app's entry and its chunks, as the built page lists them. */
export function startCall(modules: readonly string[]): string {
  return `startOnIntent(${JSON.stringify(modules)}, ${JSON.stringify(TAKEN_OVER_EVENT)}, ${JSON.stringify(INTENT_EVENTS)}, ${JSON.stringify(LANGUAGE_STORAGE_KEY)});`;
}
