import { useRecordingT } from '../../../i18n/recording-i18n';
import { CheckIcon } from '../../../components/icons';
import { cn } from '../../../lib/cn';

export const STEP_KEYS = ['information', 'recording', 'complete'] as const;
export type TVisibleStep = (typeof STEP_KEYS)[number];

/** The three steps of the spec (the device check belongs to Recording), the current one marked. */
export function StepIndicator({ current, width = 'md' }: { current: TVisibleStep; width?: 'sm' | 'md' }) {
  const { t } = useRecordingT();
  const currentIndex = STEP_KEYS.indexOf(current);
  return (
    <nav
      aria-label={t('recording.steps.label')}
      className={cn('mx-auto w-full px-4 pt-5 sm:px-6 sm:pt-6', width === 'sm' ? 'max-w-2xl' : 'max-w-3xl')}
    >
      <ol className="flex items-center gap-3" data-testid="step-indicator" data-step={current}>
        {STEP_KEYS.map((key, i) => {
          const state = i < currentIndex ? 'done' : i === currentIndex ? 'current' : 'upcoming';
          return (
            <li
              key={key}
              className={cn('flex min-w-0 items-center gap-2', state === 'current' ? 'flex-1' : 'flex-none sm:flex-1')}
              aria-current={state === 'current' ? 'step' : undefined}
            >
              <span
                className={cn(
                  'flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold',
                  state === 'done' && 'bg-completed-700 text-white',
                  state === 'current' && 'bg-brand-700 text-white',
                  state === 'upcoming' && 'border border-gray-300 bg-white text-gray-500',
                )}
                aria-hidden="true"
              >
                {state === 'done' ? <CheckIcon className="size-3.5" strokeWidth={2.5} /> : i + 1}
              </span>
              <span
                className={cn(
                  'truncate text-sm',
                  // On phones only the current step is named; the others keep their number or tick.
                  state === 'current' ? 'font-semibold text-gray-950' : 'text-gray-600 max-sm:sr-only',
                )}
              >
                {t(`recording.steps.${key}`)}
                {state === 'done' && <span className="sr-only"> ({t('recording.steps.done')})</span>}
                {state === 'current' && <span className="sr-only"> ({t('recording.steps.current')})</span>}
              </span>
              {i < STEP_KEYS.length - 1 && (
                <span
                  aria-hidden="true"
                  className={cn('hidden h-px flex-1 sm:block', i < currentIndex ? 'bg-completed-500' : 'bg-gray-200')}
                />
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
