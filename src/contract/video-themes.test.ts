import { describe, expect, it } from 'vitest';
import { DEFAULT_VIDEO_STYLE } from './constants.js';
import { contrastRatio, DEFAULT_THEME, matchingTheme, VIDEO_THEMES } from './video-themes.js';

describe('video themes', () => {
  it('pair every card background with a question colour of at least 7:1 contrast', () => {
    for (const theme of VIDEO_THEMES) expect(contrastRatio(theme.style.background_color, theme.style.font_color_question), theme.id).toBeGreaterThanOrEqual(7);
  });
  it('start a new company on the first theme', () => {
    expect(matchingTheme(DEFAULT_VIDEO_STYLE)?.id).toBe(DEFAULT_THEME.id);
    expect(matchingTheme({ ...DEFAULT_VIDEO_STYLE, background_color: '#000000' })).toBeUndefined();
  });
  it('measure contrast as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#777777')).toBeCloseTo(1, 5);
  });
});
