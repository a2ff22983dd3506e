import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { TTranscriptionSegment } from '../../../../contract/api/transcription.schema.js';

/**
 * A line's start and end in seconds, to the millisecond (decision 167). Each field commits when it
 * loses the focus or on Enter, so that typing '1.' is not undone on the way; it shows the stored value
 * again after each change (its key).
 */
export function CueTimes({ cue, index, disabled, onTime }: { cue: TTranscriptionSegment; index: number; disabled: boolean; onTime(index: number, edge: 'start' | 'end', seconds: number): void }) {
  const { t } = useTranslation();
  const id = useId();
  const field = (edge: 'start' | 'end') => {
    const value = cue[edge];
    const commit = (raw: string) => {
      const seconds = Number(raw.replace(',', '.'));
      if (raw.trim() !== '' && Number.isFinite(seconds) && seconds !== value) onTime(index, edge, seconds);
    };
    return (
      <div className="flex items-center gap-1.5">
        <label htmlFor={`${id}-${edge}`} className="text-xs font-medium text-gray-600">
          {t(edge === 'start' ? 'transcription.typed.startTime' : 'transcription.typed.endTime')}
        </label>
        <input
          key={value}
          id={`${id}-${edge}`}
          type="text"
          inputMode="decimal"
          defaultValue={String(value)}
          disabled={disabled}
          aria-describedby={`${id}-unit`}
          className="h-8 w-20 rounded-control border border-gray-300 bg-white px-2 text-sm text-gray-900 tabular-nums hover:border-gray-400 focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand-600"
          onBlur={(event) => commit(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              commit(event.currentTarget.value);
            }
          }}
          data-testid={`cue-${edge}`}
        />
      </div>
    );
  };
  return (
    <div className="flex flex-wrap items-center gap-3">
      {field('start')}
      {field('end')}
      <span id={`${id}-unit`} className="text-xs text-gray-500">
        {t('transcription.typed.seconds')}
      </span>
    </div>
  );
}
