import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The first focusable element of every page: moves focus past the header to the main landmark.
 * Focus is moved by hand so the router never sees a hash navigation.
 */
export function SkipLink({ targetId = 'main' }: { targetId?: string }) {
  const { t } = useTranslation();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    const target = document.getElementById(targetId);
    if (!target) return;
    event.preventDefault();
    if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.focus();
  };
  return (
    <a
      href={`#${targetId}`}
      onClick={onClick}
      className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-[60] focus:rounded-control focus:bg-white focus:px-4 focus:py-2 focus:text-sm focus:font-medium focus:text-gray-900 focus:shadow-overlay"
    >
      {t('common.skipToContent')}
    </a>
  );
}
