import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('./src/web', import.meta.url));
// The API target for `npm run dev`; the dev script passes it, nothing else reads it.
const apiTarget = process.env.VITE_API_TARGET ?? 'http://127.0.0.1:3001';
// Source maps carry the full sources (sourcesContent): the public build has none unless an operator
// asks for them for a debugging build (BUILD_SOURCEMAPS=true). `npm run dev` serves its own maps.
const sourcemap = /^(1|true|yes)$/i.test(process.env.BUILD_SOURCEMAPS ?? '');

export default defineConfig({
  root,
  publicDir: fileURLToPath(new URL('./public', import.meta.url)),
  plugins: [react(), tailwindcss()],
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    sourcemap,
    manifest: true,
    chunkSizeWarningLimit: 600,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': apiTarget,
      '/dev': apiTarget,
      '/media': apiTarget,
    },
  },
});
