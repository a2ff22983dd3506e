import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { SEGMENT_TEXT_MAX_LENGTH } from '../../../../contract/api/transcription.schema.js';
import type { TTranscription } from '../../../../contract/api/transcription.schema.js';
import { shortTime } from '../../../../contract/subtitles.js';
import { TextArea } from '../../../components/text-area';
import { cn } from '../../../lib/cn';

export interface CueEditorProps {
  cues: TTranscription;
  /** The cues as transcribed, to mark the lines that were changed. */
  original?: TTranscription | undefined;
  onChange: (index: number, text: string) => void;
  disabled?: boolean;
}

/**
 * The cues of one answer: each with its start and end (mm:ss.ms, spec §9) as the label of an editable
 * text field (test id `cue-text`). Times are not editable: they come from the audio.
 */
export function CueEditor({ cues, original, onChange, disabled = false }: CueEditorProps) {
  const { t } = useTranslation();
  const idPrefix = useId();
  return (
    <ol className="flex flex-col gap-4">
      {cues.map((cue, index) => {
        const start = shortTime(cue.start);
        const end = shortTime(cue.end);
        const edited = original?.[index] !== undefined && original[index]!.text !== cue.text;
        return (
          <li key={`${cue.start}-${index}`} className="tabular-nums">
            <TextArea
              id={`${idPrefix}-cue-${index}`}
              label={t('transcription.cueLabel', { index: index + 1, start, end })}
              value={cue.text}
              rows={2}
              maxLength={SEGMENT_TEXT_MAX_LENGTH}
              disabled={disabled}
              spellCheck
              // The field grows with its text where the browser can (field-sizing), from two lines.
              className={cn('[&_textarea]:min-h-16 [&_textarea]:[field-sizing:content]', edited && '[&_textarea]:border-brand-400 [&_textarea]:bg-brand-50/40')}
              onChange={(event) => onChange(index, event.target.value)}
              data-testid="cue-text"
              data-edited={edited || undefined}
            />
          </li>
        );
      })}
    </ol>
  );
}

/** The same cues with one text replaced. */
export function withCueText(cues: TTranscription, index: number, text: string): TTranscription {
  return cues.map((cue, i) => (i === index ? { ...cue, text } : cue));
}

/** How many cues differ from their transcribed text. */
export function countEdited(cues: TTranscription, original: TTranscription): number {
  return cues.reduce((n, cue, i) => n + (original[i] !== undefined && original[i]!.text !== cue.text ? 1 : 0), 0);
}
