import type { ReactNode } from 'react';
import { cn } from '../lib/cn';
import { AlertIcon, CheckCircleIcon, CloseIcon, InfoIcon } from './icons';

export type AlertTone = 'info' | 'success' | 'warning' | 'error';

export interface AlertProps {
  tone?: AlertTone;
  /** A bold first line. */
  title?: ReactNode;
  children?: ReactNode;
  /** Buttons or links under the text. */
  action?: ReactNode;
  /** Adds a close button: the banner stays until the person closes it. */
  onDismiss?: () => void;
  /** The close button's accessible name (required with onDismiss). */
  dismissLabel?: string;
  className?: string;
  'data-testid'?: string;
}

const tones: Record<AlertTone, string> = {
  info: 'border-brand-200 bg-brand-50 text-brand-900',
  success: 'border-completed-200 bg-completed-50 text-completed-800',
  warning: 'border-pending-200 bg-pending-50 text-pending-800',
  error: 'border-error-200 bg-error-50 text-error-800',
};

const icons: Record<AlertTone, ReactNode> = {
  info: <InfoIcon className="size-5 text-brand-700" />,
  success: <CheckCircleIcon className="size-5 text-completed-700" />,
  warning: <AlertIcon className="size-5 text-pending-700" />,
  error: <AlertIcon className="size-5 text-error-700" />,
};

/**
 * A banner with an icon and its text. Errors are announced at once (role alert), the others politely
 * (role status).
 */
export function Alert({ tone = 'info', title, children, action, onDismiss, dismissLabel, className, ...props }: AlertProps) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn('flex gap-3 rounded-control border px-4 py-3 text-sm animate-fade-in', tones[tone], className)}
      {...props}
    >
      <span className="mt-px shrink-0">{icons[tone]}</span>
      <div className="min-w-0 flex-1 break-words">
        {title && <p className="font-medium">{title}</p>}
        {children && <div className={cn(title ? 'mt-1' : undefined)}>{children}</div>}
        {action && <div className="mt-3 flex flex-wrap gap-2">{action}</div>}
      </div>
      {onDismiss && (
        <button
          type="button"
          onClick={onDismiss}
          aria-label={dismissLabel}
          title={dismissLabel}
          className="-my-1 -mr-2 inline-flex size-8 shrink-0 items-center justify-center self-start rounded-control opacity-80 transition-colors hover:bg-black/5 hover:opacity-100"
          data-testid="alert-dismiss"
        >
          <CloseIcon className="size-4" />
        </button>
      )}
    </div>
  );
}
