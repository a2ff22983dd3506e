import type { ReactNode } from 'react';
import { buttonClasses } from '../../../components/button';
import type { ButtonVariant } from '../../../components/button';
import { cn } from '../../../lib/cn';
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
