import { cn } from '../lib/cn';

/** A small circular spinner; decorative, the caller states the busy state (aria-busy or text). */
export function Spinner({ className }: { className?: string }) {
  return (
    <svg
      className={cn('size-5 animate-spin motion-reduce:animate-none', className)}
      viewBox="0 0 24 24"
      fill="none"
      aria-hidden="true"
    >
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.25" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}
