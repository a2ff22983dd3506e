import { useId } from 'react';
import { cn } from '../../../lib/cn';
import { clampSize } from './settings-form';

export interface SizeFieldProps {
  label: string;
  /** The slider's accessible name ('Size of the question text'). */
  sliderLabel: string;
  value: string;
  min: number;
  max: number;
  onChange: (value: string) => void;
  onBlur?: () => void;
  hint?: string;
  error?: string | undefined;
  id?: string;
  disabled?: boolean;
  'data-testid'?: string;
}

/** A font size: a slider over the allowed range and the exact number beside it, in pixels. */
export function SizeField({
  label,
  sliderLabel,
  value,
  min,
  max,
  onChange,
  onBlur,
  hint,
  error,
  id,
  disabled,
  'data-testid': testId,
}: SizeFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const sliderValue = clampSize(value, min, max);
  const filled = ((sliderValue - min) / (max - min)) * 100;
  const describedBy = error ? `${inputId}-error` : hint ? `${inputId}-hint` : undefined;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={inputId} className="text-sm font-medium text-gray-900">
        {label}
      </label>
      <div className="flex items-center gap-3">
        <input
          type="range"
          min={min}
          max={max}
          step={1}
          value={sliderValue}
          disabled={disabled}
          aria-label={sliderLabel}
          aria-valuetext={`${sliderValue} px`}
          onChange={(event) => onChange(event.target.value)}
          onBlur={onBlur}
          data-testid={testId ? `${testId}-slider` : undefined}
          className={cn(
            'h-1.5 min-w-0 flex-1 cursor-pointer appearance-none rounded-full disabled:cursor-not-allowed',
            '[&::-webkit-slider-thumb]:size-5 [&::-webkit-slider-thumb]:appearance-none [&::-webkit-slider-thumb]:rounded-full',
            '[&::-webkit-slider-thumb]:border-2 [&::-webkit-slider-thumb]:border-brand-700 [&::-webkit-slider-thumb]:bg-white [&::-webkit-slider-thumb]:shadow-sm',
            '[&::-moz-range-thumb]:size-4 [&::-moz-range-thumb]:rounded-full [&::-moz-range-thumb]:border-2',
            '[&::-moz-range-thumb]:border-brand-700 [&::-moz-range-thumb]:bg-white',
          )}
          style={{
            background: `linear-gradient(to right, var(--color-brand-600) ${filled}%, var(--color-gray-200) ${filled}%)`,
          }}
        />
        <div className="relative w-24 shrink-0">
          <input
            id={inputId}
            type="number"
            inputMode="numeric"
            min={min}
            max={max}
            step={1}
            value={value}
            disabled={disabled}
            onChange={(event) => onChange(event.target.value)}
            onBlur={onBlur}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            data-testid={testId}
            className={cn(
              'h-10 w-full rounded-control border bg-white pr-9 pl-3 text-sm text-gray-900 tabular-nums transition-colors',
              'focus-visible:outline-2 focus-visible:outline-offset-0 disabled:bg-gray-50',
              error
                ? 'border-error-600 focus-visible:outline-error-600'
                : 'border-gray-300 hover:border-gray-400 focus-visible:border-brand-600 focus-visible:outline-brand-600',
            )}
          />
          <span
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2 text-sm text-gray-500"
          >
            px
          </span>
        </div>
      </div>
      {error ? (
        <p id={`${inputId}-error`} className="text-sm text-error-700">
          {error}
        </p>
      ) : hint ? (
        <p id={`${inputId}-hint`} className="text-sm text-gray-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
