/* eslint-disable no-restricted-imports -- parity test: the renderer (server) and the preview and crop editor (web) must use these numbers the same way. */
import { describe, expect, it } from 'vitest';
import { cardChain, cropPixels, subtitlesFilter } from '../server/media/render.js';
import { fractionsToPixels, pixelsToFractions } from '../web/features/dashboard/export/crop-math.js';
import { PREVIEW_FONTS } from '../web/features/dashboard/settings/preview-fonts.js';
import { layoutCard, layoutSubtitle } from '../web/features/dashboard/settings/preview-layout.js';
import {
  CARD_GLYPH_WIDTH_RATIO,
  CARD_LINE_HEIGHT_RATIO,
  CARD_LOGO_HEIGHT_RATIO,
  CARD_LOGO_TOP_RATIO,
  CARD_MAX_LINES,
  CARD_REFERENCE_HEIGHT,
  CARD_REFERENCE_WIDTH,
  CARD_TEXT_WIDTH_RATIO,
  cardGeometry,
  cardLines,
  cardMaxChars,
  SUBTITLE_SCRIPT,
  subtitleScriptSize,
} from './card-layout.js';
import { cropRect } from './crop.js';

const arial = PREVIEW_FONTS.Arial;
const QUESTION = 'What did you like most about working with us? Tell us everything, in as much detail as you want';

/** The card as ffmpeg draws it: each drawtext's size and evaluated y, the logo's height and top. */
function rendered(width: number, height: number, size: number, lineCount: number, logo = true) {
  const chain = cardChain({
    width,
    height,
    style: { background: '#000000', color: '#ffffff', size, fontFile: '/f.ttf' },
    lineFiles: Array.from({ length: lineCount }, (_, i) => `/line${i}.txt`),
    label: 'c',
    ...(logo ? { logoInput: 1 } : {}),
  });
  const sizes = [...chain.matchAll(/fontsize=(\d+)/g)].map((m) => Number(m[1]));
  // drawtext's y: (h-BLOCK)/2+OFFSET+(LH-SIZE)/2 with h the frame's height.
  const tops = [...chain.matchAll(/y=\(h-(\d+)\)\/2\+(\d+)\+\((\d+)-(\d+)\)\/2/g)].map(
    ([, block, offset, lh, px]) => (height - Number(block)) / 2 + Number(offset) + (Number(lh) - Number(px)) / 2,
  );
  const logoHeight = Number(/scale=-2:(\d+)/.exec(chain)?.[1] ?? NaN);
  const logoTopShare = Number(/overlay=x=\(W-w\)\/2:y=H\*([\d.]+)/.exec(chain)?.[1] ?? NaN);
  return { sizes, tops, logo: { top: height * logoTopShare, height: logoHeight } };
}

describe('the numbers the preview, the crop editor and the renderer share', () => {
  it('are pinned: changing one changes every picture already made, so it must be a decision', () => {
    expect({
      CARD_REFERENCE_HEIGHT,
      CARD_REFERENCE_WIDTH,
      CARD_MAX_LINES,
      CARD_LINE_HEIGHT_RATIO,
      CARD_TEXT_WIDTH_RATIO,
      CARD_GLYPH_WIDTH_RATIO,
      CARD_LOGO_HEIGHT_RATIO,
      CARD_LOGO_TOP_RATIO,
    }).toEqual({
      CARD_REFERENCE_HEIGHT: 540,
      CARD_REFERENCE_WIDTH: 960,
      CARD_MAX_LINES: 6,
      CARD_LINE_HEIGHT_RATIO: 1.3,
      CARD_TEXT_WIDTH_RATIO: 0.82,
      CARD_GLYPH_WIDTH_RATIO: 0.56,
      CARD_LOGO_HEIGHT_RATIO: 0.12,
      CARD_LOGO_TOP_RATIO: 0.08,
    });
    expect(SUBTITLE_SCRIPT).toEqual({ width: 384, height: 288, marginV: 24, marginH: 10, outline: 2, shadow: 1 });
    expect(cardMaxChars(960, 540, 36)).toBe(39);
    expect(cardMaxChars(1080, 1920, 36)).toBe(12); // a vertical frame holds fewer characters a line
    expect(cardMaxChars(960, 540, 200)).toBe(8);
    expect(cardGeometry({ height: 540, size: 36, lineCount: 2 })).toEqual({
      fontSize: 36,
      lineHeight: 47,
      blockTop: 223,
      lineTops: [228.5, 275.5],
      logo: { top: 43.2, height: 64 },
    });
  });

  it('the renderer draws each line and the logo where cardGeometry puts them, on every frame', () => {
    for (const [width, height] of [
      [960, 540],
      [1280, 720],
      [1920, 1080],
      [1080, 1920],
      [640, 360],
      [362, 204],
    ] as const) {
      for (const size of [12, 36, 48, 72]) {
        const lines = cardLines(QUESTION, width, height, size);
        expect(lines.length).toBeGreaterThan(0);
        expect(lines.length).toBeLessThanOrEqual(CARD_MAX_LINES);
        const geometry = cardGeometry({ height, size, lineCount: lines.length });
        const video = rendered(width, height, size, lines.length);
        expect(video.sizes).toEqual(lines.map(() => geometry.fontSize));
        expect(video.tops).toEqual(geometry.lineTops);
        expect(video.logo.height).toBe(geometry.logo.height);
        expect(video.logo.top).toBeCloseTo(geometry.logo.top, 9);
      }
    }
  });

  it('the settings preview lays out the same lines at the same places as the renderer, for the same inputs', () => {
    for (const [width, height] of [
      [960, 540],
      [1280, 720],
      [1080, 1920],
    ] as const) {
      for (const size of [18, 36, 60]) {
        const capHeight = 0.7;
        const preview = layoutCard({ text: QUESTION, size, bold: false, font: arial, ascent: (_text, px) => px * capHeight, width, height });
        const lines = cardLines(QUESTION, width, height, size);
        const video = rendered(width, height, size, lines.length);
        expect(preview.lines.map((l) => l.text)).toEqual(lines);
        expect(preview.fontSize).toBe(video.sizes[0]);
        // The preview's baseline is drawtext's y plus the glyphs' ascent.
        expect(preview.lines.map((l) => l.baseline - preview.fontSize * capHeight)).toEqual(video.tops.map((top) => expect.closeTo(top, 9)));
        expect(preview.lines.every((l) => l.x === width / 2)).toBe(true);
        expect(preview.logo.height).toBe(video.logo.height);
        expect(preview.logo.top).toBeCloseTo(video.logo.top, 9);
      }
    }
  });

  it('the preview sizes subtitles in the script units the renderer asks libass for', () => {
    for (const size of [14, 24, 37, 60]) {
      const filter = subtitlesFilter({ srtFile: '/s.srt', fontsDir: '/f', fontName: 'Arimo', size, color: '#ffffff', bold: false, border: false });
      expect(Number(/FontSize=(\d+)/.exec(filter)?.[1])).toBe(subtitleScriptSize(size));
      expect(filter).toContain(`MarginV=${SUBTITLE_SCRIPT.marginV}`);
      expect(filter).toContain(`Shadow=${SUBTITLE_SCRIPT.shadow}`);
      const preview = layoutSubtitle({ text: 'Hello', size, bold: false, border: false, font: arial, measure: (t) => t.length, width: 960, height: 540 });
      expect(preview.lineHeight).toBeCloseTo((subtitleScriptSize(size) * 540) / SUBTITLE_SCRIPT.height, 9);
      expect(preview.shadow).toBeCloseTo((SUBTITLE_SCRIPT.shadow * 540) / SUBTITLE_SCRIPT.height, 9);
    }
    const bordered = subtitlesFilter({ srtFile: '/s.srt', fontsDir: '/f', fontName: 'Arimo', size: 24, color: '#ffffff', bold: false, border: true });
    expect(bordered).toContain(`Outline=${SUBTITLE_SCRIPT.outline}`);
  });
});

describe('crop rounding', () => {
  it('gives the crop editor and the renderer the same rectangle for any area and frame', () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 2000; i++) {
      const width = 2 + Math.floor(random() * 3839);
      const height = 2 + Math.floor(random() * 2159);
      const w = Math.max(0.0001, random());
      const h = Math.max(0.0001, random());
      const area = { x: random() * (1 - w), y: random() * (1 - h), width: w, height: h };
      const server = cropPixels(area, width, height);
      const web = fractionsToPixels(area, { width, height });
      expect({ x: server.x, y: server.y, width: server.w, height: server.h }).toEqual(web);
      expect(web).toEqual(cropRect(area, width, height));
      for (const n of [web.x, web.y, web.width, web.height]) expect(n % 2).toBe(0);
      expect(web.x + web.width).toBeLessThanOrEqual(width);
      expect(web.y + web.height).toBeLessThanOrEqual(height);
    }
  });

  it('gives back the even pixels the editor chose, through the fractions the API carries', () => {
    for (const [width, height] of [
      [360, 360],
      [640, 360],
      [1920, 1080],
      [641, 359],
    ] as const) {
      for (let x = 0; x + 26 <= width; x += 58) {
        const chosen = { x, y: 0, width: 26, height: Math.floor(height / 2) * 2 };
        const fractions = pixelsToFractions(chosen, { width, height });
        const back = cropPixels(fractions, width, height);
        expect({ x: back.x, y: back.y, width: back.w, height: back.h }).toEqual(chosen);
      }
    }
    // 26/360 × 360 is 25.999… in floating point: the tolerance keeps it 26.
    expect(cropRect({ x: 0, y: 0, width: 26 / 360, height: 26 / 360 }, 360, 360)).toMatchObject({ width: 26, height: 26 });
  });

  it('refuses a frame it cannot crop', () => {
    expect(() => cropRect({ x: 0, y: 0, width: 1, height: 1 }, 0, 720)).toThrow('Invalid video dimensions');
    expect(() => cropRect({ x: 0, y: 0, width: 1, height: 1 }, 1, 720)).toThrow('Invalid video dimensions');
    expect(() => cropRect({ x: 0, y: 0, width: 1, height: 1 }, Number.NaN, 720)).toThrow('Invalid video dimensions');
  });
});
