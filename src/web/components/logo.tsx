import { useTranslation } from 'react-i18next';
import { BRAND_NAME } from '../lib/brand';
import { cn } from '../lib/cn';
import { AppLink } from '../lib/navigation';
import { paths } from '../lib/paths';

/** The brand mark alone: a violet tile with a white play sign (the same drawing as /favicon.svg). */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" className={cn('size-7 shrink-0', className)} aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" className="fill-brand-700" />
      <path d="M25 19 47 32 25 45Z" className="fill-white stroke-white" strokeWidth="4" strokeLinejoin="round" />
    </svg>
  );
}

export interface LogoProps {
  /** Where the logo leads (default: the home page). */
  to?: string;
  /** 'md' in headers, 'sm' in dense places. */
  size?: 'sm' | 'md';
  className?: string;
}

/** The mark and the wordmark, as a link home. */
export function Logo({ to = paths.home, size = 'md', className }: LogoProps) {
  const { t } = useTranslation();
  return (
    <AppLink
      to={to}
      className={cn('inline-flex items-center gap-2 rounded-control text-gray-950', className)}
      aria-label={t('common.homeLink', { brand: BRAND_NAME })}
    >
      <LogoMark className={size === 'sm' ? 'size-6' : 'size-7'} />
      <span className={cn('font-semibold tracking-tight', size === 'sm' ? 'text-base' : 'text-lg')}>{BRAND_NAME}</span>
    </AppLink>
  );
}
