import { describe, expect, it } from 'vitest';
import { EXPORT_PLATFORM_SPECS } from '../../../../contract/api/studio.schema.js';
import { FONT_CHOICES } from '../../../../contract/constants.js';
import { fitCard, fitCuesToFrame, safeArea, SAFE_MARGINS, subtitleBox, textWidth } from '../../../../contract/frame-layout.js';
import { VIDEO_THEMES } from '../../../../contract/video-themes.js';
import en from '../../../i18n/en.json';
import { PREVIEW_FONTS, previewFont } from './preview-fonts';
import { fontChoice, layoutCard, layoutSubtitle, overlayZones, PREVIEW_FRAMES, settingsSize, wrapSubtitle } from './preview-layout';

const arial = PREVIEW_FONTS.Arial;
/** One pixel per character: easy to reason about. */
const perChar = (text: string, fontSize = 1) => text.length * fontSize;
/** The preview's long sample question (what the 'Try a long question' option shows). */
const LONG = en.settings.preview.longQuestionText;
const FRAMES = Object.values(PREVIEW_FRAMES);

describe('preview frames', () => {
  it('are the answer as recorded (960 × 540) and the two export sizes, each with its kind of safe area', () => {
    expect(PREVIEW_FRAMES.answer).toEqual({ width: 960, height: 540, kind: 'answer' });
    expect(PREVIEW_FRAMES.landscape).toEqual({ width: EXPORT_PLATFORM_SPECS.linkedin.width, height: EXPORT_PLATFORM_SPECS.linkedin.height, kind: 'landscape' });
    expect(PREVIEW_FRAMES.vertical).toEqual({ width: 1080, height: 1920, kind: 'vertical' });
    expect(EXPORT_PLATFORM_SPECS.shorts).toMatchObject({ width: 1080, height: 1920 });
  });

  it('shades the platforms’ overlay zones on 9:16 only: the margins of its safe area', () => {
    expect(overlayZones(PREVIEW_FRAMES.answer)).toBeNull();
    expect(overlayZones(PREVIEW_FRAMES.landscape)).toBeNull();
    const zones = overlayZones(PREVIEW_FRAMES.vertical)!;
    const safe = safeArea(1080, 1920, 'vertical');
    expect(zones.top).toEqual({ x: 0, y: 0, width: 1080, height: Math.round(1920 * SAFE_MARGINS.vertical.top) });
    expect(zones.bottom.y).toBe(safe.y + safe.height);
    expect(zones.bottom.y + zones.bottom.height).toBe(1920);
    expect(zones.right.x).toBe(safe.x + safe.width);
    expect(zones.right.x).toBe(Math.round(1080 * (1 - SAFE_MARGINS.vertical.right)));
  });

  it('turns frame pixels back into the sizes of the settings', () => {
    expect(settingsSize(40, PREVIEW_FRAMES.answer)).toBe(40);
    expect(settingsSize(64, PREVIEW_FRAMES.landscape)).toBe(32);
    expect(settingsSize(64, PREVIEW_FRAMES.vertical)).toBe(32);
  });
});

describe('intro card: the renderer’s layout (fitCard)', () => {
  it('draws the lines, size and positions fitCard gives for a long question with the logo, on every format', () => {
    expect(LONG.length).toBeGreaterThan(300);
    for (const frame of FRAMES) {
      for (const theme of VIDEO_THEMES) {
        const { font_style_question: font, font_size_question: size, font_bold_question: bold } = theme.style;
        const layout = layoutCard({ text: LONG, size, bold, font, frame, logo: true, ascent: () => 0.7 * size });
        const fit = fitCard({ text: LONG, width: frame.width, height: frame.height, kind: frame.kind, size, face: { font, bold }, logo: true });
        const where = `${theme.id} on ${frame.kind}`;
        expect(layout.fontSize, where).toBe(fit.fontSize);
        expect(layout.lineHeight, where).toBe(fit.lineHeight);
        expect(layout.lines.map((l) => l.text), where).toEqual(fit.lines.map((l) => l.text));
        expect(layout.lines.map((l) => l.top), where).toEqual(fit.lines.map((l) => l.top));
        // Each line centred in the text box, as drawtext's x = box centre − text_w / 2.
        expect(new Set(layout.lines.map((l) => l.x)), where).toEqual(new Set([fit.textBox.x + fit.textBox.width / 2]));
        expect(layout.logoBox, where).toEqual(fit.logoBox);
        expect(layout.textBox, where).toEqual(fit.textBox);
        // The long sample shows the shrink (and is whole: nothing cut).
        expect(layout.shrunk, where).toBe(true);
        expect(layout.truncated, where).toBe(false);
        expect(layout.lines.map((l) => l.text).join(' '), where).toBe(LONG.replace(/\s+/g, ' '));
        // Inside the safe area, under the logo's band.
        const safe = safeArea(frame.width, frame.height, frame.kind);
        const logoBottom = layout.logoBox!.y + layout.logoBox!.height;
        expect(layout.lines[0]!.top, where).toBeGreaterThan(logoBottom);
        const last = layout.lines.at(-1)!;
        const lastLineTop = last.top - (layout.lineHeight - layout.fontSize) / 2;
        expect(lastLineTop + layout.lineHeight, where).toBeLessThanOrEqual(safe.y + safe.height);
        for (const line of layout.lines) expect(textWidth({ font, bold }, line.text, layout.fontSize), where).toBeLessThanOrEqual(safe.width);
      }
    }
  });

  it('shrinks less without the logo, and keeps a short question at the chosen size', () => {
    const frame = PREVIEW_FRAMES.vertical;
    const base = { text: LONG, size: 40, bold: true, font: 'Trebuchet MS', frame };
    expect(layoutCard({ ...base, logo: false }).fontSize).toBeGreaterThanOrEqual(layoutCard({ ...base, logo: true }).fontSize);
    expect(layoutCard({ ...base, logo: false }).logoBox).toBeNull();
    const short = layoutCard({ ...base, text: 'How did we help?', logo: true });
    expect(short).toMatchObject({ fontSize: 80, shrunk: false, truncated: false });
    expect(short.lines).toHaveLength(1);
  });

  it('cuts with an ellipsis only past the minimum size, as fitCard does', () => {
    const text = `${LONG} ${LONG}`.slice(0, 500);
    const frame = PREVIEW_FRAMES.vertical;
    const layout = layoutCard({ text, size: 72, bold: false, font: 'Impact', frame, logo: true });
    const fit = fitCard({ text, width: frame.width, height: frame.height, kind: frame.kind, size: 72, face: { font: 'Impact', bold: false }, logo: true });
    expect(layout.truncated).toBe(fit.truncated);
    expect(layout.lines.map((l) => l.text)).toEqual(fit.lines.map((l) => l.text));
    if (layout.truncated) expect(layout.lines.at(-1)!.text.endsWith('…')).toBe(true);
    else expect(layout.lines.map((l) => l.text).join(' ')).toBe(text.trim().replace(/\s+/g, ' '));
    // Far more than a card holds, even at the minimum size: cut, with an ellipsis.
    const cut = layoutCard({ text: 'Wide words '.repeat(120), size: 72, bold: true, font: 'Courier New', frame, logo: true });
    expect(cut.truncated).toBe(true);
    expect(cut.lines.at(-1)!.text.endsWith('…')).toBe(true);
    expect(settingsSize(cut.fontSize, frame)).toBe(20);
  });

  it("puts the top of each line's tallest glyph on drawtext's y (the measured ascent, or the capital height)", () => {
    const frame = PREVIEW_FRAMES.answer;
    const measured = layoutCard({ text: 'Hi there', size: 36, bold: false, font: 'Arial', frame, logo: false, ascent: () => 27 });
    expect(measured.lines[0]!.baseline).toBeCloseTo(measured.lines[0]!.top + 27);
    const estimated = layoutCard({ text: 'Hi there', size: 36, bold: false, font: 'Arial', frame, logo: false });
    expect(estimated.lines[0]!.baseline).toBeCloseTo(estimated.lines[0]!.top + (36 * arial.capHeight) / arial.unitsPerEm);
    // A canvas that has nothing to say (no glyphs, no font yet) leaves the estimate in place.
    const silent = layoutCard({ text: 'Hi there', size: 36, bold: false, font: 'Arial', frame, logo: false, ascent: () => 0 });
    expect(silent.lines[0]!.baseline).toBeCloseTo(estimated.lines[0]!.baseline);
    expect(layoutCard({ text: '', size: 36, bold: false, font: 'Arial', frame, logo: false }).lines).toEqual([]);
  });

  it('draws bold only with fonts that ship a bold file, and unknown fonts as Arial, like the renderer', () => {
    const frame = PREVIEW_FRAMES.answer;
    const card = (font: string, bold: boolean) => layoutCard({ text: 'Hi', size: 36, bold, font, frame, logo: false });
    expect(card('Arial', true).fontWeight).toBe(700);
    expect(card('Impact', true).fontWeight).toBe(400);
    expect(card('Georgia', false).fontWeight).toBe(400);
    expect(fontChoice('Wingdings')).toBe('Arial');
    expect(fontChoice('Verdana')).toBe('Verdana');
    const unknown = layoutCard({ text: LONG, size: 36, bold: false, font: 'Wingdings', frame, logo: false });
    const asArial = layoutCard({ text: LONG, size: 36, bold: false, font: 'Arial', frame, logo: false });
    expect(unknown.lines).toEqual(asArial.lines);
  });
});

describe('subtitles: the renderer’s style (subtitleBox)', () => {
  const fira = PREVIEW_FONTS['Trebuchet MS'];
  const measureFira = (text: string, em: number) => textWidth({ font: 'Trebuchet MS', bold: true }, text, em);
  const SAMPLE = en.settings.preview.sampleSubtitle;

  it('sizes, places and outlines them with the numbers of the ASS style on each format', () => {
    for (const frame of FRAMES) {
      const box = subtitleBox({ width: frame.width, height: frame.height, kind: frame.kind, size: 34, border: true });
      const layout = layoutSubtitle({ text: SAMPLE, size: 34, bold: true, border: true, font: 'Trebuchet MS', frame, measure: measureFira });
      expect(layout.box).toEqual(box);
      // libass: Fontsize is the font's Windows ascent + descent.
      expect(layout.lineHeight).toBe(box.fontSize);
      expect(layout.fontSize).toBeCloseTo((box.fontSize * fira.unitsPerEm) / (fira.winAscent + fira.winDescent));
      expect(layout.outline).toBe(box.outline);
      expect(layout.shadow).toBe(box.shadow);
      expect(layout.outline).toBeGreaterThan(0);
      // The last line's descent sits on MarginV; lines are centred between MarginL and MarginR (Alignment 2).
      const descent = (layout.fontSize * fira.winDescent) / fira.unitsPerEm;
      expect(layout.lines.at(-1)!.baseline + descent).toBeCloseTo(frame.height - box.marginV);
      const middle = box.marginL + (frame.width - box.marginL - box.marginR) / 2;
      for (const line of layout.lines) {
        expect(line.x).toBe(middle);
        expect(measureFira(line.text, layout.fontSize)).toBeLessThanOrEqual(frame.width - box.marginL - box.marginR);
      }
      // What the video shows first: the whole sample, or on 9:16 its first part (a cue of at most two lines).
      const [first] = fitCuesToFrame([{ start: 0, end: 1, text: SAMPLE }], { ...frame, size: 34, border: true, face: { font: 'Trebuchet MS', bold: true } });
      expect(layout.lines.map((l) => l.text).join(' ')).toBe(first!.text);
      expect(layout.lines.length).toBeLessThanOrEqual(2);
      if (frame.kind !== 'vertical') expect(first!.text).toBe(SAMPLE);
    }
  });

  it('sits above the bottom safe margin of a 9:16 frame, clear of the captions and buttons of Reels, TikTok and Shorts', () => {
    const frame = PREVIEW_FRAMES.vertical;
    const safe = safeArea(frame.width, frame.height, 'vertical');
    const text = 'And honestly, the whole team was quick, friendly and always listened to what we needed, from day one.';
    const layout = layoutSubtitle({ text, size: 48, bold: true, border: true, font: 'Trebuchet MS', frame, measure: measureFira });
    expect(layout.lines.length).toBeGreaterThan(1);
    const descent = (layout.fontSize * fira.winDescent) / fira.unitsPerEm;
    // The line's box (libass's MarginV is its bottom edge) ends above the safe area's bottom edge by the
    // outline and the shadow, so that they stay inside it too.
    const bottom = layout.lines.at(-1)!.baseline + descent;
    expect(bottom + layout.outline + layout.shadow).toBeCloseTo(safe.y + safe.height);
    expect(frame.height - bottom - layout.outline - layout.shadow).toBe(Math.round(frame.height * SAFE_MARGINS.vertical.bottom));
    for (const line of layout.lines) {
      const half = measureFira(line.text, layout.fontSize) / 2;
      expect(line.x - half).toBeGreaterThanOrEqual(safe.x);
      expect(line.x + half).toBeLessThanOrEqual(safe.x + safe.width);
      expect(line.top).toBeGreaterThan(safe.y);
    }
    // On the answer's own frame, the same style sits lower: only a small margin there.
    const answer = layoutSubtitle({ text, size: 48, bold: true, border: true, font: 'Trebuchet MS', frame: PREVIEW_FRAMES.answer, measure: measureFira });
    expect(answer.box.marginV / 540).toBeLessThan(layout.box.marginV / 1920);
  });

  it('has a shadow under the outline, and the shadow alone without the border', () => {
    const frame = PREVIEW_FRAMES.answer;
    const on = layoutSubtitle({ text: 'Hello', size: 24, bold: true, border: true, font: 'Arial', frame, measure: perChar });
    const off = layoutSubtitle({ text: 'Hello', size: 24, bold: true, border: false, font: 'Arial', frame, measure: perChar });
    expect(on.outline).toBeGreaterThan(0);
    expect(on.shadow).toBeGreaterThan(0);
    expect(off).toMatchObject({ outline: 0, fontWeight: 700 });
    expect(off.shadow).toBeGreaterThan(0);
  });

  it('wraps long subtitles into balanced lines, stacked up from the bottom margin', () => {
    expect(wrapSubtitle('short line', 100, perChar)).toEqual(['short line']);
    const lines = wrapSubtitle('aaaa bbbb cccc dddd eeee', 16, perChar);
    expect(lines).toEqual(['aaaa bbbb cccc', 'dddd eeee']);
    expect(lines.every((line) => line.length <= 16)).toBe(true);
    expect(wrapSubtitle('', 10, perChar)).toEqual([]);

    const layout = layoutSubtitle({
      text: 'x'.repeat(30) + ' ' + 'y'.repeat(30),
      size: 48,
      bold: false,
      border: true,
      font: 'Arial',
      frame: PREVIEW_FRAMES.answer,
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
