import { describe, expect, it } from 'vitest';
import { LOGO_MIN_CONTRAST, logoContrast, logoContrastLow, logoOnPlate, luminanceContrast } from './logo-contrast.js';
import { luminance } from './video-themes.js';

describe('logo contrast (decision 172)', () => {
  it('is the WCAG ratio of two luminances, in either order', () => {
    expect(luminanceContrast(0, 1)).toBeCloseTo(21, 5);
    expect(luminanceContrast(1, 0)).toBeCloseTo(21, 5);
    expect(luminanceContrast(0.2, 0.2)).toBeCloseTo(1, 5);
    // #777777 on white is the textbook 4.48:1.
    expect(luminanceContrast(luminance('#777777'), 1)).toBeCloseTo(4.48, 2);
  });

  it('finds a dark logo hard to see on the dark default card, and easy on a light one', () => {
    const darkNavy = luminance('#1b2a4a');
    expect(logoContrast(darkNavy, '#15171f')!).toBeLessThan(LOGO_MIN_CONTRAST);
    expect(logoContrastLow(darkNavy, '#15171f')).toBe(true);
    expect(logoContrastLow(darkNavy, '#f5f1e8')).toBe(false);
    expect(logoContrastLow(luminance('#ffffff'), '#15171f')).toBe(false);
    expect(logoContrastLow(null, '#15171f')).toBe(false);
  });

  it('puts the logo on the plate automatically only when the plate helps, and obeys the company otherwise', () => {
    const dark = luminance('#101010');
    expect(logoOnPlate({ logoLuminance: dark, background: '#15171f', plate: 'auto' })).toBe(true);
    expect(logoOnPlate({ logoLuminance: dark, background: '#ffd23f', plate: 'auto' })).toBe(false);
    // A white logo on a white card: hard to see, but a white plate would not help.
    expect(logoOnPlate({ logoLuminance: 1, background: '#fafafa', plate: 'auto' })).toBe(false);
    expect(logoOnPlate({ logoLuminance: null, background: '#15171f', plate: 'auto' })).toBe(false);
    expect(logoOnPlate({ logoLuminance: dark, background: '#15171f', plate: 'off' })).toBe(false);
    expect(logoOnPlate({ logoLuminance: 1, background: '#15171f', plate: 'on' })).toBe(true);
  });
});
