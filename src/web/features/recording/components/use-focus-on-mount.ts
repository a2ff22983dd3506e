import { useEffect, useRef } from 'react';

/**
 * Focuses the returned element once mounted: each step and each question moves focus to its heading,
 * so keyboard and screen-reader users start at the top of what changed.
 */
export function useFocusOnMount<T extends HTMLElement>(enabled = true) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (enabled) ref.current?.focus({ preventScroll: true });
  }, [enabled]);
  return ref;
}
