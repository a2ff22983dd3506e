import { useId } from 'react';
import type { ReactNode } from 'react';
import { cn } from '../lib/cn';

export interface SwitchFieldProps {
  label: string;
  hint?: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
  id?: string;
  className?: string;
  'data-testid'?: string;
}

/** An on/off setting: a switch (role switch, Space or Enter toggles it) with its label and a hint. */
export function SwitchField({
  label,
  hint,
  checked,
  onCheckedChange,
  disabled,
  id,
  className,
  'data-testid': testId,
}: SwitchFieldProps) {
  const generated = useId();
  const switchId = id ?? generated;
  return (
    <div className={cn('flex items-start justify-between gap-4', className)}>
      <div className="min-w-0">
        <label
          htmlFor={switchId}
          className={cn('text-sm font-medium text-gray-900', disabled ? 'cursor-not-allowed' : 'cursor-pointer')}
        >
          {label}
        </label>
        {hint ? (
          <p id={`${switchId}-hint`} className="mt-0.5 text-sm text-gray-500">
            {hint}
          </p>
        ) : null}
      </div>
      <button
        id={switchId}
        type="button"
        role="switch"
        aria-checked={checked}
        aria-describedby={hint ? `${switchId}-hint` : undefined}
        disabled={disabled}
        data-testid={testId}
        onClick={() => onCheckedChange(!checked)}
        className={cn(
          'relative mt-0.5 inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent transition-colors duration-150',
          'disabled:cursor-not-allowed disabled:opacity-50',
          checked ? 'bg-brand-700' : 'bg-gray-300',
        )}
      >
        <span
          aria-hidden="true"
          className={cn(
            'inline-block size-5 rounded-full bg-white shadow-sm ring-0 transition-transform duration-150 motion-reduce:transition-none',
            checked ? 'translate-x-5' : 'translate-x-0',
          )}
        />
      </button>
    </div>
  );
}
