import type { ReactNode } from 'react';
import { cn } from '../lib/cn';

export interface EmptyStateProps {
  /** A 24 px icon shown in a neutral tile. */
  icon?: ReactNode;
  /** A small label above the title (a Badge, for instance). */
  eyebrow?: ReactNode;
  title: string;
  description?: ReactNode;
  /** What to do next: usually one Button or ButtonLink. */
  action?: ReactNode;
  /** Heading level of the title (default h2). */
  headingLevel?: 'h1' | 'h2' | 'h3';
  className?: string;
}

/** Says what is missing and what to do next. */
export function EmptyState({
  icon,
  eyebrow,
  title,
  description,
  action,
  headingLevel = 'h2',
  className,
}: EmptyStateProps) {
  const Heading = headingLevel;
  return (
    <div className={cn('mx-auto flex max-w-md flex-col items-center px-4 py-12 text-center', className)}>
      {icon && (
        <div className="mb-6 flex size-12 items-center justify-center rounded-card border border-gray-200 bg-gray-50 text-gray-700">
          {icon}
        </div>
      )}
      {eyebrow && <div className="mb-3">{eyebrow}</div>}
      <Heading className="text-lg font-semibold tracking-tight text-gray-900">{title}</Heading>
      {description && <div className="mt-2 text-base text-gray-600">{description}</div>}
      {action && <div className="mt-8 flex flex-wrap items-center justify-center gap-3">{action}</div>}
    </div>
  );
}
