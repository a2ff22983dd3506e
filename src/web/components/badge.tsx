import type { HTMLAttributes } from 'react';
import { cn } from '../lib/cn';

export type BadgeTone = 'neutral' | 'brand' | 'pending' | 'completed' | 'expired' | 'error';

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  tone?: BadgeTone;
  /** Shows a small status dot before the label (the label always carries the meaning). */
  dot?: boolean;
}

const tones: Record<BadgeTone, string> = {
  neutral: 'bg-gray-100 text-gray-700 ring-gray-200',
  brand: 'bg-brand-50 text-brand-800 ring-brand-200',
  pending: 'bg-pending-50 text-pending-800 ring-pending-200',
  completed: 'bg-completed-50 text-completed-800 ring-completed-200',
  expired: 'bg-expired-100 text-expired-800 ring-expired-200',
  error: 'bg-error-50 text-error-800 ring-error-200',
};

const dots: Record<BadgeTone, string> = {
  neutral: 'bg-gray-500',
  brand: 'bg-brand-600',
  pending: 'bg-pending-500',
  completed: 'bg-completed-500',
  expired: 'bg-expired-500',
  error: 'bg-error-500',
};

/** A short label; status colours always come with their text. */
export function Badge({ tone = 'neutral', dot = false, className, children, ...props }: BadgeProps) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
        tones[tone],
        className,
      )}
      {...props}
    >
      {dot && <span className={cn('size-1.5 rounded-full', dots[tone])} aria-hidden="true" />}
      {children}
    </span>
  );
}
