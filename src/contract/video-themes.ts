/**
 * Ready-made looks for the videos (issue 17): each is a full set of the settings' style fields, picked in
 * the settings with the live preview. The first is what a new company starts with. Colour pairs have a
 * contrast ratio of at least 7:1 (WCAG AAA for text), checked by video-themes.test.ts; subtitles are
 * white with an outline on every theme, since they sit on the customer's video, not on the card.
 */
import type { TFontChoice } from './constants.js';

export interface VideoTheme {
  id: 'ink' | 'paper' | 'ocean' | 'sunshine';
  style: {
    background_color: string;
    font_color_question: string;
    font_style_question: TFontChoice;
    font_bold_question: boolean;
    font_size_question: number;
    font_color_subtitle: string;
    font_style_subtitle: TFontChoice;
    font_bold_subtitle: boolean;
    font_size_subtitle: number;
    subtitle_border: boolean;
  };
}

const SUBTITLES = { font_color_subtitle: '#ffffff', font_style_subtitle: 'Trebuchet MS', font_bold_subtitle: true, font_size_subtitle: 34, subtitle_border: true } as const;

export const VIDEO_THEMES: readonly VideoTheme[] = [
  { id: 'ink', style: { background_color: '#15171f', font_color_question: '#ffffff', font_style_question: 'Trebuchet MS', font_bold_question: true, font_size_question: 40, ...SUBTITLES } },
  { id: 'paper', style: { background_color: '#f5f1e8', font_color_question: '#1c2230', font_style_question: 'Georgia', font_bold_question: true, font_size_question: 40, ...SUBTITLES } },
  { id: 'ocean', style: { background_color: '#0b3954', font_color_question: '#ffffff', font_style_question: 'Verdana', font_bold_question: true, font_size_question: 36, ...SUBTITLES } },
  { id: 'sunshine', style: { background_color: '#ffd23f', font_color_question: '#1a1a1a', font_style_question: 'Arial Black', font_bold_question: false, font_size_question: 40, ...SUBTITLES } },
];

export const DEFAULT_THEME = VIDEO_THEMES[0]!;

/** Relative luminance of a #rrggbb colour (WCAG 2). */
export function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** WCAG contrast ratio of two #rrggbb colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The theme whose style fields all equal these (the settings show it as picked), if any. */
export function matchingTheme(style: Partial<Record<keyof VideoTheme['style'], unknown>>): VideoTheme | undefined {
  return VIDEO_THEMES.find((t) => (Object.keys(t.style) as (keyof VideoTheme['style'])[]).every((k) => String(style[k]).toLowerCase() === String(t.style[k]).toLowerCase()));
}
