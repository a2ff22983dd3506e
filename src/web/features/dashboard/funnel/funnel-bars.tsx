import { cn } from '../../../lib/cn';

export interface FunnelBarStep {
  step: string;
  label: string;
  hint: string;
  count: number;
  countText: string;
  /** "62 % of the previous step", or null for the first step and after an empty one. */
  conversionText: string | null;
}

/**
 * A funnel as horizontal bars, plain HTML and CSS (no chart library): each step's bar is as long as its
 * share of the first step (or of the largest, when a later one is larger), with its count and its
 * conversion from the step before written out, so that nothing is told by colour or length alone.
 */
export function FunnelBars({ steps, label, className }: { steps: FunnelBarStep[]; label: string; className?: string }) {
  const max = Math.max(1, ...steps.map((s) => s.count));
  return (
    <ol aria-label={label} className={cn('flex flex-col gap-4', className)}>
      {steps.map((s, i) => (
        <li key={s.step} data-testid={`funnel-step-${s.step}`} data-count={s.count}>
          <div className="flex items-baseline justify-between gap-3">
            <div className="min-w-0">
              <span className="text-sm font-medium text-gray-900">{s.label}</span>
              <span className="ml-2 hidden text-xs text-gray-500 sm:inline">{s.hint}</span>
            </div>
            <span className="text-base font-semibold text-gray-950 tabular-nums" data-testid="funnel-step-count">
              {s.countText}
            </span>
          </div>
          <div className="mt-1.5 h-3 w-full overflow-hidden rounded-full bg-gray-100" aria-hidden="true">
            <div
              className={cn('h-full rounded-full transition-[width] duration-300 motion-reduce:transition-none', i === 0 ? 'bg-brand-700' : 'bg-brand-500')}
              style={{ width: `${s.count === 0 ? 0 : Math.max(2, (s.count / max) * 100)}%` }}
            />
          </div>
          {s.conversionText && (
            <p className="mt-1 text-xs text-gray-600 tabular-nums" data-testid="funnel-step-conversion">
              {s.conversionText}
            </p>
          )}
        </li>
      ))}
    </ol>
  );
}
