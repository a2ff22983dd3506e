import { cn } from '../lib/cn';

export interface SkeletonProps {
  /** Size and shape, e.g. 'h-4 w-32' or 'h-40 w-full rounded-card'. */
  className?: string;
}

/** A grey placeholder block shown while data loads; hidden from assistive technology. */
export function Skeleton({ className }: SkeletonProps) {
  return (
    <div
      className={cn('animate-pulse rounded-control bg-gray-200/70 motion-reduce:animate-none', className)}
      aria-hidden="true"
    />
  );
}
