import { useId } from 'react';
import type { ReactNode, Ref, TextareaHTMLAttributes } from 'react';
import { cn } from '../lib/cn';

export interface TextAreaProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  /** The field's error, shown under it and announced; marks the field invalid. */
  error?: string | undefined;
  /** A short help text under the field (kept while an error shows). */
  hint?: ReactNode;
  /** Something at the end of the hint row (a character count, for instance). */
  aside?: ReactNode;
  ref?: Ref<HTMLTextAreaElement>;
}

/** A labelled multi-line text field with its hint and error. */
export function TextArea({ label, error, hint, aside, id, className, rows = 3, ref, ...props }: TextAreaProps) {
  const generated = useId();
  const fieldId = id ?? generated;
  const describedBy = [error ? `${fieldId}-error` : null, hint ? `${fieldId}-hint` : null].filter(Boolean).join(' ');
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={fieldId} className="text-sm font-medium text-gray-900">
        {label}
      </label>
      <textarea
        ref={ref}
        id={fieldId}
        rows={rows}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        className={cn(
          'w-full resize-y rounded-control border bg-white px-3 py-2 text-base text-gray-900 transition-colors sm:text-sm',
          'placeholder:text-gray-400 focus-visible:outline-2 focus-visible:outline-offset-0',
          'disabled:cursor-not-allowed disabled:border-gray-200 disabled:bg-gray-50 disabled:text-gray-600',
          error
            ? 'border-error-600 focus-visible:outline-error-600'
            : 'border-gray-300 hover:border-gray-400 focus-visible:border-brand-600 focus-visible:outline-brand-600',
        )}
        {...props}
      />
      {error ? (
        <p id={`${fieldId}-error`} className="text-sm text-error-700">
          {error}
        </p>
      ) : null}
      {hint || aside ? (
        <div className="flex items-start justify-between gap-3 text-sm text-gray-500">
          {hint ? <p id={`${fieldId}-hint`}>{hint}</p> : <span />}
          {aside}
        </div>
      ) : null}
    </div>
  );
}
