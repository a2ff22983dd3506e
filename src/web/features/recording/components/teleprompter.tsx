import { useId, useLayoutEffect, useRef } from 'react';
import { useRecordingT } from '../../../i18n/recording-i18n';
import { cn } from '../../../lib/cn';

export const NOTES_FONT = { min: 14, max: 40, step: 2, default: 20 } as const;
/** The notes box grows with its text up to about this height, then scrolls. */
export const NOTES_MAX_HEIGHT_PX = 130;

export function clampFontSize(size: number): number {
  if (!Number.isFinite(size)) return NOTES_FONT.default;
  return Math.min(NOTES_FONT.max, Math.max(NOTES_FONT.min, Math.round(size)));
}

export interface TeleprompterPanelProps {
  notes: string;
  fontSize: number;
  onNotesChange: (notes: string) => void;
  onFontSizeChange: (size: number) => void;
  id: string;
}

/** The notes of the current question: a growing text box, the text size, and a preview at that size. */
export function TeleprompterPanel({ notes, fontSize, onNotesChange, onFontSizeChange, id }: TeleprompterPanelProps) {
  const { t } = useRecordingT();
  const textareaId = useId();
  const sizeId = useId();
  const ref = useRef<HTMLTextAreaElement>(null);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight + 2, NOTES_MAX_HEIGHT_PX)}px`;
  }, [notes]);

  return (
    <section id={id} className="rounded-card border border-gray-200 bg-white px-4 py-4 sm:px-5" aria-labelledby={`${id}-title`} data-testid="teleprompter">
      <h2 id={`${id}-title`} className="text-base font-semibold text-gray-950">
        {t('recording.notes.title')}
      </h2>
      <p className="mt-1 text-sm text-gray-600">{t('recording.notes.hint')}</p>
      <label htmlFor={textareaId} className="mt-4 block text-sm font-medium text-gray-900">
        {t('recording.notes.label')}
      </label>
      <textarea
        id={textareaId}
        ref={ref}
        rows={2}
        value={notes}
        maxLength={2000}
        placeholder={t('recording.notes.placeholder')}
        onChange={(e) => onNotesChange(e.target.value)}
        data-testid="notes-input"
        className="mt-1.5 block w-full resize-none rounded-control border border-gray-300 bg-white px-3 py-2 text-base text-gray-900 placeholder:text-gray-400 hover:border-gray-400 focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand-600 sm:text-sm"
        style={{ maxHeight: NOTES_MAX_HEIGHT_PX }}
      />
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <span id={sizeId} className="text-sm font-medium text-gray-900">
          {t('recording.notes.fontSize')}
        </span>
        <div className="inline-flex items-center rounded-control border border-gray-300" role="group" aria-labelledby={sizeId}>
          <button
            type="button"
            className="h-9 w-10 rounded-l-control text-sm font-semibold text-gray-700 hover:bg-gray-50 disabled:opacity-40"
            onClick={() => onFontSizeChange(clampFontSize(fontSize - NOTES_FONT.step))}
            disabled={fontSize <= NOTES_FONT.min}
            aria-label={t('recording.notes.smaller')}
            data-testid="notes-smaller"
          >
            A−
          </button>
          <output className="w-14 border-x border-gray-300 text-center text-sm tabular-nums text-gray-900" aria-live="polite" data-testid="notes-font-size">
            {fontSize}&nbsp;px
          </output>
          <button
            type="button"
            className="h-9 w-10 rounded-r-control text-base font-semibold text-gray-700 hover:bg-gray-50 disabled:opacity-40"
            onClick={() => onFontSizeChange(clampFontSize(fontSize + NOTES_FONT.step))}
            disabled={fontSize >= NOTES_FONT.max}
            aria-label={t('recording.notes.larger')}
            data-testid="notes-larger"
          >
            A+
          </button>
        </div>
      </div>
      <p className="mt-4 text-sm font-medium text-gray-900">{t('recording.notes.preview')}</p>
      <div
        className="mt-1.5 max-h-40 overflow-auto rounded-control bg-gray-900 px-4 py-3 whitespace-pre-wrap text-white"
        style={{ fontSize, lineHeight: 1.35 }}
        data-testid="notes-preview"
      >
        {notes.trim() ? notes : <span className="text-gray-400">{t('recording.notes.previewEmpty')}</span>}
      </div>
    </section>
  );
}

/** The notes over the top of the camera, where the eyes stay close to the lens. */
export function TeleprompterOverlay({ notes, fontSize, className }: { notes: string; fontSize: number; className?: string }) {
  if (!notes.trim()) return null;
  return (
    <div
      className={cn('pointer-events-none absolute inset-x-0 top-0 max-h-[45%] overflow-hidden bg-gray-950/60 px-4 py-3 whitespace-pre-wrap text-white', className)}
      style={{ fontSize, lineHeight: 1.3 }}
      data-testid="notes-overlay"
      aria-hidden="true"
    >
      {notes}
    </div>
  );
}
