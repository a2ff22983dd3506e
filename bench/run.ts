/**
 * `npm run bench`: start-up time, API latency, the weight of what a phone downloads (scripts and
 * styles per route, gzip and brotli) and Lighthouse's mobile run on the landing and recording pages.
 * Figures are printed as a table and written to bench/results.json (`--only=start,lighthouse` runs only
 * those sections and writes bench/results.partial.json). Compare against a bare route
 * measured in the same run, never against absolute numbers from another machine.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { startServer } from '../tests/e2e/support/server.js';
import { lighthouseBench } from './lighthouse.js';
import { answersBench } from './answers.js';
import { draftsBench } from './drafts.js';
import { formatsBench } from './formats.js';
import { formatsJobsBench } from './formats-jobs.js';
import { qrBench } from './qr.js';
import { renderBench } from './render.js';
import { transcriptionBench } from './transcription.js';

const root = path.resolve(import.meta.dirname, '..');

/** The sections of the bench, in the order they run. `npm run bench -- --only=start,lighthouse` runs some. */
const SECTIONS = ['start', 'weight', 'lighthouse', 'answers', 'render', 'transcription', 'formats', 'drafts', 'qr'] as const;
type TSection = (typeof SECTIONS)[number];

function chosenSections(argv: string[]): ReadonlySet<TSection> {
  const only = argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
  if (!only) return new Set(SECTIONS);
  const names = only.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(SECTIONS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    console.error(`Unknown bench section: ${unknown.join(', ')}. The sections are: ${SECTIONS.join(', ')}.`);
    process.exit(2);
  }
  return new Set(names as TSection[]);
}

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

/** Bytes a browser receives for a built file: its .br / .gz sibling when the build wrote one, else compressed here. */
async function wireBytes(file: string): Promise<{ raw: number; gzip: number; br: number }> {
  const full = path.join(root, 'dist/web', file);
  const source = await readFile(full);
  const sibling = async (ext: string, make: () => Buffer) => {
    try {
      return (await stat(`${full}${ext}`)).size;
    } catch {
      return make().length;
    }
  };
  return {
    raw: source.length,
    gzip: await sibling('.gz', () => gzipSync(source, { level: 9 })),
    br: await sibling('.br', () => brotliCompressSync(source)),
  };
}

const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;

/**
 * The scripts and styles a route loads (its manifest entries and everything they import statically),
 * in KB as they go over the wire with gzip and with brotli: the page-weight budget of each route.
 */
async function weight(manifest: Record<string, ManifestChunk>, keys: string[]) {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`no ${key} in the Vite manifest`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  keys.forEach(visit);
  const totals = { js: { gzip: 0, br: 0 }, css: { gzip: 0, br: 0 } };
  for (const file of files) {
    const bytes = await wireBytes(file);
    const kind = file.endsWith('.css') ? totals.css : totals.js;
    kind.gzip += bytes.gzip;
    kind.br += bytes.br;
  }
  return {
    js_gzip_kb: kb(totals.js.gzip),
    js_br_kb: kb(totals.js.br),
    css_gzip_kb: kb(totals.css.gzip),
    css_br_kb: kb(totals.css.br),
    files: files.size,
  };
}

/** The JS budget of the customer's recording page over the wire (issue 18), brotli as browsers get it. */
const RECORDING_JS_BUDGET_KB = 90;

async function main() {
  const sections = chosenSections(process.argv.slice(2));
  ensureBuilt();
  const results: Record<string, unknown> = {};
  if (sections.has('start')) await startBench(results);
  if (sections.has('weight')) await weightBench(results);
  if (sections.has('lighthouse')) {
    // Lighthouse (mobile) on the landing page and real customer pages, against the built app.
    const lighthouseData = await mkdtemp(path.join(os.tmpdir(), 'vouchreel-bench-lh-'));
    const server = await startServer({ LOG_LEVEL: 'error' }, { dataDir: lighthouseData });
    try {
      Object.assign(results, await lighthouseBench(server.url, { runs: Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 5) }));
    } finally {
      await server.stop();
    }
  }
  if (sections.has('answers')) Object.assign(results, await answersBench());
  if (sections.has('render')) Object.assign(results, await renderBench());
  if (sections.has('transcription')) Object.assign(results, await transcriptionBench());
  if (sections.has('formats')) Object.assign(results, await formatsBench(), await formatsJobsBench());
  if (sections.has('drafts')) Object.assign(results, await draftsBench());
  if (sections.has('qr')) Object.assign(results, await qrBench());

  console.table(
    Object.fromEntries(Object.entries(results).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : v])),
  );
  // Every Lighthouse run, one line each: a target is held to the worst of them.
  for (const [key, value] of Object.entries(results)) {
    if (!key.startsWith('lighthouse_')) continue;
    const figures = value as { runs: string[]; worst: { performance: number; lcp_s: number; tbt_ms: number } };
    console.log(`${key}: ${figures.runs.map((run, i) => `run ${i + 1}: ${run}`).join('; ')}; worst ${figures.worst.performance}, LCP ${figures.worst.lcp_s} s`);
  }
  // A partial run writes its own file, so the full run's figures stay.
  const file = sections.size === SECTIONS.length ? 'results.json' : 'results.partial.json';
  await writeFile(path.join(root, 'bench', file), JSON.stringify({ at: new Date().toISOString(), sections: [...sections], ...results }, null, 2) + '\n');
}

/** Start to healthy, with a fresh DATA_DIR (cold) and again with the same one (warm), then API latency. */
async function startBench(results: Record<string, unknown>) {
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
}

async function weightBench(results: Record<string, unknown>) {
  // Page weight per route: what each page's first screen loads (one language's messages: the app's
  // catalogues are chunks of their own, docs/decisions/141).
  const manifest = JSON.parse(await readFile(path.join(root, 'dist/web/.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  results.landing_page_weight = await weight(manifest, ['index.html', 'features/landing/landing-page.tsx', 'i18n/en.json']);
  results.recording_page_weight = await weight(manifest, ['recording.html', 'i18n/recording-messages.en.ts']);
  results.dashboard_weight = await weight(manifest, [
    'index.html',
    'i18n/en.json',
    'features/dashboard/dashboard-layout.tsx',
    'features/dashboard/overview/overview-screen.tsx',
  ]);
  const recordingJs = (results.recording_page_weight as { js_br_kb: number }).js_br_kb;
  results.recording_js_budget = `${recordingJs} KB of ${RECORDING_JS_BUDGET_KB} KB (brotli)${recordingJs > RECORDING_JS_BUDGET_KB ? ' — over' : ''}`;
}

await main();
