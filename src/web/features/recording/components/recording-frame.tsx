import type { MouseEvent, ReactNode } from 'react';
import { useRecordingT } from '../../../i18n/recording-i18n';
import { BRAND_NAME } from '../../../lib/brand';
import { cn } from '../../../lib/cn';
import { paths } from '../../../lib/paths';

export interface RecordingFrameProps {
  /** The company asking for the testimonial (absent while the link loads or when it failed). */
  company?: { name: string; logo_url: string | null } | null;
  /**
   * While the link loads: no footer. Pinned to the bottom of a screen that the next state fills, it
   * would jump down out of view (a layout shift); the next state draws it below its content.
   */
  loading?: boolean;
  /**
   * The discreet 'Video testimonials by {brand}' line at the bottom, only when the operator turned it on
   * (CUSTOMER_PAGES_POWERED_BY, sent with the link): the customer's page belongs to the business.
   */
  poweredBy?: boolean;
  children: ReactNode;
}

/**
 * The light frame of the customer's page: the company that asks, the content, and, when the operator
 * wants it, a discreet 'by Vouchreel'. No language menu (the request sets the language), no app
 * navigation, no promotion of ours.
 */
export function RecordingFrame({ company, loading = false, poweredBy = false, children }: RecordingFrameProps) {
  const { t } = useRecordingT();
  return (
    <div className="flex min-h-dvh flex-col bg-gray-50">
      <SkipLink />
      <header className="border-b border-gray-200 bg-white">
        <div className="mx-auto flex h-14 w-full max-w-3xl items-center gap-3 px-4 sm:h-16 sm:px-6">
          {/* The header keeps its height whatever the mark: ours and the initial are 32 px, a logo 40 px high at most. */}
          {company ? <CompanyMark company={company} /> : <LogoMark className="size-8" />}
          <span className="min-w-0 truncate text-base font-semibold tracking-tight text-gray-950">
            {company?.name ?? BRAND_NAME}
          </span>
        </div>
      </header>
      <main id="main" className="flex-1 pb-10">
        {children}
      </main>
      {poweredBy && !loading && (
        <footer className="border-t border-gray-200 bg-white">
          <div className="mx-auto flex max-w-3xl items-center justify-center px-4 py-4 text-xs text-gray-500">
            <a
              href={paths.home}
              target="_blank"
              rel="noopener"
              className="inline-flex items-center gap-1.5 rounded-control hover:text-gray-900"
            >
              <LogoMark className="size-4" />
              {t('recording.poweredBy', { brand: BRAND_NAME })}
            </a>
          </div>
        </footer>
      )}
    </div>
  );
}

/**
 * The company's logo, or its initial on a neutral tile. A logo keeps its shape (issue 27): it takes the
 * slot's height and its own width up to a cap made for wide wordmarks (160–192 px), drawn whole
 * (`object-contain`, never cropped to a square); a square logo is a square of the slot's height.
 */
export function CompanyMark({ company, size = 'md' }: { company: { name: string; logo_url: string | null }; size?: 'md' | 'lg' }) {
  const box = size === 'lg' ? 'size-14 text-xl' : 'size-8 text-sm';
  if (company.logo_url) {
    const slot = size === 'lg' ? 'h-12 max-w-48' : 'h-10 max-w-40 sm:max-w-48';
    return <img src={company.logo_url} alt="" className={`${slot} w-auto shrink-0 object-contain object-left`} data-testid="company-logo" />;
  }
  return (
    <span
      aria-hidden="true"
      className={`${box} flex shrink-0 items-center justify-center rounded-control bg-brand-100 font-semibold text-brand-800`}
    >
      {company.name.trim().charAt(0).toUpperCase() || '·'}
    </span>
  );
}

/**
 * The brand mark, as components/logo.tsx draws it (and /favicon.svg). The page's own copy, like the
 * skip link below: the shared ones read their text through react-i18next, which this page does not
 * load (docs/decisions/139).
 */
export function LogoMark({ className }: { /** Its size class; size-7 when absent. */ className?: string }) {
  return (
    <svg viewBox="0 0 64 64" className={cn('shrink-0', className ?? 'size-7')} aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" className="fill-brand-700" />
      <path d="M25 19 47 32 25 45Z" className="fill-white stroke-white" strokeWidth="4" strokeLinejoin="round" />
    </svg>
  );
}

/** The first focusable element: moves focus past the header to the main landmark (as components/skip-link.tsx). */
function SkipLink({ targetId = 'main' }: { targetId?: string }) {
  const { t } = useRecordingT();
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
