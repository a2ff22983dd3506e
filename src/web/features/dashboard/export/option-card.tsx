import type { ReactNode } from 'react';
import { cn } from '../../../lib/cn';

export interface OptionCardProps {
  name: string;
  value: string;
  checked: boolean;
  onSelect: () => void;
  title: ReactNode;
  hint?: ReactNode;
  /** Something on the card's side (a badge, a ratio). */
  aside?: ReactNode;
  /** A picture above the text (a video still). */
  media?: ReactNode;
  disabled?: boolean;
  'data-testid'?: string;
}

/** A radio button drawn as a selectable card; the native input keeps keyboard and screen readers right. */
export function OptionCard({ name, value, checked, onSelect, title, hint, aside, media, disabled, 'data-testid': testId }: OptionCardProps) {
  return (
    <label
      className={cn(
        'relative flex cursor-pointer flex-col gap-3 rounded-card border bg-white p-3 transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600',
        checked ? 'border-brand-600 ring-1 ring-brand-600' : 'border-gray-200 hover:border-gray-300',
        disabled && 'cursor-not-allowed opacity-60',
      )}
      data-testid={testId}
      data-checked={checked || undefined}
    >
      <input
        type="radio"
        name={name}
        value={value}
        checked={checked}
        onChange={onSelect}
        disabled={disabled}
        className="sr-only"
      />
      {media}
      <span className="flex items-start gap-3">
        <span
          aria-hidden="true"
          className={cn(
            'mt-0.5 flex size-4 shrink-0 items-center justify-center rounded-full border',
            checked ? 'border-brand-600 bg-brand-600' : 'border-gray-300 bg-white',
          )}
        >
          {checked ? <span className="size-1.5 rounded-full bg-white" /> : null}
        </span>
        <span className="min-w-0 flex-1">
          <span className="block text-sm font-medium text-gray-900">{title}</span>
          {hint ? <span className="mt-0.5 block text-sm text-gray-600">{hint}</span> : null}
        </span>
        {aside}
      </span>
    </label>
  );
}
