// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TCaptionStyle } from '../../../../contract/constants.js';
import { WORD_HIGHLIGHT_FALLBACK } from '../../../../contract/word-captions.js';
import i18n from '../../../i18n/i18n';
import { CaptionStyleField } from './caption-style-field';
import { PREVIEW_FRAMES } from './preview-layout';
import type { TPreviewStyle } from './settings-form';
import { PREVIEW_WORD_MS, WordCaptionFrame } from './word-caption-frame';

await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/** The caption style choice and the word-by-word preview (issue 31), with the real components and translations. */

const style = (o: Partial<TPreviewStyle> = {}): TPreviewStyle => ({
  question: { font: 'Arial', size: 40, color: '#ffffff', bold: true },
  subtitle: { font: 'Arial', size: 34, color: '#ffffff', bold: true, border: true },
  background: '#15171f',
  logoUrl: null,
  showLogo: false,
  ...o,
});

function Choice({ onPick }: { onPick: (s: TCaptionStyle) => void }) {
  const [value, setValue] = useState<TCaptionStyle>('line');
  return (
    <CaptionStyleField
      value={value}
      onChange={(s) => {
        setValue(s);
        onPick(s);
      }}
    />
  );
}

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('caption style field', () => {
  it('offers line by line and word by word as labelled radios, in English and French', async () => {
    const picked: TCaptionStyle[] = [];
    render(<Choice onPick={(s) => picked.push(s)} />);
    const group = screen.getByRole('group', { name: 'Caption style' });
    expect(group).toBeTruthy();
    const line = screen.getByRole('radio', { name: 'Line by line' }) as HTMLInputElement;
    const word = screen.getByRole('radio', { name: 'Word by word' }) as HTMLInputElement;
    expect(line.checked).toBe(true);
    expect(word.getAttribute('aria-describedby') && document.getElementById(word.getAttribute('aria-describedby')!)?.textContent).toMatch(/each word lit/);
    fireEvent.click(word);
    expect(word.checked).toBe(true);
    expect(picked).toEqual(['word']);
    cleanup();
    await act(() => i18n.changeLanguage('fr'));
    render(<Choice onPick={() => {}} />);
    expect(screen.getByRole('radio', { name: 'Mot à mot' })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Style des sous-titres' })).toBeTruthy();
    await act(() => i18n.changeLanguage('en'));
  });
});

describe('word-by-word preview', () => {
  it('lights one word at a time in the highlight colour, moving on through the sample', () => {
    vi.useFakeTimers();
    render(<WordCaptionFrame style={style({ background: '#ff6600' })} text="The team was quick, friendly and really listened." frame={PREVIEW_FRAMES.vertical} />);
    const svg = screen.getByTestId('preview-word-captions');
    expect(svg.getAttribute('data-highlight')).toBe('#ff6600');
    const lines = screen.getAllByTestId('preview-word-line');
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines.length).toBeLessThanOrEqual(2);
    const litWord = () => {
      const lit = svg.querySelectorAll('[data-lit="true"]');
      expect(lit).toHaveLength(1);
      expect(lit[0]!.getAttribute('fill')).toBe('#ff6600');
      return lit[0]!.textContent!.trim();
    };
    expect(litWord()).toBe('The');
    act(() => vi.advanceTimersByTime(PREVIEW_WORD_MS));
    expect(litWord()).toBe('team');
    // The other words keep the subtitle colour.
    expect([...svg.querySelectorAll('tspan:not([data-lit])')].every((t) => t.getAttribute('fill') === '#ffffff')).toBe(true);
  });

  it('uses the accent when the card colours would not stand out over a video', () => {
    render(<WordCaptionFrame style={style()} text="Great team" frame={PREVIEW_FRAMES.answer} />);
    expect(screen.getByTestId('preview-word-captions').getAttribute('data-highlight')).toBe(WORD_HIGHLIGHT_FALLBACK);
    expect(screen.getByRole('img', { name: 'Word-by-word captions over a video: Great team' })).toBeTruthy();
  });
});
