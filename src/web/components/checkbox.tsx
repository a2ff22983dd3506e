import { useId } from 'react';
import type { InputHTMLAttributes, Ref } from 'react';
import { cn } from '../lib/cn';

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: string;
  ref?: Ref<HTMLInputElement>;
}

/** A native checkbox in the brand colour, with its label as the click target. */
export function Checkbox({ label, id, className, ref, ...props }: CheckboxProps) {
  const generated = useId();
  const inputId = id ?? generated;
  return (
    <div className={cn('flex items-center gap-2.5', className)}>
      <input
        ref={ref}
        id={inputId}
        type="checkbox"
        className="size-4 shrink-0 cursor-pointer accent-brand-700"
        {...props}
      />
      <label htmlFor={inputId} className="cursor-pointer text-sm text-gray-700 select-none">
        {label}
      </label>
    </div>
  );
}
