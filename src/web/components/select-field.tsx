import { useId } from 'react';
import type { ReactNode, Ref, SelectHTMLAttributes } from 'react';
import { cn } from '../lib/cn';
import { ChevronDownIcon } from './icons';

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'size'> {
  label: string;
  options: readonly SelectOption[];
  error?: string | undefined;
  hint?: ReactNode;
  /** Keeps the label for assistive technology only (toolbars). */
  hideLabel?: boolean;
  ref?: Ref<HTMLSelectElement>;
}

/** A labelled native select (the platform's own picker on phones), styled like the text fields. */
export function SelectField({ label, options, error, hint, hideLabel, id, className, ref, ...props }: SelectFieldProps) {
  const generated = useId();
  const fieldId = id ?? generated;
  const describedBy = error ? `${fieldId}-error` : hint ? `${fieldId}-hint` : undefined;
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={fieldId} className={cn('text-sm font-medium text-gray-900', hideLabel && 'sr-only')}>
        {label}
      </label>
      <div className="relative">
        <select
          ref={ref}
          id={fieldId}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={cn(
            'h-11 w-full appearance-none rounded-control border bg-white pr-9 pl-3 text-base text-gray-900 transition-colors sm:h-10 sm:text-sm',
            'focus-visible:outline-2 focus-visible:outline-offset-0',
            error
              ? 'border-error-600 focus-visible:outline-error-600'
              : 'border-gray-300 hover:border-gray-400 focus-visible:border-brand-600 focus-visible:outline-brand-600',
          )}
          {...props}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-gray-500" />
      </div>
      {error ? (
        <p id={`${fieldId}-error`} className="text-sm text-error-700">
          {error}
        </p>
      ) : hint ? (
        <p id={`${fieldId}-hint`} className="text-sm text-gray-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
