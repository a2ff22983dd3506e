import { useId } from 'react';
import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { cn } from '../lib/cn';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> {
  label: string;
  /** The field's error, shown under it and announced; marks the input invalid. */
  error?: string | undefined;
  /** A short help text under the field (hidden while an error shows). */
  hint?: ReactNode;
  /** Something at the end of the label row (a 'Forgot password?' link, for instance). */
  labelAside?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled text input with its hint and error; the one input of every form. */
export function TextField({ label, error, hint, labelAside, id, className, ref, ...props }: TextFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const describedBy = error ? `${inputId}-error` : hint ? `${inputId}-hint` : undefined;
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <div className="flex items-baseline justify-between gap-3">
        <label htmlFor={inputId} className="text-sm font-medium text-gray-900">
          {label}
        </label>
        {labelAside}
      </div>
      <input
        ref={ref}
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={cn(
          'h-11 w-full rounded-control border bg-white px-3 text-base text-gray-900 transition-colors sm:h-10 sm:text-sm',
          'placeholder:text-gray-400 focus-visible:outline-2 focus-visible:outline-offset-0',
          'disabled:cursor-not-allowed disabled:border-gray-200 disabled:bg-gray-50 disabled:text-gray-600',
          error
            ? 'border-error-600 focus-visible:outline-error-600'
            : 'border-gray-300 hover:border-gray-400 focus-visible:border-brand-600 focus-visible:outline-brand-600',
        )}
        {...props}
      />
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
