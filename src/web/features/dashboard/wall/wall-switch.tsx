import { cn } from '../../../lib/cn';

interface WallSwitchProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** The accessible name (names the video). */
  label: string;
  /** The short visible text beside the switch (hidden on phones). */
  text: string;
  disabled?: boolean;
  'data-testid'?: string;
}

/** An on/off switch (`role="switch"`): Space or Enter toggles it, its state is said and shown, not by colour alone. */
export function WallSwitch({ checked, onChange, label, text, disabled = false, 'data-testid': testId }: WallSwitchProps) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      disabled={disabled}
      onClick={() => onChange(!checked)}
      data-testid={testId}
      data-checked={checked ? 'true' : 'false'}
      className="group inline-flex shrink-0 items-center gap-2 rounded-control px-1 py-1 text-sm text-gray-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:opacity-50"
    >
      <span className="max-sm:sr-only">{text}</span>
      <span
        aria-hidden="true"
        className={cn(
          'relative inline-flex h-6 w-10 items-center rounded-full transition-colors motion-reduce:transition-none',
          checked ? 'bg-brand-700' : 'bg-gray-300 group-hover:bg-gray-400',
        )}
      >
        <span
          className={cn(
            'inline-block size-5 rounded-full bg-white shadow-sm transition-transform motion-reduce:transition-none',
            checked ? 'translate-x-[18px]' : 'translate-x-0.5',
          )}
        />
      </span>
    </button>
  );
}
