import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Card } from '../../../components/card';
import { PublicShell } from '../../../components/public-shell';
import { Seo } from '../../../components/seo';
import type { SeoProps } from '../../../components/seo';
import { cn } from '../../../lib/cn';
import { paths } from '../../../lib/paths';

export interface AuthLayoutProps {
  seo: SeoProps;
  /** The page's h1. */
  title: string;
  subtitle?: ReactNode;
  /** A tile above the title. */
  icon?: ReactNode;
  children: ReactNode;
  /** Links under the card (sign-in / sign-up); 'Back to home' is always added. */
  footer?: ReactNode;
  className?: string;
}

/** The calm, centred card every authentication page shares, inside the public frame. */
export function AuthLayout({ seo, title, subtitle, icon, children, footer, className }: AuthLayoutProps) {
  const { t } = useTranslation();
  return (
    <PublicShell>
      <Seo {...seo} />
      <div className={cn('animate-fade-in', className)}>
        <Card padding="none" className="px-5 py-8 sm:px-8 sm:py-10">
          <div className="mb-8 text-center">
            {icon && (
              <div className="mx-auto mb-5 flex size-12 items-center justify-center rounded-card border border-gray-200 bg-gray-50 text-gray-700">
                {icon}
              </div>
            )}
            <h1 className="text-xl font-semibold tracking-tight text-gray-950">{title}</h1>
            {subtitle && <div className="mt-2 text-base text-gray-600">{subtitle}</div>}
          </div>
          {children}
        </Card>
        <div className="mt-6 flex flex-col items-center gap-3 text-center text-sm text-gray-600">
          {footer}
          <Link
            to={paths.home}
            className="rounded-control font-medium text-gray-600 hover:text-gray-900"
            data-testid="back-home"
          >
            {t('auth.backHome')}
          </Link>
        </div>
      </div>
    </PublicShell>
  );
}

/** 'Already have an account? Sign in' and the like. */
export function AuthFooterLink({
  text,
  to,
  label,
  testId,
  state,
}: {
  text: string;
  to: string;
  label: string;
  testId?: string;
  /** Router state for the page it opens (the sign-in's `from`, to come back to an invitation). */
  state?: unknown;
}) {
  return (
    <p>
      {text}{' '}
      <Link to={to} state={state} className="rounded-control font-medium text-brand-700 hover:text-brand-800" data-testid={testId}>
        {label}
      </Link>
    </p>
  );
}

/** A line with 'or' between two ways to do the same thing. */
export function OrDivider() {
  const { t } = useTranslation();
  return (
    <div
      className="my-6 flex items-center gap-3 text-xs font-medium tracking-wide text-gray-500 uppercase"
      role="separator"
    >
      <span className="h-px flex-1 bg-gray-200" aria-hidden="true" />
      {t('auth.or')}
      <span className="h-px flex-1 bg-gray-200" aria-hidden="true" />
    </div>
  );
}
