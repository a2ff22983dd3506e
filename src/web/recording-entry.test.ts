import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import en from './i18n/en.json';
import recordingEn from './i18n/recording-messages.en';
import recordingFr from './i18n/recording-messages.fr';

/**
 * The customer's recording page is its own entry (recording.tsx, docs/decisions/125): what its
 * sources import decides what a customer's phone downloads. Every module it reaches, followed from
 * the entry through the sources' imports, must stay clear of the app's heavy parts, and every
 * translation key those modules name must be in the recording page's own messages.
 */

type Tree = { [key: string]: string | Tree };

const WEB = import.meta.dirname;
const ENTRY = path.join(WEB, 'recording.tsx');

/**
 * Packages and modules the recording page must never load. i18next and react-i18next included: the
 * page has its own translator (i18n/translator.ts, docs/decisions/139), so the shared pieces that
 * read their text through react-i18next (Seo, Logo, SkipLink, useLanguage) stay out too.
 */
const FORBIDDEN = [
  /^i18next/,
  /^react-i18next/,
  /^react-router/,
  /^@tanstack\//,
  /^@radix-ui\//,
  /^react-toastify/,
  /^@dnd-kit\//,
  /^driver\.js/,
  /^zod/,
  /\/features\/(?!recording\/)/,
  /\/i18n\/i18n$/,
  /\/lib\/(api-client|query-client|auth-context)$/,
];

function resolveSource(from: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(from), specifier.replace(/\?.*$/, '').replace(/\.js$/, ''));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && !candidate.endsWith(path.sep) && /\.(tsx?|json|css)$/.test(candidate)) return candidate;
  }
  return null;
}

/** Every module the entry reaches through value imports (type-only imports load nothing). */
function importGraph(entry: string): { files: Set<string>; packages: Map<string, string> } {
  const files = new Set<string>();
  const packages = new Map<string, string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    if (!/\.tsx?$/.test(file)) return;
    const text = readFileSync(file, 'utf8');
    const imports = [
      ...text.matchAll(/^\s*import\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm),
      ...Array.from(text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g), (m) => [m[0], undefined, m[1]] as const),
    ];
    for (const [, typeOnly, specifier] of imports) {
      if (typeOnly || !specifier) continue;
      if (specifier.startsWith('.')) {
        const resolved = resolveSource(file, specifier);
        if (!resolved) throw new Error(`${path.relative(WEB, file)}: cannot resolve ${specifier}`);
        visit(resolved);
      } else packages.set(specifier, path.relative(WEB, file));
    }
  };
  visit(entry);
  return { files, packages };
}

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const at = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(at, value);
    else for (const [k, v] of flatten(value, at)) out.set(k, v);
  }
  return out;
}

describe('the recording page entry', () => {
  const graph = importGraph(ENTRY);
  const relative = [...graph.files].map((f) => path.relative(WEB, f).split(path.sep).join('/'));

  it('reaches the recording page and none of the app: no router, server-state cache, menus, dashboard', () => {
    expect(relative).toContain('features/recording/recording-page.tsx');
    for (const [specifier, importer] of graph.packages) {
      for (const rule of FORBIDDEN) expect(rule.test(specifier), `${importer} imports ${specifier}`).toBe(false);
    }
    for (const file of relative) {
      for (const rule of FORBIDDEN) expect(rule.test(`/${file.replace(/\.tsx?$/, '')}`), file).toBe(false);
    }
  });

  it('loads the full catalogues only through the recording messages of one language', () => {
    const catalogues = relative.filter((f) => /^i18n\/(en|fr)\.json$/.test(f));
    expect(catalogues.sort()).toEqual(['i18n/en.json', 'i18n/fr.json']);
    for (const file of graph.files) {
      if (!/\.tsx?$/.test(file)) continue;
      const text = readFileSync(file, 'utf8');
      const importsCatalogue = /from\s+['"]\.\/(en|fr)\.json(\?[\w]+)?['"]/.test(text);
      expect(importsCatalogue && !/recording-messages\.(en|fr)\.ts$/.test(file), path.relative(WEB, file)).toBe(false);
      // Only recording-i18n.ts loads them, by a dynamic import (a chunk per language).
      if (/recording-messages\.(en|fr)/.test(text) && !file.endsWith('recording-messages.test.ts')) {
        expect(path.relative(WEB, file), 'who loads the recording messages').toBe(path.join('i18n', 'recording-i18n.ts'));
        expect(text).not.toMatch(/^import[^(]*recording-messages/m);
      }
    }
  });

  it('picks the parts the server writes into the page (src/server/http/recording-page.ts)', () => {
    expect(recordingEn).toEqual({ common: en.common, meta: en.meta, recording: en.recording, collectPage: en.collectPage, errors: { app: en.errors.app, reasons: en.errors.reasons } });
  });

  it('has the same messages in English and French', () => {
    expect([...flatten(recordingFr as Tree).keys()].sort()).toEqual([...flatten(recordingEn as Tree).keys()].sort());
  });

  it("carries every key its modules name, and nothing of the app's other screens", () => {
    const all = flatten(en as Tree);
    const picked = flatten(recordingEn as Tree);
    const subtrees = (prefix: string) => [...all.keys()].some((k) => k.startsWith(prefix));
    const missing: string[] = [];
    for (const file of graph.files) {
      if (!/\.tsx?$/.test(file) || /recording-messages\.(en|fr)\.ts$/.test(file)) continue;
      const text = readFileSync(file, 'utf8');
      // Whole keys in quotes ('recording.title'), and the fixed start of built ones (`recording.steps.${key}`).
      for (const [, key] of text.matchAll(/['"`]([a-z][\w]*(?:\.[\w]+)+)['"`]/gi)) {
        if (key && all.has(key) && !picked.has(key)) missing.push(`${path.relative(WEB, file)}: ${key}`);
      }
      for (const [, prefix] of text.matchAll(/`([a-z][\w]*(?:\.[\w]+)*\.)\$\{/gi)) {
        if (prefix && subtrees(prefix) && ![...picked.keys()].some((k) => k.startsWith(prefix))) missing.push(`${path.relative(WEB, file)}: ${prefix}*`);
      }
    }
    expect(missing).toEqual([]);
    // The dashboard's, the landing page's and the sign-in's texts stay out.
    for (const key of picked.keys()) expect(key, key).toMatch(/^(common|meta|recording|collectPage|errors\.(app|reasons))\./);
  });
});
