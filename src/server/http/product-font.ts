import { readFileSync } from 'node:fs';
import path from 'node:path';
import { WEB_DIST_DIR } from '../lib/paths.js';

/**
 * The product's font on the few pages the server writes itself (the test-mode checkout): the web
 * app's own Inter, from the web app's own built assets. The `@font-face` rules are taken from the
 * stylesheet Vite built (found through its manifest), so their addresses are the very `/assets/…woff2`
 * files the dashboard already loaded (same URL, already in the browser's cache, immutable), with their
 * `unicode-range` subsets, and the page's CSP (`font-src 'self'`) allows them. Without a built web app
 * (the API alone, `npm run dev`) there are no rules and the page falls back to the system stack.
 */

/** The family the web app sets (src/web/styles/theme.css `--font-sans`), with the same fallbacks. */
export const PRODUCT_FONT_STACK = "'Inter Variable', ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

const cache = new Map<string, string>();

interface ManifestChunk {
  isEntry?: boolean;
  css?: string[];
  imports?: string[];
}

/** The stylesheets the pages load first: those of each entry and of the chunks it imports (shared ones too). */
function entryStylesheets(manifest: Record<string, ManifestChunk>): string[] {
  const sheets = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    for (const sheet of chunk.css ?? []) sheets.add(sheet);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  return [...sheets];
}

/** The `@font-face` rules of the product font in the built web app under `webDir` ('' when there is none). */
export function productFontFaces(webDir: string = WEB_DIST_DIR): string {
  const cached = cache.get(webDir);
  if (cached !== undefined) return cached;
  let rules = '';
  try {
    const manifest = JSON.parse(readFileSync(path.join(webDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
    const sheets = entryStylesheets(manifest);
    const faces = sheets.flatMap((sheet) => readFileSync(path.join(webDir, sheet), 'utf8').match(/@font-face\s*\{[^}]*\}/g) ?? []);
    rules = faces.filter((face) => /font-family:\s*["']?Inter Variable["']?\s*;/.test(face)).join('\n');
  } catch {
    rules = '';
  }
  // An empty answer is not kept: a build made after the start is found on the next page.
  if (rules) cache.set(webDir, rules);
  return rules;
}
