import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { precompress, preloadFonts, prerenderPages, recordingPageInDev, subsetVariableFont } from './scripts/vite-plugins.js';

const root = fileURLToPath(new URL('./src/web', import.meta.url));
// The API target for `npm run dev`; the dev script passes it, nothing else reads it.
const apiTarget = process.env.VITE_API_TARGET ?? 'http://127.0.0.1:3001';
// Source maps carry the full sources (sourcesContent): the public build has none unless an operator
// asks for them for a debugging build (BUILD_SOURCEMAPS=true). `npm run dev` serves its own maps.
const sourcemap = /^(1|true|yes)$/i.test(process.env.BUILD_SOURCEMAPS ?? '');

export default defineConfig({
  root,
  publicDir: fileURLToPath(new URL('./public', import.meta.url)),
  plugins: [
    react(),
    tailwindcss(),
    recordingPageInDev(),
    // Inter's Latin file, with the weights the app uses (font-normal to font-bold): 48 → 30 KB.
    subsetVariableFont({
      source: fileURLToPath(new URL('./node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2', import.meta.url)),
      stylesheet: fileURLToPath(new URL('./node_modules/@fontsource-variable/inter/index.css', import.meta.url)),
      weights: { min: 400, max: 700 },
      cacheDir: fileURLToPath(new URL('./node_modules/.cache/vouchreel-fonts', import.meta.url)),
    }),
    // Inter's Latin subset paints the first screen of every page (the others load by unicode-range).
    preloadFonts(/^assets\/inter-latin-wght-normal-[\w-]+\.woff2$/),
    // The landing page as HTML in each language, hydrated by main.tsx (docs/decisions/152).
    prerenderPages({
      entry: fileURLToPath(new URL('./src/web/app/prerender.tsx', import.meta.url)),
      cacheDir: fileURLToPath(new URL('./node_modules/.cache/vouchreel-prerender', import.meta.url)),
    }),
    precompress(),
  ],
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    sourcemap,
    manifest: true,
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      // zod 4's sources mention `@__PURE__` in two prose comments (core/regexes.js, core/util.js), which
      // Rollup reads as misplaced annotations and drops with a warning: nothing is lost, so only those
      // are silenced. Every other warning, an annotation of any other package's included, is printed.
      onwarn(warning, warn) {
        if (warning.code === 'INVALID_ANNOTATION' && /[\\/]node_modules[\\/]zod[\\/]/.test(warning.id ?? '')) return;
        warn(warning);
      },
      // Two pages: the app (index.html), and the customer's recording page with its own small entry
      // (recording.html, served for /testimonial/submit/:token; docs/decisions/125).
      input: {
        index: fileURLToPath(new URL('./src/web/index.html', import.meta.url)),
        recording: fileURLToPath(new URL('./src/web/recording.html', import.meta.url)),
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': apiTarget,
      '/dev': apiTarget,
      '/media': apiTarget,
      // The API reference page (decision 214) is the server's.
      '/developers': apiTarget,
    },
  },
});
