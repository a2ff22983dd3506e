import { describe, expect, it } from 'vitest';
import { FONT_CHOICES } from './constants.js';
import { wordCaptionBox, wordCaptionClearance } from './word-captions.js';
import { breakableWords, CARD_MIN_SIZE, ELLIPSIS, endCardLayout, fitCard, lowerThirdLayout, fitCuesToFrame, frameScale, safeArea, subtitleBox, subtitleEm, textWidth, wrapMeasured, type Box, type CardFit, type FrameKind } from './frame-layout.js';

const LONG_280 =
  'We would love to hear the whole story: how did you first hear about our bakery, what made you choose our breakfasts, catering and birthday cakes over the others in town, and how did the team handle your last-minute changes on the day? Would you recommend us to a friend, and to whom?';
/** 500 characters of ordinary words (the question's limit). */
const LONG_500 = `${LONG_280} Tell us also what we could do better next time, what surprised you most, which of our products you would order again without thinking twice, and what you would change about the way we deliver. Thank you so much, all!`;
/** 500 characters of the widest letters: cannot fit even at the minimum size. */
const WIDE_500 = Array.from({ length: 101 }, () => 'MWMW').join(' ').slice(0, 500);

const FRAMES: [FrameKind, number, number][] = [
  ['answer', 640, 480],
  ['answer', 1280, 720],
  ['landscape', 1920, 1080],
  ['vertical', 1080, 1920],
];

const inside = (inner: Box, outer: Box) => inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width + 0.01 && inner.y + inner.height <= outer.y + outer.height + 0.01;
const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
/** Each line's drawn box: centred in the text box, from its top to the top + the font size. */
const lineBoxes = (fit: CardFit): Box[] => fit.lines.map((l) => ({ x: fit.textBox.x + (fit.textBox.width - l.width) / 2, y: l.top, width: l.width, height: fit.fontSize }));

describe('the card layout (fitCard)', () => {
  it('is tested with questions of the lengths said', () => {
    expect([LONG_280.length, LONG_500.length, WIDE_500.length]).toEqual([283, 500, 500]);
  });

  it.each(FRAMES)('fits a 280-character question whole on a %s %ix%i frame with the logo, clear of the logo band, inside the safe area', (kind, width, height) => {
    const fit = fitCard({ text: LONG_280, width, height, kind, size: 48, face: { font: 'Georgia', bold: true }, logo: true });
    expect(fit.truncated).toBe(false);
    expect(fit.lines.map((l) => l.text).join(' ')).toBe(LONG_280);
    const safe = safeArea(width, height, kind);
    expect(inside(fit.logoBox!, safe)).toBe(true);
    for (const box of lineBoxes(fit)) {
      expect(inside(box, fit.textBox)).toBe(true);
      expect(inside(box, safe)).toBe(true);
      expect(intersects(box, fit.logoBox!)).toBe(false);
    }
  });

  it('shrinks a 500-character question step by step and keeps it whole when it fits at the minimum size', () => {
    for (const [kind, width, height] of FRAMES) {
      const fit = fitCard({ text: LONG_500, width, height, kind, size: 48, face: { font: 'Georgia', bold: true }, logo: true });
      expect(fit.shrunk).toBe(true);
      expect(fit.truncated).toBe(false);
      expect(fit.lines.map((l) => l.text).join(' ')).toBe(LONG_500);
      expect(fit.lines.some((l) => l.text.includes(ELLIPSIS))).toBe(false);
      expect(fit.fontSize).toBeGreaterThanOrEqual(Math.round(CARD_MIN_SIZE * frameScale(width, height)));
      expect(fit.lines.length * fit.lineHeight).toBeLessThanOrEqual(fit.textBox.height);
    }
  });

  it('cuts with an ellipsis only past the minimum size, every kept line measured inside the box', () => {
    const fit = fitCard({ text: WIDE_500, width: 640, height: 480, kind: 'answer', size: 48, face: { font: 'Georgia', bold: true }, logo: true });
    expect(fit.fontSize).toBe(Math.round(CARD_MIN_SIZE * frameScale(640, 480)));
    expect(fit.truncated).toBe(true);
    expect(fit.lines.at(-1)!.text.endsWith(ELLIPSIS)).toBe(true);
    expect(fit.lines.slice(0, -1).every((l) => !l.text.includes(ELLIPSIS))).toBe(true);
    expect(fit.lines.length * fit.lineHeight).toBeLessThanOrEqual(fit.textBox.height);
    for (const box of lineBoxes(fit)) expect(inside(box, fit.textBox)).toBe(true);
    // What is kept is the beginning of the question.
    expect(WIDE_500.startsWith(fit.lines.map((l) => l.text).join(' ').slice(0, -1).trim())).toBe(true);
  });

  it('keeps a short question at its chosen size, scaled with the short side of the frame', () => {
    const at = (width: number, height: number, kind: FrameKind) => fitCard({ text: 'Why us?', width, height, kind, size: 40, face: { font: 'Trebuchet MS', bold: true }, logo: false });
    expect(at(960, 540, 'answer')).toMatchObject({ fontSize: 40, shrunk: false, truncated: false, logoBox: null });
    expect(at(1920, 1080, 'landscape').fontSize).toBe(80);
    expect(at(1080, 1920, 'vertical').fontSize).toBe(80);
  });

  it('measures every font of the settings, a bold face wider than or as wide as the regular one', () => {
    for (const font of FONT_CHOICES) {
      const regular = textWidth({ font, bold: false }, 'Testimonials', 100);
      expect(regular, font).toBeGreaterThan(300);
      expect(textWidth({ font, bold: true }, 'Testimonials', 100), font).toBeGreaterThanOrEqual(regular - 1);
    }
  });
});

describe('the subtitle box', () => {
  it('sits in the safe area: above the caption and button zones on 9:16', () => {
    const v = subtitleBox({ width: 1080, height: 1920, kind: 'vertical', size: 34, border: true });
    // 34 × 2 (short side 1080 / 540) × 1.25 on a vertical frame: 85 px, 4.4 % of the height.
    expect(v).toMatchObject({ fontSize: 85, marginR: Math.round(1080 * 0.14), shadowOpacity: 0.5 });
    expect(v.fontSize / 1920).toBeGreaterThan(0.04);
    expect(v.outline).toBeGreaterThan(0);
    // The outline and the shadow stay above the safe area's bottom edge too.
    expect(v.marginV).toBe(Math.round(1920 * 0.26) + v.outline + v.shadow);
    const plain = subtitleBox({ width: 1080, height: 1920, kind: 'vertical', size: 34, border: false });
    expect(plain).toMatchObject({ outline: 0, shadowOpacity: 0.69 });
    expect(subtitleBox({ width: 1920, height: 1080, kind: 'landscape', size: 34, border: true }).fontSize).toBe(68);
  });
});

describe('words that break', () => {
  it('never start a line with a French "?" or ":", with or without its no-break space', () => {
    expect(breakableWords('Pourquoi\u00a0? Parce que\u202f: « oui »')).toEqual(['Pourquoi\u00a0?', 'Parce', 'que\u202f:', '« oui »']);
    expect(breakableWords('Vraiment ? Oui !')).toEqual(['Vraiment ?', 'Oui !']);
    const face = { font: 'Arial', bold: false } as const;
    const lines = wrapMeasured('Qu’avez-vous pensé de notre accueil\u00a0?', textWidth(face, 'Qu’avez-vous pensé de notre accueil', 40) + 2, (s) => textWidth(face, s, 40));
    expect(lines.at(-1)).not.toMatch(/^\s*\?/);
    expect(lines.at(-1)).toContain('accueil\u00a0?');
  });
});

describe('cues on a frame', () => {
  const face = { font: 'Trebuchet MS', bold: true } as const;
  const cue = { start: 2, end: 8, text: 'Honestly, they made the whole thing easy from day one. I would recommend them to anyone, really.' };

  it('keep a cue whole where two lines hold it, and split it where they do not, sharing its time by length', () => {
    expect(fitCuesToFrame([cue], { width: 1920, height: 1080, kind: 'landscape', size: 34, border: true, face })).toEqual([cue]);
    const parts = fitCuesToFrame([cue], { width: 1080, height: 1920, kind: 'vertical', size: 34, border: true, face });
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.map((p) => p.text).join(' ')).toBe(cue.text);
    expect(parts[0]!.start).toBe(2);
    expect(parts.at(-1)!.end).toBe(8);
    for (let i = 1; i < parts.length; i++) expect(parts[i]!.start).toBe(parts[i - 1]!.end);
    const box = subtitleBox({ width: 1080, height: 1920, kind: 'vertical', size: 34, border: true });
    const em = subtitleEm(face, box.fontSize);
    for (const part of parts) expect(wrapMeasured(part.text, 1080 - box.marginL - box.marginR - 2 * box.outline, (s) => textWidth(face, s, em)).length).toBeLessThanOrEqual(2);
  });
});

describe('balanced lines', () => {
  it('leave no lone word on the last line of a card, keeping the number of lines', () => {
    const text = 'What was it like to work with our team, and what would you tell a friend who is thinking about hiring us?';
    const fit = fitCard({ text, width: 1920, height: 1080, kind: 'landscape', size: 40, face: { font: 'Arial Black', bold: false }, logo: true });
    const greedy = wrapMeasured(text, fit.textBox.width * 0.96, (s) => textWidth({ font: 'Arial Black', bold: false }, s, fit.fontSize));
    expect(greedy.at(-1)).toBe('us?');
    expect(fit.lines).toHaveLength(greedy.length);
    expect(fit.lines.at(-1)!.text.split(' ').length).toBeGreaterThan(2);
    expect(fit.lines.map((l) => l.text).join(' ')).toBe(text);
    const widths = fit.lines.map((l) => l.width);
    expect(Math.max(...widths) - Math.min(...widths)).toBeLessThan(Math.max(...widths) * 0.25);
  });
});

describe('lower-third and end card (issue 31)', () => {
  const face = { font: 'Arial', bold: true } as const;
  const EXTRA_FRAMES = [
    { width: 1280, height: 720, kind: 'answer' },
    { width: 1920, height: 1080, kind: 'landscape' },
    { width: 1080, height: 1920, kind: 'vertical' },
    { width: 640, height: 480, kind: 'answer' },
  ] as const;

  it.each(EXTRA_FRAMES)('puts the lower-third inside the safe area of $width×$height, above two lines of subtitles', (frame) => {
    const lt = lowerThirdLayout({ ...frame, name: 'Jane Cooper', title: 'Head of Sales', face, subtitleSize: 34 });
    const safe = safeArea(frame.width, frame.height, frame.kind);
    expect(lt.plate.x).toBeGreaterThanOrEqual(safe.x);
    expect(lt.plate.y).toBeGreaterThanOrEqual(safe.y);
    expect(lt.plate.x + lt.plate.width).toBeLessThanOrEqual(safe.x + safe.width);
    expect(lt.plate.y + lt.plate.height).toBeLessThanOrEqual(safe.y + safe.height);
    // Two lines of subtitles (libass's size each) fit between the plate and the subtitles' bottom margin.
    const sub = subtitleBox({ ...frame, size: 34, border: true });
    expect(frame.height - sub.marginV - (lt.plate.y + lt.plate.height)).toBeGreaterThanOrEqual(2 * sub.fontSize);
    // Even sizes and places (the layer is a 4:2:0 picture overlaid there).
    for (const n of [lt.plate.x, lt.plate.y, lt.plate.width, lt.plate.height]) expect(n % 2).toBe(0);
    // The name, then the position under it, smaller, both inside the plate.
    expect(lt.title!.top).toBeGreaterThan(lt.name.top + lt.name.fontSize * 0.9);
    expect(lt.title!.fontSize).toBeLessThan(lt.name.fontSize);
    for (const line of [lt.name, lt.title!]) {
      expect(line.x + line.width).toBeLessThanOrEqual(lt.plate.x + lt.plate.width);
      expect(line.top + line.fontSize).toBeLessThanOrEqual(lt.plate.y + lt.plate.height);
    }
  });

  it.each(EXTRA_FRAMES)('keeps the lower-third of $width×$height above two lines of word-by-word captions, which sit higher', (frame) => {
    const clearance = wordCaptionClearance({ ...frame, size: 34, border: true });
    const lt = lowerThirdLayout({ ...frame, name: 'Jane Cooper', title: 'Head of Sales', face, subtitleSize: 34, keepAbove: clearance });
    const box = wordCaptionBox({ ...frame, size: 34, border: true });
    // The plate ends above the top of a two-line caption block around its centre.
    expect(lt.plate.y + lt.plate.height).toBeLessThanOrEqual(box.centreY - box.fontSize * 1.2);
    expect(lt.plate.y).toBeGreaterThanOrEqual(safeArea(frame.width, frame.height, frame.kind).y);
    // Without the clearance (line subtitles) it sits lower, nearer the subtitles at the bottom.
    expect(lowerThirdLayout({ ...frame, name: 'Jane Cooper', title: 'Head of Sales', face, subtitleSize: 34 }).plate.y).toBeGreaterThan(lt.plate.y);
  });

  it('cuts a name too long for the frame with an ellipsis, and leaves out an empty position', () => {
    const lt = lowerThirdLayout({ width: 1080, height: 1920, kind: 'vertical', name: 'Maximilian Alexander von Habsburg-Lothringen-Este the Third', title: '  ', face, subtitleSize: 34 });
    expect(lt.name.text.endsWith(ELLIPSIS)).toBe(true);
    expect(lt.title).toBeNull();
    expect(lt.plate.x + lt.plate.width).toBeLessThanOrEqual(safeArea(1080, 1920, 'vertical').x + safeArea(1080, 1920, 'vertical').width);
  });

  it.each(EXTRA_FRAMES)('lays out the end card of $width×$height: the logo band on top, the call to action then the address, centred, inside the safe area', (frame) => {
    const card = endCardLayout({ ...frame, text: 'Book a call with our team', address: 'acme.com/demo', face, size: 40, logo: true });
    const safe = safeArea(frame.width, frame.height, frame.kind);
    expect(card.logoBox).toMatchObject({ x: safe.x, y: safe.y, width: safe.width });
    // The same band as the question card's, so one scaled logo serves both.
    expect(card.logoBox).toEqual(fitCard({ ...frame, text: 'Q?', size: 40, face, logo: true }).logoBox);
    const address = card.lines.at(-1)!;
    expect(address).toMatchObject({ text: 'acme.com/demo', regular: true });
    expect(address.fontSize).toBeLessThan(card.lines[0]!.fontSize);
    for (const line of card.lines) {
      expect(line.x).toBeGreaterThanOrEqual(safe.x);
      expect(line.x + line.width).toBeLessThanOrEqual(safe.x + safe.width);
      expect(line.top).toBeGreaterThan(card.logoBox!.y + card.logoBox!.height);
      expect(line.top + line.fontSize).toBeLessThanOrEqual(safe.y + safe.height);
      // Centred in the text box.
      expect(Math.abs(line.x + line.width / 2 - (card.textBox.x + card.textBox.width / 2))).toBeLessThanOrEqual(1);
    }
    expect(address.top).toBeGreaterThan(card.lines[0]!.top);
  });

  it('keeps a long call to action to two lines (shrunk, then cut), and draws either text alone', () => {
    const long = endCardLayout({ width: 1080, height: 1080, kind: 'answer', text: 'x '.repeat(30).trim(), address: '', face, size: 60, logo: false });
    expect(long.lines.length).toBeLessThanOrEqual(2);
    expect(long.logoBox).toBeNull();
    const onlyAddress = endCardLayout({ width: 1280, height: 720, kind: 'answer', text: '', address: 'acme.com', face, size: 40, logo: false });
    expect(onlyAddress.lines).toHaveLength(1);
    expect(onlyAddress.lines[0]).toMatchObject({ text: 'acme.com', regular: true });
  });
});
