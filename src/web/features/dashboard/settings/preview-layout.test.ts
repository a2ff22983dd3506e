import { describe, expect, it } from 'vitest';
import { FONT_CHOICES } from '../../../../contract/constants.js';
// eslint-disable-next-line no-restricted-imports -- parity test: the preview must lay out text exactly as the renderer does.
import {
  cardChain,
  REFERENCE_HEIGHT as RENDER_REFERENCE_HEIGHT,
  subtitlesFilter,
} from '../../../../server/media/render.js';
import { PREVIEW_FONTS, previewFont } from './preview-fonts';
import {
  cardMaxChars,
  layoutCard,
  layoutSubtitle,
  previewScale,
  REFERENCE_HEIGHT,
  REFERENCE_WIDTH,
  scaledSize,
  wrapSubtitle,
} from './preview-layout';

const arial = PREVIEW_FONTS.Arial;
/** One pixel per character: easy to reason about. */
const perChar = (text: string, fontSize = 1) => text.length * fontSize;

describe('preview scaling', () => {
  it('uses the renderer reference height: sizes are pixels on a 540 px high frame', () => {
    expect(REFERENCE_HEIGHT).toBe(RENDER_REFERENCE_HEIGHT);
    expect(REFERENCE_WIDTH / REFERENCE_HEIGHT).toBeCloseTo(16 / 9);
    expect(previewScale(540)).toBe(1);
    expect(previewScale(270)).toBe(0.5);
    expect(previewScale(0)).toBe(0);
    expect(scaledSize(36, 1080)).toBe(72);
    expect(scaledSize(36, 216)).toBeCloseTo(14.4);
  });
});

describe('intro card layout', () => {
  it('fits as many characters a line as the studio service, at any frame size of the same shape', () => {
    expect(cardMaxChars(36)).toBe(39);
    expect(cardMaxChars(36, 1280, 720)).toBe(39);
    expect(cardMaxChars(72)).toBe(19);
    expect(cardMaxChars(200)).toBe(8);
  });

  it('puts each line where drawtext puts it (font size, line height, vertical centring)', () => {
    const width = 1280;
    const height = 720;
    const lines = ['line one', 'line two', 'line three'];
    const chain = cardChain({
      width,
      height,
      style: {
        background: '#000000',
        color: '#ffffff',
        size: 36,
        fontFile: '/f.woff2',
      },
      lineFiles: lines,
      label: 'c',
    });
    const layout = layoutCard({
      text: 'What did you like most about working with us? Tell us everything, in detail',
      size: 36,
      bold: false,
      font: arial,
      width,
      height,
    });
    expect(layout.lines).toHaveLength(2);

    const fontSize = Number(/fontsize=(\d+)/.exec(chain)?.[1]);
    expect(layout.fontSize).toBe(fontSize);
    // drawtext's y for line i, evaluated: (h - LH·n)/2 + i·LH + (LH - size)/2, the top of the capitals.
    const tops = [...chain.matchAll(/y=\(h-(\d+)\)\/2\+(\d+)\+\((\d+)-(\d+)\)\/2/g)].map(
      ([, block, offset, lh, size]) => (height - Number(block)) / 2 + Number(offset) + (Number(lh) - Number(size)) / 2,
    );
    expect(tops).toHaveLength(3);
    const lineHeight = tops[1]! - tops[0]!;
    expect(layout.lineHeight).toBe(lineHeight);
    // Same rule for our two lines: centred as a block, the capitals' top on drawtext's y.
    const cap = (layout.fontSize * arial.capHeight) / arial.unitsPerEm;
    const blockTop = (height - lineHeight * 2) / 2;
    expect(layout.lines[0]!.baseline - cap).toBeCloseTo(blockTop + (lineHeight - fontSize) / 2);
    expect(layout.lines[1]!.baseline - layout.lines[0]!.baseline).toBe(lineHeight);
    expect(layout.lines.every((line) => line.x === width / 2)).toBe(true);
  });

  it("puts the top of each line's tallest glyph on drawtext's y when the browser can measure it", () => {
    const lineTop = (540 - 47 * 1) / 2 + (47 - 36) / 2;
    const measured = layoutCard({
      text: 'Hi there',
      size: 36,
      bold: false,
      font: arial,
      ascent: () => 27,
    });
    expect(measured.lines[0]!.baseline).toBeCloseTo(lineTop + 27);
    const estimated = layoutCard({
      text: 'Hi there',
      size: 36,
      bold: false,
      font: arial,
    });
    expect(estimated.lines[0]!.baseline).toBeCloseTo(lineTop + (36 * 1409) / 2048);
    // A canvas that has nothing to say (no glyphs, no font yet) leaves the estimate in place.
    expect(
      layoutCard({
        text: 'Hi there',
        size: 36,
        bold: false,
        font: arial,
        ascent: () => 0,
      }).lines[0]!.baseline,
    ).toBeCloseTo(estimated.lines[0]!.baseline);
  });

  it('places the logo as the overlay does: 12 % high (even), centred, 8 % from the top', () => {
    const chain = cardChain({
      width: 960,
      height: 540,
      style: {
        background: '#000000',
        color: '#ffffff',
        size: 36,
        fontFile: '/f.woff2',
      },
      lineFiles: [],
      logoInput: 1,
      label: 'c',
    });
    const layout = layoutCard({
      text: 'Hi',
      size: 36,
      bold: false,
      font: arial,
    });
    expect(chain).toContain(`scale=-2:${layout.logo.height}`);
    expect(chain).toContain('overlay=x=(W-w)/2:y=H*0.08');
    expect(layout.logo).toEqual({ top: 540 * 0.08, height: 64 });
  });

  it('draws bold only with fonts that ship a bold file, at most six lines', () => {
    expect(
      layoutCard({
        text: 'Hi',
        size: 36,
        bold: true,
        font: PREVIEW_FONTS.Arial,
      }).fontWeight,
    ).toBe(700);
    expect(
      layoutCard({
        text: 'Hi',
        size: 36,
        bold: true,
        font: PREVIEW_FONTS.Impact,
      }).fontWeight,
    ).toBe(400);
    expect(
      layoutCard({
        text: 'Hi',
        size: 36,
        bold: false,
        font: PREVIEW_FONTS.Georgia,
      }).fontWeight,
    ).toBe(400);
    expect(
      layoutCard({
        text: 'word '.repeat(80),
        size: 72,
        bold: false,
        font: arial,
      }).lines,
    ).toHaveLength(6);
    expect(layoutCard({ text: '', size: 36, bold: false, font: arial }).lines).toEqual([]);
  });
});

describe('subtitle layout', () => {
  it('sizes text as libass does from the size the renderer asks for', () => {
    const filter = subtitlesFilter({
      srtFile: '/s.srt',
      fontsDir: '/f',
      fontName: 'Arimo',
      size: 24,
      color: '#ffcc00',
      bold: false,
      border: true,
    });
    const units = Number(/FontSize=(\d+)/.exec(filter)?.[1]);
    const layout = layoutSubtitle({
      text: 'Hello',
      size: 24,
      bold: false,
      border: true,
      font: arial,
      measure: perChar,
    });
    // 13 script units of a 288-line script on a 540 px frame.
    expect(units).toBe(13);
    expect(layout.lineHeight).toBeCloseTo((13 * 540) / 288);
    // The em is the line height scaled by the font's Windows ascent + descent.
    expect(layout.fontSize).toBeCloseTo((layout.lineHeight * 2048) / (2136 + 797));
    // Baseline: 24-unit bottom margin plus the font's descent.
    expect(layout.lines[0]!.baseline).toBeCloseTo(540 - (24 * 540) / 288 - (layout.fontSize * 797) / 2048);
  });

  it('draws the outline with the border and the shadow without, in the renderer units', () => {
    const on = subtitlesFilter({
      srtFile: '/s.srt',
      fontsDir: '/f',
      fontName: 'Arimo',
      size: 24,
      color: '#ffffff',
      bold: true,
      border: true,
    });
    const off = subtitlesFilter({
      srtFile: '/s.srt',
      fontsDir: '/f',
      fontName: 'Arimo',
      size: 24,
      color: '#ffffff',
      bold: true,
      border: false,
    });
    expect(on).toContain('Outline=2');
    expect(on).toContain('MarginV=24');
    expect(off).toContain('Outline=0');
    expect(off).toContain('Shadow=1');
    const withBorder = layoutSubtitle({
      text: 'Hello',
      size: 24,
      bold: true,
      border: true,
      font: arial,
      measure: perChar,
    });
    const without = layoutSubtitle({
      text: 'Hello',
      size: 24,
      bold: true,
      border: false,
      font: arial,
      measure: perChar,
    });
    expect(withBorder).toMatchObject({
      outline: (2 * 540) / 288,
      shadow: 0,
      fontWeight: 700,
    });
    expect(without).toMatchObject({
      outline: 0,
      shadow: 540 / 288,
      fontWeight: 700,
    });
  });

  it('wraps long subtitles into balanced lines, stacked up from the bottom margin', () => {
    expect(wrapSubtitle('short line', 100, perChar)).toEqual(['short line']);
    const lines = wrapSubtitle('aaaa bbbb cccc dddd eeee', 16, perChar);
    expect(lines).toEqual(['aaaa bbbb cccc', 'dddd eeee']);
    expect(lines.every((line) => line.length <= 16)).toBe(true);
    expect(wrapSubtitle('', 10, perChar)).toEqual([]);

    const layout = layoutSubtitle({
      text: 'x'.repeat(50) + ' ' + 'y'.repeat(50),
      size: 48,
      bold: false,
      border: true,
      font: arial,
      measure: perChar,
    });
    expect(layout.lines).toHaveLength(2);
    expect(layout.lines[1]!.baseline - layout.lines[0]!.baseline).toBeCloseTo(layout.lineHeight);
  });
});

describe('preview fonts', () => {
  it('covers the ten font choices, unknown names falling back to Arial like the renderer', () => {
    expect(Object.keys(PREVIEW_FONTS).sort()).toEqual([...FONT_CHOICES].sort());
    expect(previewFont('Wingdings')).toBe(PREVIEW_FONTS.Arial);
  });

  it('uses the families and bold files the renderer uses', async () => {
    // Loaded by a computed path: the web build never bundles server code, this test only compares.
    const fontsModule = '../../../../server/media/fonts.js';
    const server = (await import(/* @vite-ignore */ fontsModule)) as {
      FONT_MAP: Record<string, { family: string }>;
      fontFile: (choice: string, bold: boolean) => string;
    };
    for (const choice of FONT_CHOICES) {
      expect(PREVIEW_FONTS[choice].family, choice).toBe(server.FONT_MAP[choice]?.family);
      expect(PREVIEW_FONTS[choice].hasBold, choice).toBe(
        server.fontFile(choice, true).endsWith('-latin-700-normal.woff2'),
      );
    }
  });

  it('carries the metrics of the shipped Latin files (head and OS/2 tables of the WOFF2)', async () => {
    const fsModule = 'node:fs';
    const zlibModule = 'node:zlib';
    const { readFileSync } = (await import(/* @vite-ignore */ fsModule)) as {
      readFileSync: (url: URL) => Uint8Array;
    };
    const { brotliDecompressSync } = (await import(/* @vite-ignore */ zlibModule)) as {
      brotliDecompressSync: (data: Uint8Array) => Uint8Array;
    };
    const packages: Record<string, string> = {
      Arimo: 'arimo',
      Tinos: 'tinos',
      Cousine: 'cousine',
      Gelasio: 'gelasio',
      'Comic Neue': 'comic-neue',
      'Archivo Black': 'archivo-black',
      Anton: 'anton',
      'DejaVu Sans': 'dejavu-sans',
      'Fira Sans': 'fira-sans',
      'DejaVu Sans Mono': 'dejavu-mono',
    };
    for (const font of Object.values(PREVIEW_FONTS)) {
      const name = packages[font.family]!;
      const file = readFileSync(
        new URL(
          `../../../../../node_modules/@fontsource/${name}/files/${name}-latin-400-normal.woff2`,
          import.meta.url,
        ),
      );
      const tables = readWoff2Tables(file, brotliDecompressSync);
      const head = tables.get('head')!;
      const os2 = tables.get('OS/2')!;
      expect(head.getUint16(18), font.family).toBe(font.unitsPerEm);
      expect(os2.getUint16(74), font.family).toBe(font.winAscent);
      expect(os2.getUint16(76), font.family).toBe(font.winDescent);
      // OS/2 v2+ carries sCapHeight; DejaVu's is older, its 'H' is 1493 units high.
      if (os2.getUint16(0) >= 2) expect(os2.getInt16(88), font.family).toBe(font.capHeight);
      else expect(font.capHeight).toBe(1493);
    }
  });
});

/** The tables of a WOFF2 file (untransformed ones only: head and OS/2 never are). */
function readWoff2Tables(file: Uint8Array, decompress: (data: Uint8Array) => Uint8Array): Map<string, DataView> {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const known = [
    'cmap',
    'head',
    'hhea',
    'hmtx',
    'maxp',
    'name',
    'OS/2',
    'post',
    'cvt ',
    'fpgm',
    'glyf',
    'loca',
    'prep',
    'CFF ',
    'VORG',
    'EBDT',
    'EBLC',
    'gasp',
    'hdmx',
    'kern',
    'LTSH',
    'PCLT',
    'VDMX',
    'vhea',
    'vmtx',
    'BASE',
    'GDEF',
    'GPOS',
    'GSUB',
  ];
  let at = 48;
  const base128 = () => {
    let value = 0;
    for (let i = 0; i < 5; i++) {
      const byte = file[at++]!;
      value = value * 128 + (byte & 0x7f);
      if (!(byte & 0x80)) break;
    }
    return value;
  };
  const entries: { tag: string; length: number }[] = [];
  for (let i = 0, count = view.getUint16(12); i < count; i++) {
    const flags = file[at++]!;
    let tag = known[flags & 0x3f] ?? '';
    if ((flags & 0x3f) === 0x3f) {
      tag = String.fromCharCode(...file.subarray(at, at + 4));
      at += 4;
    }
    const version = flags >> 6;
    const original = base128();
    const transformed = tag === 'glyf' || tag === 'loca' ? version === 0 : version !== 0;
    entries.push({ tag, length: transformed ? base128() : original });
  }
  const data = decompress(file.subarray(at, at + view.getUint32(20)));
  const tables = new Map<string, DataView>();
  let offset = 0;
  for (const entry of entries) {
    tables.set(entry.tag, new DataView(data.buffer, data.byteOffset + offset, entry.length));
    offset += entry.length;
  }
  return tables;
}
