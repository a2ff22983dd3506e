#!/usr/bin/env node
/**
 * Deep-merges translation fragments into src/web/i18n/en.json and fr.json, under a lock so that
 * several people adding strings at the same time never overwrite each other.
 *
 *   node scripts/i18n-merge.mjs <en-fragment.json> <fr-fragment.json>
 *
 * A fragment is a JSON object shaped like the catalogue (e.g. { "payment": { "title": "…" } });
 * its strings replace existing ones at the same path. Key order of existing entries is kept.
 */
import { mkdirSync, readFileSync, renameSync, rmdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'web', 'i18n');
const [enFragment, frFragment] = process.argv.slice(2);
if (!enFragment || !frFragment) {
  console.error('usage: node scripts/i18n-merge.mjs <en-fragment.json> <fr-fragment.json>');
  process.exit(2);
}

function merge(target, source, path = '') {
  for (const [key, value] of Object.entries(source)) {
    const at = path ? `${path}.${key}` : key;
    if (value !== null && typeof value === 'object') {
      if (typeof target[key] === 'string') throw new Error(`${at} is a string in the catalogue, an object in the fragment`);
      target[key] ??= {};
      merge(target[key], value, at);
    } else if (typeof value === 'string') {
      if (target[key] !== undefined && typeof target[key] !== 'string') throw new Error(`${at} is an object in the catalogue`);
      target[key] = value;
    } else throw new Error(`${at}: only strings and objects are allowed`);
  }
}

const lock = join(root, '.merge.lock');
const deadline = Date.now() + 30_000;
for (;;) {
  try {
    mkdirSync(lock);
    break;
  } catch {
    if (Date.now() > deadline) throw new Error(`lock ${lock} held for 30 s; remove it if no merge is running`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
try {
  for (const [lang, fragment] of [['en', enFragment], ['fr', frFragment]]) {
    const file = join(root, `${lang}.json`);
    const catalogue = JSON.parse(readFileSync(file, 'utf8'));
    merge(catalogue, JSON.parse(readFileSync(fragment, 'utf8')));
    writeFileSync(`${file}.tmp`, `${JSON.stringify(catalogue, null, 2)}\n`);
    renameSync(`${file}.tmp`, file);
  }
} finally {
  rmdirSync(lock);
}
