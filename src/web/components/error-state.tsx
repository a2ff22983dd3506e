import { useTranslation } from 'react-i18next';
import { cn } from '../lib/cn';
import { Button } from './button';
import { AlertIcon, RefreshIcon } from './icons';

export interface ErrorStateProps {
  /** What happened, in one sentence. */
  message: string;
  /** Offers a retry when given; `retrying` shows it busy. */
  onRetry?: () => void;
  retrying?: boolean;
  className?: string;
  'data-testid'?: string;
}

/** Says a load failed and offers to try again (ui.md: error states with retry). */
export function ErrorState({ message, onRetry, retrying = false, className, 'data-testid': testId }: ErrorStateProps) {
  const { t } = useTranslation();
  return (
    <div
      role="alert"
      data-testid={testId}
      className={cn('flex flex-col items-center gap-4 rounded-card border border-error-200 bg-error-50 px-6 py-10 text-center', className)}
    >
      <span className="flex size-10 items-center justify-center rounded-full bg-white text-error-700 ring-1 ring-error-200">
        <AlertIcon className="size-5" />
      </span>
      <p className="max-w-md text-sm text-error-800">{message}</p>
      {onRetry && (
        <Button
          variant="secondary"
          size="sm"
          onClick={onRetry}
          loading={retrying}
          leadingIcon={<RefreshIcon className="size-4" />}
        >
          {t('dashboard.common.retry')}
        </Button>
      )}
    </div>
  );
}
