import { useState } from 'react';
import type { ButtonHTMLAttributes } from 'react';

/**
 * A menu whose code (Radix) stays off a page's first paint (docs/decisions/141): until it is needed
 * the page shows a plain button that looks like the menu's trigger. Pointing at it, touching it or
 * focusing it fetches the menu's chunk; pressing it mounts the real menu in its place, open (Radix
 * then moves focus into the menu, and back to its own trigger when it closes).
 *
 * `mounted` is the loaded module once the stand-in has been pressed, else null; spread `standIn` on
 * the stand-in button.
 */
export function useDeferredMenu<TModule>(load: () => Promise<TModule>): {
  mounted: TModule | null;
  standIn: ButtonHTMLAttributes<HTMLButtonElement>;
} {
  const [module, setModule] = useState<TModule | null>(null);
  const [pressed, setPressed] = useState(false);
  const fetchMenu = () => {
    if (!module) void load().then((loaded) => setModule(() => loaded));
  };
  return {
    mounted: module && pressed ? module : null,
    standIn: {
      type: 'button',
      'aria-haspopup': 'menu',
      'aria-expanded': false,
      onPointerEnter: fetchMenu,
      onTouchStart: fetchMenu,
      onFocus: fetchMenu,
      onClick: () => {
        fetchMenu();
        setPressed(true);
      },
    },
  };
}
