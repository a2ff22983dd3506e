// Builds the web app and the server when their output is missing or older than their sources.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function newest(entries) {
  let max = 0;
  const walk = (p) => {
    if (!existsSync(p)) return;
    const s = statSync(p);
    if (s.isDirectory()) {
      for (const name of readdirSync(p)) if (name !== 'node_modules') walk(path.join(p, name));
    } else if (s.mtimeMs > max) max = s.mtimeMs;
  };
  for (const e of entries) walk(path.join(root, e));
  return max;
}

function outdated(output, sources) {
  const out = path.join(root, output);
  if (!existsSync(out)) return true;
  return statSync(out).mtimeMs < newest(sources);
}

function run(label, args) {
  process.stdout.write(`${label}…\n`);
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    throw new Error(`${label} failed.`);
  }
}

/** One build at a time when several test runs start together (a stale lock expires after 5 minutes). */
function withLock(fn) {
  const lock = path.join(root, '.build.lock');
  const started = Date.now();
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 300_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() - started > 600_000) throw new Error(`${lock} is held; remove it if no build is running`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export function ensureBuilt() {
  withLock(build);
}

/** The server alone (the reliability suite runs API and worker processes without the web app). */
export function ensureServerBuilt() {
  withLock(buildServer);
}

const common = ['src/contract', 'package-lock.json'];

function build() {
  if (outdated('dist/web/index.html', ['src/web', 'public', 'vite.config.ts', 'scripts/vite-plugins.ts', ...common])) {
    run('Building the web app', [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn']);
  }
  buildServer();
}

let templateChecked = true;

function buildServer() {
  if (outdated('dist/node/server/main.js', ['src/server', 'src/web/i18n', 'tsconfig.server.json', 'tsconfig.base.json', ...common])) {
    run('Building the server', [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.server.json']);
    templateChecked = false;
  }
  // The empty database a new DATA_DIR starts from (decision 181): checked after each compile (its key
  // follows the migrations and the PGlite and pg-boss versions), made when missing.
  if (!templateChecked || !existsSync(path.join(root, 'dist/pglite-template/template.json'))) {
    run('Checking the embedded database template', [path.join(root, 'scripts/pglite-template.mjs')]);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--server')) ensureServerBuilt();
  else ensureBuilt();
}
