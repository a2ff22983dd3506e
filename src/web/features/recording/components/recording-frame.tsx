import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LogoMark } from '../../../components/logo';
import { SkipLink } from '../../../components/skip-link';
import { BRAND_NAME } from '../../../lib/brand';
import { paths } from '../../../lib/paths';

export interface RecordingFrameProps {
  /** The company asking for the testimonial (absent while the link loads or when it failed). */
  company?: { name: string; logo_url: string | null } | null;
  children: ReactNode;
}

/**
 * The light frame of the customer's page: the company that asks, the content, and a discreet
 * 'by Vouchreel'. No language menu (the request sets the language) and no app navigation.
 */
export function RecordingFrame({ company, children }: RecordingFrameProps) {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-dvh flex-col bg-gray-50">
      <SkipLink />
      <header className="border-b border-gray-200 bg-white">
        <div className="mx-auto flex h-14 w-full max-w-3xl items-center gap-3 px-4 sm:h-16 sm:px-6">
          {company ? <CompanyMark company={company} /> : <LogoMark />}
          <span className="min-w-0 truncate text-base font-semibold tracking-tight text-gray-950">
            {company?.name ?? BRAND_NAME}
          </span>
        </div>
      </header>
      <main id="main" className="flex-1 pb-10">
        {children}
      </main>
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
    </div>
  );
}

/** The company's logo, or its initial on a neutral tile. */
export function CompanyMark({ company, size = 'md' }: { company: { name: string; logo_url: string | null }; size?: 'md' | 'lg' }) {
  const box = size === 'lg' ? 'size-14 text-xl' : 'size-8 text-sm';
  if (company.logo_url) {
    return <img src={company.logo_url} alt="" className={`${box} shrink-0 rounded-control object-contain`} />;
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
