import { useEffect, useState } from 'react';

/** How long a Copy button says 'Copied'. */
export const COPIED_MS = 2_000;

/**
 * Copies a text and says so for a moment: `copied` is true for 2 s after a copy that worked. The
 * Clipboard API first; when it is refused (an insecure origin, a refused permission), `fallback` tries
 * another way (selecting the text and `execCommand('copy')`) and says whether it worked. `copy`
 * answers whether the text was copied, so that a caller can say it was not.
 */
export function useCopied(fallback: (text: string) => boolean): { copied: boolean; copy: (text: string) => Promise<boolean> } {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return undefined;
    const timer = window.setTimeout(() => setCopied(false), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);

  const copy = async (text: string) => {
    let done: boolean;
    try {
      await navigator.clipboard.writeText(text);
      done = true;
    } catch {
      done = fallback(text);
    }
    setCopied(done);
    return done;
  };

  return { copied, copy };
}

/** Copies through a selected, off-screen text area (the fallback when the Clipboard API is refused). */
export function copyBySelection(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  try {
    return document.execCommand?.('copy') ?? false;
  } finally {
    area.remove();
  }
}
