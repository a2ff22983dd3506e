/**
 * `npm run bench`: start-up time, API latency and the weight of what a phone downloads.
 * Figures are printed as a table and written to bench/results.json. Compare against a bare route
 * measured in the same run, never against absolute numbers from another machine.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { startServer } from '../e2e/support/server.js';
import { answersBench } from './answers.js';
import { renderBench } from './render.js';
import { transcriptionBench } from './transcription.js';

const root = path.resolve(import.meta.dirname, '..');

function ensureBuilt() {
  const r = spawnSync(process.execPath, [path.join(root, 'scripts/build-if-needed.mjs')], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

async function latency(url: string, n: number) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))]! * 100) / 100;
  return { p50_ms: q(0.5), p95_ms: q(0.95) };
}

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/** Gzipped bytes of a chunk and everything it statically imports (what the browser must fetch). */
async function weight(manifest: Record<string, ManifestChunk>, keys: string[]) {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  keys.forEach(visit);
  let js = 0;
  let css = 0;
  for (const file of files) {
    const gz = gzipSync(await readFile(path.join(root, 'dist/web', file))).length;
    if (file.endsWith('.css')) css += gz;
    else js += gz;
  }
  return { js_gzip_kb: Math.round(js / 102.4) / 10, css_gzip_kb: Math.round(css / 102.4) / 10, files: files.size };
}

async function main() {
  ensureBuilt();
  const results: Record<string, unknown> = {};

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'vouchreel-bench-'));
  let started = performance.now();
  let server = await startServer({ LOG_LEVEL: 'error' }, { dataDir, keepData: true });
  results.cold_start_to_healthy_ms = Math.round(performance.now() - started);
  await server.stop();
  started = performance.now();
  server = await startServer({ LOG_LEVEL: 'error' }, { dataDir, keepData: true });
  results.warm_start_to_healthy_ms = Math.round(performance.now() - started);

  await latency(`${server.url}/api/health`, 30);
  results.api_404_latency = await latency(`${server.url}/api/nothing`, 300);
  results.health_latency = await latency(`${server.url}/api/health`, 300);
  results.index_html_latency = await latency(`${server.url}/`, 300);
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });

  const manifest = JSON.parse(await readFile(path.join(root, 'dist/web/.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const entry = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  const byPath = (fragment: string) => Object.keys(manifest).filter((k) => (manifest[k]?.src ?? k).includes(fragment));
  if (!entry) throw new Error('no entry in the Vite manifest');
  results.landing_page_weight = await weight(manifest, [entry, ...byPath('features/landing/landing-page')]);
  results.recording_page_weight = await weight(manifest, [entry, ...byPath('features/recording/')]);
  results.dashboard_weight = await weight(manifest, [entry, ...byPath('features/dashboard/')]);

  Object.assign(results, await answersBench());
  Object.assign(results, await renderBench());
  Object.assign(results, await transcriptionBench());

  console.table(
    Object.fromEntries(Object.entries(results).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : v])),
  );
  await writeFile(path.join(root, 'bench/results.json'), JSON.stringify({ at: new Date().toISOString(), ...results }, null, 2) + '\n');
}

await main();
