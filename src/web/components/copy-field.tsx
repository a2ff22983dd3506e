import { useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button';
import { CheckIcon } from './icons';
import { cn } from '../lib/cn';
import { useCopied } from '../lib/use-copied';

interface CopyFieldProps {
  label: string;
  hint: string;
  value: string;
  copyLabel: string;
  multiline?: boolean;
  /** Lines of the multiline field (4 by default). */
  rows?: number;
  testId: string;
  copyTestId: string;
}

/**
 * A read-only value with its label and a Copy button that says 'Copied' for a moment (and announces it):
 * a share link, an embed code. Without clipboard access it selects the text for Ctrl+C.
 */
export function CopyField({ label, hint, value, copyLabel, multiline = false, rows = 4, testId, copyTestId }: CopyFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const field = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  // No clipboard access (an insecure origin, a refused permission): the text is selected for Ctrl+C.
  const { copied, copy: copyText } = useCopied(() => {
    field.current?.focus();
    field.current?.select();
    return document.execCommand?.('copy') ?? false;
  });
  const copy = () => copyText(value);

  const classes = cn(
    'w-full min-w-0 rounded-control border border-gray-300 bg-gray-50 px-3 text-sm text-gray-900',
    'focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand-600',
    multiline ? 'resize-none py-2 font-mono text-xs leading-5 break-all' : 'h-10',
  );
  const select = () => field.current?.select();

  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-gray-900">
        {label}
      </label>
      <div className={cn('flex flex-col gap-2 sm:flex-row', multiline ? 'sm:items-start' : 'sm:items-center')}>
        {multiline ? (
          <textarea ref={field} id={id} readOnly rows={rows} value={value} onFocus={select} aria-describedby={`${id}-hint`} className={classes} data-testid={testId} />
        ) : (
          <input ref={field} id={id} readOnly value={value} onFocus={select} aria-describedby={`${id}-hint`} className={classes} data-testid={testId} />
        )}
        <Button
          variant="secondary"
          onClick={() => void copy()}
          leadingIcon={copied ? <CheckIcon className="size-4 text-completed-700" /> : undefined}
          className="shrink-0 self-start sm:min-w-28 sm:self-auto"
          data-testid={copyTestId}
          data-copied={copied ? 'true' : 'false'}
        >
          {copied ? t('copyField.copied') : copyLabel}
        </Button>
      </div>
      <p id={`${id}-hint`} className="text-xs text-gray-500">
        {hint}
      </p>
      <span className="sr-only" aria-live="polite">
        {copied ? t('copyField.copiedAnnouncement', { what: label }) : ''}
      </span>
    </div>
  );
}
