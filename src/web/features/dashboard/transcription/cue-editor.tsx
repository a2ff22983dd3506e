import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { SEGMENT_TEXT_MAX_LENGTH } from '../../../../contract/api/transcription.schema.js';
import type { TTranscription } from '../../../../contract/api/transcription.schema.js';
import { shortTime } from '../../../../contract/subtitles.js';
import { PlayIcon, TrashIcon } from '../../../components/icons';
import { TextArea } from '../../../components/text-area';
import { cn } from '../../../lib/cn';
import { CueTimes } from './cue-times';

/** The edits of a line's times and of the lines themselves (the single review, decision 167). */
export interface CueTiming {
  onTime(index: number, edge: 'start' | 'end', seconds: number): void;
  onSplit(index: number): void;
  onJoin(index: number): void;
  onRemove(index: number): void;
}

export interface CueEditorProps {
  cues: TTranscription;
  /** The cues as transcribed, to mark the lines that were changed. */
  original?: TTranscription | undefined;
  onChange: (index: number, text: string) => void;
  disabled?: boolean;
  /** The line showing in the player (highlighted), when there is a player. */
  activeIndex?: number;
  /** Moves the player to a line (its play button), when there is a player. */
  onSeek?: ((index: number) => void) | undefined;
  /** Editable times, split, join and remove; without it, times come from the audio and are not editable. */
  timing?: CueTiming | undefined;
  /** The line whose field takes the focus (a line just added). */
  focusIndex?: number | null;
  /** The line at fault and what is wrong with it, shown under its field. */
  problem?: { index: number; text: string } | null;
}

/**
 * The cues of one answer: each with its start and end (mm:ss.ms, spec §9) as the label of an editable
 * text field (test id `cue-text`). With a player, each line has a button that seeks to it and the line
 * showing is highlighted (decision 166); with `timing`, its times can be set and lines split, joined
 * and removed (decision 167).
 */
export function CueEditor({ cues, original, onChange, disabled = false, activeIndex = -1, onSeek, timing, focusIndex = null, problem = null }: CueEditorProps) {
  const { t } = useTranslation();
  const idPrefix = useId();
  return (
    <ol className={cn('flex flex-col', onSeek || timing ? 'gap-2' : 'gap-4')} data-testid="cue-list">
      {cues.map((cue, index) => {
        const start = shortTime(cue.start);
        const end = shortTime(cue.end);
        const edited = original?.[index] !== undefined && original[index]!.text !== cue.text;
        const active = index === activeIndex;
        return (
          <li
            key={`${cue.start}-${index}`}
            className={cn(
              'relative tabular-nums',
              (onSeek || timing) && 'rounded-card border px-3 pt-2.5 pb-3 transition-colors',
              (onSeek || timing) && (active ? 'border-brand-300 bg-brand-50 ring-1 ring-brand-200' : 'border-gray-200 bg-white'),
            )}
            data-testid="cue-row"
            data-active={active || undefined}
            aria-current={active ? 'true' : undefined}
          >
            {onSeek && (
              <button
                type="button"
                onClick={() => onSeek(index)}
                className="absolute top-1.5 right-2 inline-flex h-7 items-center gap-1 rounded-control px-2 text-xs font-medium text-brand-800 hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-600"
                aria-label={t('transcription.player.seek', { index: index + 1, start })}
                data-testid="cue-seek"
              >
                <PlayIcon className="size-3.5" aria-hidden="true" />
                {start}
              </button>
            )}
            <TextArea
              id={`${idPrefix}-cue-${index}`}
              label={t('transcription.cueLabel', { index: index + 1, start, end })}
              value={cue.text}
              rows={2}
              maxLength={SEGMENT_TEXT_MAX_LENGTH}
              disabled={disabled}
              spellCheck
              autoFocus={focusIndex === index}
              error={problem?.index === index ? problem.text : undefined}
              // The field grows with its text where the browser can (field-sizing), from two lines.
              className={cn('[&_textarea]:min-h-16 [&_textarea]:[field-sizing:content]', edited && '[&_textarea]:border-brand-400 [&_textarea]:bg-brand-50/40', onSeek && '[&_label]:pr-24')}
              onChange={(event) => onChange(index, event.target.value)}
              data-testid="cue-text"
              data-edited={edited || undefined}
            />
            {timing && (
              <div className="mt-2 flex flex-wrap items-end justify-between gap-2">
                <CueTimes cue={cue} index={index} disabled={disabled} onTime={timing.onTime} />
                <div className="flex flex-wrap gap-1">
                  <button type="button" className={lineAction} disabled={disabled} onClick={() => timing.onSplit(index)} data-testid="cue-split">
                    {t('transcription.typed.split')}
                  </button>
                  {index < cues.length - 1 && (
                    <button type="button" className={lineAction} disabled={disabled} onClick={() => timing.onJoin(index)} data-testid="cue-join">
                      {t('transcription.typed.join')}
                    </button>
                  )}
                  <button
                    type="button"
                    className={cn(lineAction, 'px-2 hover:text-error-700')}
                    disabled={disabled}
                    onClick={() => timing.onRemove(index)}
                    aria-label={t('transcription.typed.remove', { index: index + 1 })}
                    data-testid="cue-remove"
                  >
                    <TrashIcon className="size-4" aria-hidden="true" />
                  </button>
                </div>
              </div>
            )}
          </li>
        );
      })}
    </ol>
  );
}

const lineAction =
  'inline-flex h-8 items-center rounded-control px-2.5 text-sm font-medium text-gray-700 hover:bg-gray-100 hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:opacity-50';

/** The same cues with one text replaced. */
export function withCueText(cues: TTranscription, index: number, text: string): TTranscription {
  return cues.map((cue, i) => (i === index ? { ...cue, text } : cue));
}

/** How many cues differ from their transcribed text. */
export function countEdited(cues: TTranscription, original: TTranscription): number {
  return cues.reduce((n, cue, i) => n + (original[i] !== undefined && original[i]!.text !== cue.text ? 1 : 0), 0);
}
