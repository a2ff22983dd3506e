import { cn } from '../lib/cn';

export interface ProgressBarProps {
  /** 0 to 100. */
  value: number;
  /** What the bar measures, for assistive technology. */
  label: string;
  /** Text read out instead of the bare percentage ('Step 2 of 3'). */
  valueText?: string;
  className?: string;
}

/** A thin determinate progress bar in the brand colour. */
export function ProgressBar({ value, label, valueText, className }: ProgressBarProps) {
  const clamped = Math.min(100, Math.max(0, value));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped}
      aria-valuetext={valueText}
      className={cn('h-1.5 w-full overflow-hidden rounded-full bg-gray-100', className)}
    >
      <div
        className="h-full rounded-full bg-brand-600 transition-[width] duration-300 ease-out motion-reduce:transition-none"
        style={{ width: `${clamped}%` }}
      />
    </div>
  );
}
