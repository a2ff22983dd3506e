import { useTranslation } from 'react-i18next';
import { CheckIcon } from '../../../components/icons';
import { cn } from '../../../lib/cn';

export interface StepIndicatorProps {
  steps: string[];
  /** Index of the current step. */
  current: number;
}

/** Numbered steps with the current one highlighted and the finished ones ticked. */
export function StepIndicator({ steps, current }: StepIndicatorProps) {
  const { t } = useTranslation();
  return (
    <ol aria-label={t('exportVideo.steps.label')} className="flex items-center gap-2 text-sm" data-testid="export-steps">
      {steps.map((label, index) => {
        const done = index < current;
        const active = index === current;
        return (
          <li key={label} className="flex min-w-0 items-center gap-2" aria-current={active ? 'step' : undefined}>
            <span
              className={cn(
                'flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold tabular-nums transition-colors',
                done && 'bg-brand-700 text-white',
                active && 'bg-brand-50 text-brand-800 ring-2 ring-brand-600',
                !done && !active && 'bg-gray-100 text-gray-500',
              )}
              aria-hidden="true"
            >
              {done ? <CheckIcon className="size-3.5" /> : index + 1}
            </span>
            <span className={cn('truncate', active ? 'font-medium text-gray-900' : 'hidden text-gray-500 sm:inline')}>
              {label}
              {done ? <span className="sr-only">, {t('exportVideo.steps.done')}</span> : null}
              {active ? <span className="sr-only">, {t('exportVideo.steps.current')}</span> : null}
            </span>
            {index < steps.length - 1 ? <span aria-hidden="true" className="h-px w-4 shrink-0 bg-gray-300 sm:w-8" /> : null}
          </li>
        );
      })}
    </ol>
  );
}
