import { useSyncExternalStore } from 'react';
import { BREAKPOINTS } from '../../contract/constants.js';

/** Media queries of the spec's breakpoints (§9). */
export const MEDIA = {
  /** The sidebar is an overlay drawer at 1024 px and below. */
  drawer: `(max-width: ${BREAKPOINTS.drawerMax}px)`,
  /** Phones: cards instead of tables, the requests page's 'mobile' layout. */
  mobile: `(max-width: ${BREAKPOINTS.mobileBelow - 0.02}px)`,
} as const;

function matches(query: string): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(query).matches;
}

/** Whether a media query matches now; re-renders when that changes. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => matches(query),
    () => false,
  );
}
