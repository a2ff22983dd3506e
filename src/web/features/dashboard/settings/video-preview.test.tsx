// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EXPORT_PLATFORM_SPECS } from '../../../../contract/api/studio.schema.js';
import type { TCaptionStyle } from '../../../../contract/constants.js';
import { endCardLayout, fitCard, lowerThirdLayout, safeArea, subtitleBox } from '../../../../contract/frame-layout.js';
import { wordCaptionBox, wordCaptionClearance } from '../../../../contract/word-captions.js';
import i18n from '../../../i18n/i18n';
import { previewFont } from './preview-fonts';
import type { TPreviewStyle } from './settings-form';
import { PreviewPanel } from './video-preview';
import type { TPreviewFrame } from './video-preview';

await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * The live preview's 1:1 and 4:5 frames (issue 31): picked in the format switch, each frame has the
 * export's size and ratio, and the card, the subtitles (line and word by word), the lower-third and the
 * end card sit where the renderer's shared layout (frame-layout.ts) puts them for that kind of frame.
 */

const QUESTION = 'What did you like most about working with us?';
const SUBTITLE = 'The team was quick, friendly and really listened.';
const NAME = 'Jane Cooper';
// The panel's sample name and position (settings.preview.sampleName, sampleTitle).
const TITLE = 'Head of Sales, Northwind';

const STYLE: TPreviewStyle = {
  question: { font: 'Arial', size: 40, color: '#ffffff', bold: true },
  subtitle: { font: 'Verdana', size: 34, color: '#ffffff', bold: true, border: true },
  background: '#15171f',
  logoUrl: '/logo.png',
  showLogo: true,
  lowerThird: true,
  endCard: { text: 'Book your free visit today', address: 'acme-renovations.com' },
};

function Panel({ captionStyle = 'line', start = 'intro' }: { captionStyle?: TCaptionStyle; start?: TPreviewFrame }) {
  const [active, setActive] = useState<TPreviewFrame>(start);
  return (
    <PreviewPanel
      style={STYLE}
      question={QUESTION}
      longQuestion={QUESTION}
      subtitle={SUBTITLE}
      captionStyle={captionStyle}
      active={active}
      onActiveChange={setActive}
    />
  );
}

const FRAMES = {
  square: { ...EXPORT_PLATFORM_SPECS.square, kind: 'square' as const },
  portrait: { ...EXPORT_PLATFORM_SPECS.portrait, kind: 'portrait' as const },
};

const num = (el: Element, name: string) => Number(el.getAttribute(name));
const viewBox = (svg: Element) => svg.getAttribute('viewBox')!.split(' ').map(Number);

function pick(format: string) {
  fireEvent.click(screen.getByTestId(`preview-format-${format}`));
  expect((screen.getByTestId(`preview-format-${format}`) as HTMLInputElement).checked).toBe(true);
  expect(screen.getByTestId('settings-preview').getAttribute('data-format')).toBe(format);
}

beforeEach(async () => {
  // jsdom has no canvas: the preview measures with its average glyph width and the font's capital height.
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  await i18n.changeLanguage('en');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('format switch', () => {
  it('is one radio group of five formats, from the answer to 9:16, named in English and French', async () => {
    render(<Panel />);
    const group = screen.getByRole('radiogroup', { name: 'Video format' });
    const radios = within(group).getAllByRole('radio') as HTMLInputElement[];
    expect(radios.map((r) => r.value)).toEqual(['answer', 'landscape', 'square', 'portrait', 'vertical']);
    // One name for all: the browser moves between them with the arrow keys, as in any radio group.
    expect(new Set(radios.map((r) => r.name)).size).toBe(1);
    expect(radios.map((r) => r.checked)).toEqual([true, false, false, false, false]);
    expect(screen.getByRole('radio', { name: 'Square 1:1' })).toBe(radios[2]);
    expect(screen.getByRole('radio', { name: 'Portrait 4:5' })).toBe(radios[3]);
    expect(screen.getByRole('radio', { name: 'Answer original' })).toBe(radios[0]);
    pick('square');
    expect(screen.getByTestId('preview-format-hint').textContent).toBe('Instagram, LinkedIn, Facebook posts · 1080 × 1080 px');
    pick('portrait');
    expect(screen.getByTestId('preview-format-hint').textContent).toBe('Instagram and Facebook posts · 1080 × 1350 px');

    cleanup();
    await act(() => i18n.changeLanguage('fr'));
    render(<Panel />);
    expect(screen.getByRole('radiogroup', { name: 'Format de la vidéo' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Carré 1:1' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Portrait 4:5' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Réponse d’origine' })).toBeTruthy();
    pick('portrait');
    expect(screen.getByTestId('preview-format-hint').textContent).toBe('Posts Instagram et Facebook · 1080 × 1350 px');
  });
});

describe.each(['square', 'portrait'] as const)('the %s frame', (format) => {
  const frame = FRAMES[format];
  const ratio = format === 'square' ? 1 : 4 / 5;
  const safe = safeArea(frame.width, frame.height, frame.kind);

  it('draws the card and the line subtitles at the export size, laid out for that kind', () => {
    render(<Panel />);
    pick(format);
    const card = screen.getByTestId('preview-intro');
    expect(viewBox(card)).toEqual([0, 0, frame.width, frame.height]);
    expect(frame.width / frame.height).toBeCloseTo(ratio, 10);
    expect(card.getAttribute('data-kind')).toBe(frame.kind);

    // The card: the renderer's own fit, lines and logo band inside this frame's safe area.
    const fit = fitCard({ text: QUESTION, width: frame.width, height: frame.height, kind: frame.kind, size: STYLE.question.size, face: { font: 'Arial', bold: true }, logo: true });
    expect(num(card, 'data-font-size')).toBe(fit.fontSize);
    expect(fit.fontSize).toBe(80); // 40 on a 540-line frame, on a 1080-wide one
    const lines = screen.getAllByTestId('preview-question-line');
    expect(lines.map((l) => l.textContent)).toEqual(fit.lines.map((l) => l.text));
    expect(lines.map((l) => num(l, 'data-top'))).toEqual(fit.lines.map((l) => l.top));
    expect(lines.every((l) => num(l, 'x') === safe.x + safe.width / 2)).toBe(true);
    const logo = screen.getAllByTestId('preview-logo')[0]!;
    expect([num(logo, 'x'), num(logo, 'y'), num(logo, 'width'), num(logo, 'height')]).toEqual([fit.logoBox!.x, fit.logoBox!.y, fit.logoBox!.width, fit.logoBox!.height]);
    expect(fit.logoBox!.y).toBe(safe.y);
    expect(fit.lines[0]!.top).toBeGreaterThan(safe.y + fit.logoBox!.height);

    // Line subtitles: libass's size and margins for this frame, the last line's bottom on the bottom margin.
    const subtitle = screen.getByTestId('preview-subtitle');
    expect(viewBox(subtitle)).toEqual([0, 0, frame.width, frame.height]);
    expect(subtitle.getAttribute('data-kind')).toBe(frame.kind);
    const box = subtitleBox({ ...frame, size: STYLE.subtitle.size, border: true });
    expect(box.fontSize).toBe(68); // no boost outside 9:16
    const font = previewFont('Verdana');
    const subLines = within(subtitle).getAllByTestId('preview-subtitle-line');
    const last = subLines.at(-1)!;
    const em = num(last, 'font-size');
    expect(em).toBeCloseTo((box.fontSize * font.unitsPerEm) / (font.winAscent + font.winDescent), 6);
    expect(num(last, 'y') + (em * font.winDescent) / font.unitsPerEm).toBeCloseTo(frame.height - box.marginV, 6);
    expect(num(last, 'x')).toBe(box.marginL + (frame.width - box.marginL - box.marginR) / 2);
    expect(box.marginV).toBe(Math.round(frame.height * (format === 'square' ? 0.08 : 0.09)) + box.outline + box.shadow);
    // No app overlays on a feed post, and no switch for them.
    expect(screen.queryByTestId('preview-overlay-zones')).toBeNull();
    expect(screen.queryByTestId('preview-zones')).toBeNull();
  });

  it('draws word-by-word captions around the caption centre of this frame', () => {
    render(<Panel captionStyle="word" start="subtitle" />);
    pick(format);
    const svg = screen.getByTestId('preview-word-captions');
    expect(viewBox(svg)).toEqual([0, 0, frame.width, frame.height]);
    expect(svg.getAttribute('data-kind')).toBe(frame.kind);
    const box = wordCaptionBox({ ...frame, size: STYLE.subtitle.size, border: true });
    expect(box.centreY).toBe(Math.round(safe.y + safe.height * 0.75));
    const font = previewFont('Verdana');
    const lines = within(svg).getAllByTestId('preview-word-line');
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines.length).toBeLessThanOrEqual(2);
    const em = num(lines[0]!, 'font-size');
    const ascent = (em * font.winAscent) / font.unitsPerEm;
    // The block of lines (a line per libass size) is centred on the box's centre.
    const blockTop = num(lines[0]!, 'y') - ascent;
    expect(blockTop + (lines.length * box.fontSize) / 2).toBeCloseTo(box.centreY, 6);
    expect(lines.every((l) => num(l, 'x') === Math.round((box.marginL + frame.width - box.marginR) / 2))).toBe(true);
    expect(num(lines[0]!, 'stroke-width')).toBe(box.outline * 2);
  });

  it.each(['line', 'word'] as const)('draws the lower-third where the layout puts it, with %s captions', (captionStyle) => {
    render(<Panel captionStyle={captionStyle} start="lowerThird" />);
    pick(format);
    const svg = screen.getByTestId('preview-lower-third');
    expect(viewBox(svg)).toEqual([0, 0, frame.width, frame.height]);
    expect(svg.getAttribute('data-kind')).toBe(frame.kind);
    const keepAbove = captionStyle === 'word' ? wordCaptionClearance({ ...frame, size: STYLE.subtitle.size, border: true }) : undefined;
    const layout = lowerThirdLayout({ ...frame, name: NAME, title: TITLE, face: { font: 'Arial', bold: true }, subtitleSize: STYLE.subtitle.size, keepAbove });
    const plate = within(svg).getByTestId('preview-lower-third-plate').querySelector('rect')!;
    expect([num(plate, 'x'), num(plate, 'y'), num(plate, 'width'), num(plate, 'height')]).toEqual([layout.plate.x, layout.plate.y, layout.plate.width, layout.plate.height]);
    // Inside this frame's safe area, at its left edge.
    expect(layout.plate.x).toBe(safe.x);
    expect(layout.plate.y + layout.plate.height).toBeLessThanOrEqual(safe.y + safe.height);
    // Above the word captions.
    if (keepAbove !== undefined) expect(layout.plate.y + layout.plate.height).toBeLessThanOrEqual(keepAbove);
    const lines = within(svg).getAllByTestId('preview-lower-third-line');
    expect(lines.map((l) => l.textContent)).toEqual([NAME, TITLE]);
    expect(lines.map((l) => [num(l, 'x'), num(l, 'data-top'), num(l, 'font-size')])).toEqual([
      [layout.name.x, layout.name.top, layout.name.fontSize],
      [layout.title!.x, layout.title!.top, layout.title!.fontSize],
    ]);
    expect(layout.name.fontSize).toBe(Math.round(1080 * 0.05));
    // Line subtitles are drawn under it in the same frame; word captions have a frame of their own.
    expect(within(svg).queryAllByTestId('preview-subtitle-line')).toHaveLength(0);
    expect(svg.querySelectorAll('text[paint-order="stroke"]').length > 0).toBe(captionStyle === 'line');
  });

  it('draws the end card where the layout puts it', () => {
    render(<Panel start="endCard" />);
    pick(format);
    const svg = screen.getByTestId('preview-end-card');
    expect(viewBox(svg)).toEqual([0, 0, frame.width, frame.height]);
    expect(svg.getAttribute('data-kind')).toBe(frame.kind);
    const layout = endCardLayout({ ...frame, text: STYLE.endCard!.text, address: STYLE.endCard!.address, face: { font: 'Arial', bold: true }, size: STYLE.question.size, logo: true });
    const lines = within(svg).getAllByTestId('preview-end-card-line');
    expect(lines.map((l) => l.textContent)).toEqual(layout.lines.map((l) => l.text));
    expect(lines.map((l) => [num(l, 'data-top'), num(l, 'font-size')])).toEqual(layout.lines.map((l) => [l.top, l.fontSize]));
    expect(lines.every((l) => num(l, 'x') === layout.textBox.x + layout.textBox.width / 2)).toBe(true);
    expect(layout.textBox).toEqual({ x: safe.x, y: safe.y + layout.logoBox!.height + Math.round(1080 * 0.04), width: safe.width, height: safe.height - layout.logoBox!.height - Math.round(1080 * 0.04) });
    const logo = within(svg).getByTestId('preview-logo');
    expect([num(logo, 'x'), num(logo, 'y'), num(logo, 'width'), num(logo, 'height')]).toEqual([layout.logoBox!.x, layout.logoBox!.y, layout.logoBox!.width, layout.logoBox!.height]);
    // The address under the call to action, smaller.
    expect(lines.at(-1)!.textContent).toBe(STYLE.endCard!.address);
    expect(num(lines.at(-1)!, 'font-size')).toBeLessThan(num(lines[0]!, 'font-size'));
  });
});

describe('composed, not scaled', () => {
  it('places the pieces of 4:5 from its own safe area, not by stretching the 1:1 frame', () => {
    render(<Panel start="lowerThird" />);
    pick('square');
    const squarePlate = screen.getByTestId('preview-lower-third-plate').querySelector('rect')!;
    const square = { y: num(squarePlate, 'y'), height: num(squarePlate, 'height') };
    pick('portrait');
    const portraitPlate = screen.getByTestId('preview-lower-third-plate').querySelector('rect')!;
    // Same sizes (the short side is 1080 in both), placed against each frame's own bottom.
    expect(num(portraitPlate, 'height')).toBe(square.height);
    expect(FRAMES.square.height - square.y).not.toBe(FRAMES.portrait.height - num(portraitPlate, 'y'));
    const expected = lowerThirdLayout({ ...FRAMES.portrait, name: NAME, title: TITLE, face: { font: 'Arial', bold: true }, subtitleSize: STYLE.subtitle.size });
    expect(num(portraitPlate, 'y')).toBe(expected.plate.y);
    expect(num(portraitPlate, 'y')).not.toBe(Math.round(square.y * (FRAMES.portrait.height / FRAMES.square.height)));
  });
});
