import type { ReactNode } from 'react';
import { Skeleton } from '../../../components/skeleton';
import { Spinner } from '../../../components/spinner';
import { WaveformIcon } from '../../../components/icons';

export interface ReviewLoadingProps {
  title: string;
  hint: string;
  /** A line under the hint (a reconnecting notice, for instance). */
  note?: ReactNode;
}

/**
 * While the engine listens: what is happening and how long it takes, announced politely, over the
 * shape of the cue list to come.
 */
export function ReviewLoading({ title, hint, note }: ReviewLoadingProps) {
  return (
    <div className="flex flex-col gap-6 pb-1" data-testid="transcription-loading">
      <div role="status" aria-live="polite" className="flex items-start gap-4 rounded-card border border-brand-100 bg-brand-50/60 px-4 py-4">
        <span className="relative flex size-10 shrink-0 items-center justify-center rounded-full bg-white text-brand-700 ring-1 ring-brand-200">
          <WaveformIcon className="size-5" />
        </span>
        <div className="min-w-0">
          <p className="flex items-center gap-2 font-medium text-gray-900">
            <Spinner className="size-4 text-brand-700" />
            {title}
          </p>
          <p className="mt-1 text-sm text-gray-600">{hint}</p>
          {note}
        </div>
      </div>
      <div className="flex flex-col gap-4" aria-hidden="true">
        {[0, 1, 2].map((row) => (
          <div key={row} className="flex flex-col gap-2">
            <Skeleton className="h-4 w-44" />
            <Skeleton className="h-14 w-full" />
          </div>
        ))}
      </div>
    </div>
  );
}
