import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { CAPTION_STYLES, type TCaptionStyle } from '../../../../contract/constants.js';
import { cn } from '../../../lib/cn';

/**
 * How subtitles are drawn (issue 31): a line at a time, or word by word with the spoken word lit in the
 * company's colour. Two radio cards (arrow keys move between them), each with a one-line explanation.
 */
export function CaptionStyleField({ value, onChange }: { value: TCaptionStyle; onChange: (style: TCaptionStyle) => void }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <fieldset className="mt-5" data-testid="caption-style">
      <legend className="text-sm font-medium text-gray-900">{t('settings.video.captionStyle.label')}</legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {CAPTION_STYLES.map((style) => {
          const checked = value === style;
          return (
            <label
              key={style}
              className={cn(
                'flex cursor-pointer gap-3 rounded-control border p-3 transition-colors',
                'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600',
                checked ? 'border-brand-600 bg-brand-50 ring-1 ring-brand-600' : 'border-gray-200 hover:border-gray-300',
              )}
            >
              <input
                type="radio"
                name={`caption-style-${id}`}
                value={style}
                checked={checked}
                onChange={() => onChange(style)}
                aria-labelledby={`caption-style-${id}-${style}-name`}
                aria-describedby={`caption-style-${id}-${style}`}
                className="mt-0.5 size-4 shrink-0 accent-brand-600"
                data-testid={`caption-style-${style}`}
              />
              <span className="min-w-0">
                <span id={`caption-style-${id}-${style}-name`} className="block text-sm font-medium text-gray-950">{t(`settings.video.captionStyle.${style}`)}</span>
                <span id={`caption-style-${id}-${style}`} className="mt-0.5 block text-sm text-gray-600">
                  {t(`settings.video.captionStyle.${style}Hint`)}
                </span>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
