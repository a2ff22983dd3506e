/**
 * Where the live preview puts the lower-third and the end card (issue 31, decision 202): the renderer's
 * own layouts (src/contract/frame-layout.ts lowerThirdLayout and endCardLayout), with the SVG baseline
 * of each line (drawtext places a line by the top of its tallest glyph; the preview adds the font's
 * capital height, as the card's layout does without a canvas).
 */
import { fontChoice } from '../../../../contract/constants.js';
import { endCardLayout, lowerThirdLayout } from '../../../../contract/frame-layout.js';
import type { Box, OverlayLine } from '../../../../contract/frame-layout.js';
import { previewFont } from './preview-fonts.js';
import type { PreviewFrame } from './preview-layout.js';

export interface PreviewOverlayLine extends OverlayLine {
  baseline: number;
  fontWeight: 400 | 700;
}

const withBaseline = (line: OverlayLine, font: string, bold: boolean): PreviewOverlayLine => {
  const f = previewFont(font);
  return { ...line, baseline: line.top + (line.fontSize * f.capHeight) / f.unitsPerEm, fontWeight: bold && !line.regular && f.hasBold ? 700 : 400 };
};

export function previewLowerThird(o: { frame: PreviewFrame; name: string; title: string; font: string; bold: boolean; subtitleSize: number; keepAbove?: number | undefined }): { plate: Box; lines: PreviewOverlayLine[] } {
  const layout = lowerThirdLayout({ ...o.frame, name: o.name, title: o.title, face: { font: fontChoice(o.font), bold: o.bold }, subtitleSize: o.subtitleSize, keepAbove: o.keepAbove });
  return { plate: layout.plate, lines: [layout.name, ...(layout.title ? [layout.title] : [])].map((line) => withBaseline(line, o.font, o.bold)) };
}

export function previewEndCard(o: { frame: PreviewFrame; text: string; address: string; font: string; bold: boolean; size: number; logo: boolean }): { logoBox: Box | null; textBox: Box; lines: PreviewOverlayLine[] } {
  const layout = endCardLayout({ ...o.frame, text: o.text, address: o.address, face: { font: fontChoice(o.font), bold: o.bold }, size: o.size, logo: o.logo });
  return { logoBox: layout.logoBox, textBox: layout.textBox, lines: layout.lines.map((line) => withBaseline(line, o.font, o.bold)) };
}
