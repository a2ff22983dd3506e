import { useId } from 'react';
import { cn } from '../../../lib/cn';
import { isHexColor, normaliseHex } from './settings-form';

export interface ColorFieldProps {
  label: string;
  /** The picker's accessible name ('Choose the background colour'). */
  pickerLabel: string;
  value: string;
  /** Shown in the swatch and the picker while the typed value is incomplete. */
  fallback: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  error?: string | undefined;
  id?: string;
  disabled?: boolean;
  'data-testid'?: string;
}

/**
 * A colour: the system colour picker behind a swatch, and the hex value to type or paste (made whole
 * on blur: 'FC0' → '#ffcc00').
 */
export function ColorField({
  label,
  pickerLabel,
  value,
  fallback,
  onChange,
  onBlur,
  error,
  id,
  disabled,
  'data-testid': testId,
}: ColorFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const swatch = isHexColor(value) ? value.toLowerCase() : fallback;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={inputId} className="text-sm font-medium text-gray-900">
        {label}
      </label>
      <div className="flex items-center gap-2">
        <span
          className={cn(
            'relative size-10 shrink-0 overflow-hidden rounded-control border border-gray-300 shadow-[inset_0_0_0_2px_white]',
            'focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-brand-600',
          )}
          style={{ backgroundColor: swatch }}
        >
          <input
            type="color"
            aria-label={pickerLabel}
            value={swatch}
            disabled={disabled}
            onChange={(event) => onChange(event.target.value.toLowerCase())}
            onBlur={onBlur}
            className="absolute inset-0 size-full cursor-pointer opacity-0 disabled:cursor-not-allowed"
            data-testid={testId ? `${testId}-picker` : undefined}
          />
        </span>
        <input
          id={inputId}
          type="text"
          inputMode="text"
          autoComplete="off"
          spellCheck={false}
          maxLength={7}
          value={value}
          disabled={disabled}
          onChange={(event) => onChange(event.target.value)}
          onBlur={() => {
            const whole = normaliseHex(value);
            if (whole !== value) onChange(whole);
            onBlur?.();
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${inputId}-error` : undefined}
          data-testid={testId}
          className={cn(
            'h-10 w-full min-w-0 rounded-control border bg-white px-3 font-mono text-sm text-gray-900 tabular-nums transition-colors',
            'focus-visible:outline-2 focus-visible:outline-offset-0 disabled:bg-gray-50',
            error
              ? 'border-error-600 focus-visible:outline-error-600'
              : 'border-gray-300 hover:border-gray-400 focus-visible:border-brand-600 focus-visible:outline-brand-600',
          )}
        />
      </div>
      {error ? (
        <p id={`${inputId}-error`} className="text-sm text-error-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
