/**
 * The Vite plugins of the web build (vite.config.ts): the recording page's own entry in development,
 * a preload of the font that paints the first screen, the public pages rendered to HTML, and brotli
 * and gzip siblings of every text asset.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import subsetFont from 'subset-font';
import type { Plugin } from 'vite';
import { startCall, startOnIntent } from '../src/web/app/start-on-intent.js';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** The customer's link (spec: /testimonial/submit/:token), answered with recording.html. */
export const RECORDING_PAGE_PATH = /^\/testimonial\/submit\/[^/]+\/?$/;

/**
 * `npm run dev`: the recording link opens recording.html, as the server answers it in production
 * (src/server/app.ts); any other page path falls back to index.html as usual.
 */
export function recordingPageInDev(): Plugin {
  return {
    name: 'vouchreel:recording-page-in-dev',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const pathname = (req.url ?? '/').split('?')[0] ?? '/';
        if (RECORDING_PAGE_PATH.test(pathname)) req.url = '/recording.html';
        next();
      });
    },
  };
}

/** The code points of a CSS `unicode-range` ('U+0000-00FF,U+0131'), as text for the subsetter. */
export function unicodeRangeText(range: string): string {
  let text = '';
  for (const part of range.split(',')) {
    const [from, to] = part.trim().replace(/^U\+/i, '').split('-').map((hex) => parseInt(hex, 16));
    if (from === undefined || Number.isNaN(from)) throw new Error(`unicodeRangeText: cannot read '${part}'`);
    for (let code = Math.max(from, 0x20); code <= (to ?? from); code++) text += String.fromCodePoint(code);
  }
  return text;
}

/** The `unicode-range` of the @font-face of `stylesheet` whose source is the file `name`. */
export async function unicodeRangeOf(stylesheet: string, name: string): Promise<string> {
  const css = await readFile(stylesheet, 'utf8');
  const face = (css.match(/@font-face\s*\{[^}]*\}/g) ?? []).find((rule) => rule.includes(`/${name})`));
  const range = face?.match(/unicode-range:\s*([^;}]+)/)?.[1];
  if (!range) throw new Error(`no @font-face with ${name} and a unicode-range in ${stylesheet}`);
  return range.trim();
}

/**
 * A variable font file made smaller before the build reads it: only the weights the app uses
 * (`weights`, an axis range), and every character of its @font-face's `unicode-range` (read from
 * `stylesheet`), none dropped. The stylesheet's reference to the file (matched by its name) resolves
 * to the subset, kept in a cache folder; the built asset is named after its own content like any other.
 */
export function subsetVariableFont(options: { source: string; stylesheet: string; weights: { min: number; max: number }; cacheDir: string }): Plugin {
  const name = path.basename(options.source);
  const subset = path.join(options.cacheDir, name);
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  let made: Promise<void> | null = null;
  const make = async () => {
    const font = await readFile(options.source);
    const out = await subsetFont(font, unicodeRangeText(await unicodeRangeOf(options.stylesheet, name)), {
      targetFormat: 'woff2',
      variationAxes: { wght: options.weights },
    });
    await mkdir(options.cacheDir, { recursive: true });
    await writeFile(subset, out);
  };
  return {
    name: 'vouchreel:subset-variable-font',
    config: () => ({ resolve: { alias: [{ find: new RegExp(`^(?:.*/)?${escaped}$`), replacement: subset }] } }),
    buildStart() {
      made ??= make();
      return made;
    },
  };
}

/**
 * `<link rel="preload" as="font" crossorigin>` in every built page for the font files whose names
 * match: the Latin subset of Inter, which paints the first screen of the landing and recording pages.
 * Without it the browser finds the font only after the stylesheet has arrived and been applied.
 */
export function preloadFonts(match: RegExp): Plugin {
  return {
    name: 'vouchreel:preload-fonts',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        if (!ctx.bundle) return;
        const fonts = Object.values(ctx.bundle).filter((file) => file.type === 'asset' && match.test(file.fileName));
        if (fonts.length === 0) throw new Error(`preloadFonts: no built font matches ${match}`);
        return fonts.map((font) => ({
          tag: 'link',
          attrs: { rel: 'preload', as: 'font', type: 'font/woff2', href: `/${font.fileName}`, crossorigin: '' },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

/** The app's entry script in a built page: `<script type="module" crossorigin src="/assets/index-….js"></script>`. */
const ENTRY_SCRIPT = /<script type="module" crossorigin src="(\/assets\/[\w.-]+\.js)"><\/script>/;
/** The entry's static imports, which Vite asks the browser to fetch at once. */
const MODULE_PRELOAD = /\s*<link rel="modulepreload" crossorigin href="(\/assets\/[\w.-]+\.js)">/g;

/**
 * A prerendered page is its HTML until its visitor shows intent (docs/decisions/170, after 152): the
 * page loads a small module instead of the app's entry (written beside the assets, its name carries
 * its content's hash), which imports the entry and its chunks, all at once, at the first sign of use
 * (src/web/app/start-on-intent.ts). Until then the network is the stylesheet's, the font's and the
 * hero poster's, and the main thread is free. Returns the page's script tag.
 */
async function writeStartOnIntent(outDir: string, template: string): Promise<string> {
  const entry = ENTRY_SCRIPT.exec(template)?.[1];
  if (!entry) throw new Error('prerenderPages: index.html has no module entry script');
  const modules = [...[...template.matchAll(MODULE_PRELOAD)].map((match) => match[1]!), entry];
  const { transformWithEsbuild } = await import('vite');
  const source = `// The prerendered page's app starts at the visitor's first sign of intent (docs/decisions/170).\n${startOnIntent.toString()}\n${startCall(modules)}\n`;
  const { code } = await transformWithEsbuild(source, 'start-on-intent.js', { minify: true, format: 'esm', target: 'es2020' });
  const name = `assets/start-on-intent-${createHash('sha256').update(code).digest('hex').slice(0, 8)}.js`;
  await writeFile(path.join(outDir, name), code);
  return `<script type="module" crossorigin src="/${name}"></script>`;
}

/** `template` with `start` for its entry script, and without the entry's preloads (`start` imports them). */
function withStartScript(template: string, start: string): string {
  return template.replace(ENTRY_SCRIPT, () => start).replace(MODULE_PRELOAD, '');
}

/** What the prerender entry (src/web/app/prerender.tsx) exports. */
interface PrerenderModule {
  PRERENDERED_PAGES: Record<string, string>;
  PRERENDERED_LANGUAGES: readonly string[];
  prerender(pathname: string, language: string): Promise<{ root: string; head: string }>;
}

/**
 * The public pages rendered to HTML once per language (docs/decisions/152): after the app's build,
 * `entry` is built for Node (in `cacheDir`), and each page it names is rendered into a copy of the
 * built index.html, `<name>.<language>.html`, which the server sends for that path in the visitor's
 * language (src/server/http/web-app.ts). Runs before `precompress`, which compresses the copies.
 */
export function prerenderPages(options: { entry: string; cacheDir: string }): Plugin {
  let outDir = '';
  let root = '';
  return {
    name: 'vouchreel:prerender-pages',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      sequential: true,
      async handler() {
        const { build } = await import('vite');
        const { default: react } = await import('@vitejs/plugin-react');
        // The same sources for Node: the packages stay imports (node_modules), the app's code is bundled.
        await build({
          configFile: false,
          root,
          logLevel: 'warn',
          plugins: [react()],
          build: { ssr: options.entry, outDir: options.cacheDir, emptyOutDir: true, copyPublicDir: false, rollupOptions: { output: { entryFileNames: 'prerender.mjs' } } },
        });
        // A fresh address each build: Node keeps the modules it has imported.
        const entry = pathToFileURL(path.join(options.cacheDir, 'prerender.mjs')).href;
        const pages = (await import(`${entry}?build=${Date.now()}`)) as PrerenderModule;
        const template = await readFile(path.join(outDir, 'index.html'), 'utf8');
        if (!template.includes('<div id="root"></div>')) throw new Error('prerenderPages: index.html has no empty <div id="root">');
        const start = await writeStartOnIntent(outDir, template);
        for (const [pathname, name] of Object.entries(pages.PRERENDERED_PAGES)) {
          for (const language of pages.PRERENDERED_LANGUAGES) {
            const page = await pages.prerender(pathname, language);
            const html = withStartScript(template, start)
              .replace(/<html lang="[^"]*"/, `<html lang="${language}"`)
              .replace('</head>', () => `${page.head}</head>`)
              .replace('<div id="root"></div>', () => `<div id="root" data-prerendered="${language}">${page.root}</div>`);
            await writeFile(path.join(outDir, `${name}.${language}.html`), html);
          }
        }
        this.info?.(`prerendered ${Object.keys(pages.PRERENDERED_PAGES).join(', ')} in ${pages.PRERENDERED_LANGUAGES.join(', ')}`);
      },
    },
  };
}

/** Text formats worth compressing. Media (video, images, fonts) is compressed already, and served by ranges. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest|map)$/i;
/**
 * Below this, compression saves less than a packet: @fastify/static then sends the file as it is.
 * Pages are compressed whatever their size, so that every page answers the same way.
 */
const MIN_BYTES = 1024;

/** Writes `x.br` and `x.gz` beside each text file under `dir` that compression makes smaller. */
export async function precompressDirectory(dir: string): Promise<{ files: number; bytes: number; br: number; gz: number }> {
  const totals = { files: 0, bytes: 0, br: 0, gz: 0 };
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    // Dot folders (Vite's .vite/manifest.json) are never served.
    if (path.relative(dir, file).split(path.sep).some((part) => part.startsWith('.'))) continue;
    if ((await stat(file)).size < MIN_BYTES && !entry.name.endsWith('.html')) continue;
    const source = await readFile(file);
    const [br, gzipped] = await Promise.all([
      brotli(source, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
        },
      }),
      gz(source, { level: constants.Z_BEST_COMPRESSION }),
    ]);
    totals.files += 1;
    totals.bytes += source.length;
    if (br.length < source.length) {
      await writeFile(`${file}.br`, br);
      totals.br += br.length;
    }
    if (gzipped.length < source.length) {
      await writeFile(`${file}.gz`, gzipped);
      totals.gz += gzipped.length;
    }
  }
  return totals;
}

/** Brotli (quality 11) and gzip (level 9) siblings of every built text asset, served by @fastify/static. */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'vouchreel:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const totals = await precompressDirectory(outDir);
        const kb = (n: number) => `${Math.round(n / 1024)} KB`;
        this.info?.(`precompressed ${totals.files} files: ${kb(totals.bytes)} → br ${kb(totals.br)}, gzip ${kb(totals.gz)}`);
      },
    },
  };
}
