import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_THEME, VIDEO_THEMES } from '../../../../contract/video-themes.js';
import type { VideoTheme } from '../../../../contract/video-themes.js';
import { cn } from '../../../lib/cn';
import { CheckIcon } from '../../../components/icons';
import { cssFamily, previewFont } from './preview-fonts';

export interface ThemePickerProps {
  /** The theme whose values the form holds, if any (matchingTheme). */
  selected: VideoTheme['id'] | null;
  onPick: (theme: VideoTheme) => void;
  /** Labelled by this heading (the section's title). */
  labelledBy: string;
  describedBy?: string;
}

/** A small card in a theme's colours and question font: the look at a glance. */
function ThemeSwatch({ theme }: { theme: VideoTheme }) {
  const { style } = theme;
  const font = previewFont(style.font_style_question);
  return (
    <span
      aria-hidden="true"
      className="flex aspect-video w-full flex-col items-center justify-center gap-1 overflow-hidden rounded-[calc(var(--radius-control)-2px)] px-2 ring-1 ring-gray-900/10"
      style={{ backgroundColor: style.background_color }}
    >
      <span
        className="text-center text-base leading-none"
        style={{
          color: style.font_color_question,
          fontFamily: cssFamily(font),
          fontWeight: style.font_bold_question && font.hasBold ? 700 : 400,
          fontSynthesis: 'none',
        }}
      >
        Aa
      </span>
      <span className="h-1 w-3/5 rounded-full opacity-60" style={{ backgroundColor: style.font_color_question }} />
      <span className="h-1 w-2/5 rounded-full opacity-40" style={{ backgroundColor: style.font_color_question }} />
    </span>
  );
}

/**
 * The ready-made looks (src/contract/video-themes.ts) as a radio group: native radios, so arrow keys move
 * between them and pick, as in any radio group. Picking one fills the style fields; the theme whose values
 * all match the form shows as picked.
 */
export function ThemePicker({ selected, onPick, labelledBy, describedBy }: ThemePickerProps) {
  const { t } = useTranslation();
  const name = `theme-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  return (
    <div
      role="radiogroup"
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      className="grid grid-cols-2 gap-3 sm:grid-cols-4"
      data-testid="theme-picker"
    >
      {VIDEO_THEMES.map((theme) => {
        const checked = selected === theme.id;
        return (
          <label
            key={theme.id}
            className={cn(
              'group relative flex cursor-pointer flex-col gap-2 rounded-control border bg-white p-1.5 transition-colors',
              'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600',
              checked ? 'border-brand-600 ring-1 ring-brand-600' : 'border-gray-200 hover:border-gray-300',
            )}
            data-testid={`theme-${theme.id}`}
            data-selected={checked ? 'true' : 'false'}
          >
            <input
              type="radio"
              name={name}
              value={theme.id}
              checked={checked}
              onChange={() => onPick(theme)}
              className="sr-only"
              data-testid={`theme-${theme.id}-input`}
            />
            <ThemeSwatch theme={theme} />
            {checked ? (
              <span className="absolute top-2.5 right-2.5 flex size-5 items-center justify-center rounded-full bg-brand-700 text-white shadow-sm ring-2 ring-white">
                <CheckIcon aria-hidden="true" className="size-3.5" />
              </span>
            ) : null}
            <span className="flex flex-wrap items-baseline justify-between gap-x-2 px-1 pb-0.5">
              <span className="text-sm font-medium text-gray-900">{t(`settings.video.themes.names.${theme.id}`)}</span>
              {theme.id === DEFAULT_THEME.id ? <span className="text-xs text-gray-500">{t('settings.video.themes.default')}</span> : null}
            </span>
          </label>
        );
      })}
    </div>
  );
}
