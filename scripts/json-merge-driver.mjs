#!/usr/bin/env node
/**
 * A git merge driver for the translation catalogues and drizzle's migration journal: a three-way merge
 * of JSON key by key, so that two branches adding messages (or migrations) merge without conflicts.
 * Only a key changed differently on both sides is a conflict (ours is kept, and the merge stops).
 * Journal entries (objects with `idx` and `tag`) are joined by tag and ordered by idx.
 *
 * Set up once per clone:
 *   git config merge.jsonkeys.driver "node scripts/json-merge-driver.mjs %O %A %B"
 *   printf 'src/web/i18n/*.json merge=jsonkeys\nsrc/server/db/migrations/meta/_journal.json merge=jsonkeys\n' >> .git/info/attributes
 */
import { readFileSync, writeFileSync } from 'node:fs';
const [basePath, oursPath, theirsPath] = process.argv.slice(2);
const load = (p) => { try { return JSON.parse(readFileSync(p, 'utf8')); } catch { return undefined; } };
const base = load(basePath) ?? {}, ours = load(oursPath), theirs = load(theirsPath);
if (ours === undefined || theirs === undefined) process.exit(1);
let conflicts = 0;
const isObj = (v) => v && typeof v === 'object' && !Array.isArray(v);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
function merge(b, o, t, path) {
  if (same(o, t)) return o;
  if (same(b, t)) return o;
  if (same(b, o)) return t;
  if (isObj(o) && isObj(t)) {
    const bb = isObj(b) ? b : {};
    const out = {};
    const keys = [...Object.keys(o), ...Object.keys(t).filter((k) => !(k in o))];
    for (const k of keys) {
      const v = merge(bb[k], o[k], t[k], path + '.' + k);
      if (v !== undefined) out[k] = v;
    }
    return out;
  }
  if (Array.isArray(o) && Array.isArray(t) && [...o, ...t].every((e) => isObj(e) && 'tag' in e && 'idx' in e)) {
    const byTag = new Map();
    for (const e of [...o, ...t]) if (!byTag.has(e.tag)) byTag.set(e.tag, e);
    return [...byTag.values()].sort((x, y) => x.idx - y.idx);
  }
  conflicts++;
  console.error(`json-merge conflict at ${path}`);
  return o;
}
const result = merge(base, ours, theirs, '');
writeFileSync(oursPath, JSON.stringify(result, null, 2) + '\n');
process.exit(conflicts ? 1 : 0);
