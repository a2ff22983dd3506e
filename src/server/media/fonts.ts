import { existsSync } from 'node:fs';
import path from 'node:path';
import type { TFontChoice } from '../../contract/constants.js';
import { ROOT_DIR } from '../lib/paths.js';

/**
 * The ten font names of the settings, mapped to open fonts the project ships (npm `@fontsource/*`):
 * metric-compatible stand-ins where they exist, look-alikes otherwise. The same files feed the live
 * preview (@font-face) and the renderer, so the preview shows what the video will show.
 */
export const FONT_MAP: Record<TFontChoice, { package: string; family: string; licence: string }> = {
  Arial: { package: 'arimo', family: 'Arimo', licence: 'Apache-2.0' },
  'Times New Roman': { package: 'tinos', family: 'Tinos', licence: 'Apache-2.0' },
  'Courier New': { package: 'cousine', family: 'Cousine', licence: 'Apache-2.0' },
  Georgia: { package: 'gelasio', family: 'Gelasio', licence: 'OFL-1.1' },
  'Comic Sans MS': { package: 'comic-neue', family: 'Comic Neue', licence: 'OFL-1.1' },
  'Arial Black': { package: 'archivo-black', family: 'Archivo Black', licence: 'OFL-1.1' },
  Impact: { package: 'anton', family: 'Anton', licence: 'OFL-1.1' },
  Verdana: { package: 'dejavu-sans', family: 'DejaVu Sans', licence: 'Bitstream Vera / DejaVu (free)' },
  'Trebuchet MS': { package: 'fira-sans', family: 'Fira Sans', licence: 'OFL-1.1' },
  'Andale Mono': { package: 'dejavu-mono', family: 'DejaVu Sans Mono', licence: 'Bitstream Vera / DejaVu (free)' },
};

/** The font file for a choice (bold when the family has it), Latin subset which covers French. */
export function fontFile(choice: string, bold: boolean): string {
  const entry = FONT_MAP[choice as TFontChoice] ?? FONT_MAP.Arial;
  const dir = path.join(ROOT_DIR, 'node_modules', '@fontsource', entry.package, 'files');
  const bolder = path.join(dir, `${entry.package}-latin-700-normal.woff2`);
  if (bold && existsSync(bolder)) return bolder;
  return path.join(dir, `${entry.package}-latin-400-normal.woff2`);
}

/** The folder libass searches and the family name it must ask for. */
export function subtitleFont(choice: string): { fontsDir: string; fontName: string } {
  const entry = FONT_MAP[choice as TFontChoice] ?? FONT_MAP.Arial;
  return { fontsDir: path.join(ROOT_DIR, 'node_modules', '@fontsource', entry.package, 'files'), fontName: entry.family };
}
