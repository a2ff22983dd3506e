import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TRenderState } from '../../../../contract/api/studio.schema.js';
import { buttonClasses } from '../../../components/button';
import type { ButtonVariant } from '../../../components/button';
import { AlertIcon, ClockIcon } from '../../../components/icons';
import { ProgressBar } from '../../../components/progress-bar';
import { Spinner } from '../../../components/spinner';
import { cn } from '../../../lib/cn';
import { formatPercent } from '../../../lib/format';
import { DownloadIcon } from '../../../components/icons';

export interface DownloadLinkProps {
  url: string | null;
  /** The suggested file name. */
  fileName: string;
  children: ReactNode;
  variant?: ButtonVariant;
  disabled?: boolean;
  'data-testid'?: string;
  className?: string;
}

/**
 * The signed address asking the server for an attachment named `fileName`: the `download` attribute
 * alone is ignored once our address redirects to the bucket (S3 deployments).
 */
export function attachmentUrl(url: string, fileName: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}download=${encodeURIComponent(fileName)}`;
}

/** A download of a signed address, styled as a small button; without an address or while disabled it is inert. */
export function DownloadLink({ url, fileName, children, variant = 'secondary', disabled = false, className, ...props }: DownloadLinkProps) {
  const inert = disabled || !url;
  return (
    <a
      href={inert ? undefined : attachmentUrl(url, fileName)}
      download={inert ? undefined : fileName}
      aria-disabled={inert || undefined}
      role={inert ? 'link' : undefined}
      className={buttonClasses({ variant, size: 'sm', className })}
      data-testid={props['data-testid']}
    >
      <DownloadIcon className="size-4" />
      {children}
    </a>
  );
}

export interface VersionToggleProps<V extends string> {
  label: string;
  value: V;
  options: readonly { value: V; label: string; testId: string }[];
  onChange: (value: V) => void;
}

/** Two or three mutually exclusive versions of a video (enhanced / original), as pressed buttons. */
export function VersionToggle<V extends string>({ label, value, options, onChange }: VersionToggleProps<V>) {
  return (
    <div role="group" aria-label={label} className="inline-flex rounded-control bg-gray-100 p-0.5">
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={option.value === value}
          data-testid={option.testId}
          onClick={() => onChange(option.value)}
          className={cn(
            'rounded-[calc(var(--radius-control)-2px)] px-2.5 py-1 text-xs font-medium transition-colors',
            option.value === value ? 'bg-white text-gray-900 shadow-sm ring-1 ring-gray-200' : 'text-gray-600 hover:text-gray-900',
          )}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

/**
 * Where the last render of an answer or of the merged video stands (ui.md: queued, rendering with
 * progress, failed with its reason). Nothing once it is ready. Test id `render-state` with data-phase.
 */
export function RenderStatus({ state, preparing = false }: { state: TRenderState | null | undefined; preparing?: boolean }) {
  const { t, i18n } = useTranslation();
  if (preparing) {
    return (
      <p className="flex items-center gap-2 text-xs text-gray-600" data-testid="render-state" data-phase="preparing">
        <Spinner className="size-3.5 text-gray-500" />
        {t('testimonialDetail.render.preparing')}
      </p>
    );
  }
  if (!state || state.phase === 'ready') return null;
  if (state.phase === 'failed') {
    return (
      <p className="flex gap-2 text-xs text-error-800" data-testid="render-state" data-phase="failed" role="status">
        <AlertIcon className="mt-px size-3.5 shrink-0 text-error-700" />
        <span className="min-w-0 break-words">
          {t('testimonialDetail.render.failed')}
          {state.error ? <span className="text-error-700"> {state.error}</span> : null}
        </span>
      </p>
    );
  }
  const rendering = state.phase === 'rendering';
  return (
    <div className="flex flex-col gap-1.5" data-testid="render-state" data-phase={state.phase}>
      <p className="flex items-center justify-between gap-2 text-xs text-gray-700">
        <span className="flex items-center gap-2">
          {rendering ? <Spinner className="size-3.5 text-brand-700" /> : <ClockIcon className="size-3.5 text-gray-500" />}
          {t(`testimonialDetail.render.${rendering ? 'rendering' : 'queued'}`)}
        </span>
        {rendering && <span className="tabular-nums">{formatPercent(Math.round(state.progress), i18n.language)}</span>}
      </p>
      {rendering && <ProgressBar value={state.progress} label={t('testimonialDetail.render.rendering')} />}
    </div>
  );
}
