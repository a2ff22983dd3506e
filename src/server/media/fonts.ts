import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
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

const filesDir = (entry: { package: string }) => path.join(ROOT_DIR, 'node_modules', '@fontsource', entry.package, 'files');
const weightFile = (entry: { package: string }, subset: string, weight: 400 | 700) => path.join(filesDir(entry), `${entry.package}-${subset}-${weight}-normal.woff2`);

/** Whether the family ships a bold file (drawtext then draws it; otherwise the regular one). */
export function hasBold(choice: string): boolean {
  return existsSync(weightFile(FONT_MAP[choice as TFontChoice] ?? FONT_MAP.Arial, 'latin', 700));
}

/** The font file for a choice (bold when the family has it), Latin subset which covers French. */
export function fontFile(choice: string, bold: boolean): string {
  const entry = FONT_MAP[choice as TFontChoice] ?? FONT_MAP.Arial;
  const bolder = weightFile(entry, 'latin', 700);
  if (bold && existsSync(bolder)) return bolder;
  return weightFile(entry, 'latin', 400);
}

/**
 * The folder libass searches and the family name it must ask for. libass loads every file of its fonts
 * folder for each subtitle filter, and @fontsource's folders hold every weight, style and alphabet (252
 * files for Fira Sans, several of them 'Fira Sans Bold' without Latin letters): the folder given is a
 * small one of links to the upright regular and bold files of the Latin and Latin-extended subsets only,
 * made once per machine.
 */
export function subtitleFont(choice: string): { fontsDir: string; fontName: string } {
  const entry = FONT_MAP[choice as TFontChoice] ?? FONT_MAP.Arial;
  const dir = path.join(os.tmpdir(), 'vouchreel-fonts', entry.package);
  for (const subset of ['latin', 'latin-ext']) {
    for (const weight of [400, 700] as const) {
      const source = weightFile(entry, subset, weight);
      const link = path.join(dir, path.basename(source));
      if (!existsSync(source) || existsSync(link)) continue;
      mkdirSync(dir, { recursive: true });
      try {
        symlinkSync(source, link);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        // A link left by an older checkout points nowhere: made again (another process may race us to it).
        if (!existsSync(link)) {
          rmSync(link, { force: true });
          symlinkSync(source, link);
        }
      }
    }
  }
  return { fontsDir: dir, fontName: entry.family };
}
