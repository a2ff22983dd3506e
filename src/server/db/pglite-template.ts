import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { MIGRATIONS_DIR, ROOT_DIR } from '../lib/paths.js';

/**
 * A new embedded database starts as a copy of an empty one made by the build (decision 181): creating
 * PGlite's data folder (initdb), then running every migration and pg-boss's schema, took most of a cold
 * start. The build writes `dist/pglite-template/` (the data folder of a database that has all of this and
 * no row of ours) with a key: the PGlite and pg-boss versions and a digest of the migrations. A start that
 * finds no data folder copies it when the key still matches; otherwise it creates the database as before.
 * The start's own migration run then finds nothing to do (or applies what the template lacks).
 */
export const PGLITE_TEMPLATE_DIR = path.join(ROOT_DIR, 'dist/pglite-template');
const KEY_FILE = 'template.json';
const DATA = 'pgdata';

const require = createRequire(import.meta.url);

/** The version in a package's package.json (found above its entry, since `exports` may hide the file). */
function packageVersion(name: string): string {
  let dir = path.dirname(require.resolve(name));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === name) return pkg.version ?? 'unknown';
    }
    const parent = path.dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}

/** What the template was made from: a template with another key is not used. */
export function templateKey(migrationsDir = MIGRATIONS_DIR): string {
  const hash = createHash('sha256');
  hash.update(`pglite ${packageVersion('@electric-sql/pglite')}\npg-boss ${packageVersion('pg-boss')}\n`);
  const files = ['meta/_journal.json', ...readdirSync(migrationsDir).filter((name) => name.endsWith('.sql')).sort()];
  for (const name of files) {
    hash.update(`${name}\n`);
    hash.update(readFileSync(path.join(migrationsDir, name)));
  }
  return hash.digest('hex');
}

async function readKey(templateDir: string): Promise<string | undefined> {
  try {
    return (JSON.parse(await readFile(path.join(templateDir, KEY_FILE), 'utf8')) as { key?: string }).key;
  } catch {
    return undefined;
  }
}

/** Files copied at once: the data folder is some 1,200 files, which `fs.cp` copies one after another. */
const COPIES_AT_ONCE = 8;

/**
 * Copies a folder's tree: the folders first, then the files several at a time (libuv's threads copy
 * them). Measured here on the template: 0.17 s against 1.15 s for `fs.cp`, most of a cold start.
 */
async function copyTree(from: string, to: string): Promise<void> {
  const folders: string[] = [];
  const files: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    folders.push(relative);
    for (const entry of await readdir(path.join(from, relative), { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) await walk(child);
      else files.push(child);
    }
  };
  await walk('');
  for (const folder of folders) await mkdir(path.join(to, folder), { recursive: true });
  let next = 0;
  const copier = async (): Promise<void> => {
    while (next < files.length) {
      const file = files[next++]!;
      await copyFile(path.join(from, file), path.join(to, file));
    }
  };
  await Promise.all(Array.from({ length: COPIES_AT_ONCE }, copier));
}

/** True when `dir` is missing or an empty folder: no database there yet. */
async function isFree(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

/**
 * Gives `dataDir` the template's data folder when `dataDir` holds no database yet and the template's key
 * matches. Copied under a temporary name, then renamed: a start cut short leaves no half database.
 * Returns whether it did; on false the caller creates the database as before.
 */
export async function seedFromTemplate(dataDir: string, templateDir = PGLITE_TEMPLATE_DIR): Promise<boolean> {
  if (!(await isFree(dataDir))) return false;
  const key = await readKey(templateDir);
  if (!key || key !== templateKey()) return false;
  const partial = `${dataDir}.seeding-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  try {
    await copyTree(path.join(templateDir, DATA), partial);
    await rmdir(dataDir).catch(() => undefined);
    await rename(partial, dataDir);
    return true;
  } catch {
    await rm(partial, { recursive: true, force: true });
    return false;
  }
}

/**
 * Writes the template (the build runs this once per key): `prepare` creates the database in the folder it
 * is given, migrates it and closes it. Skipped when the template's key already matches.
 */
export async function writeTemplate(prepare: (dataDir: string) => Promise<void>, templateDir = PGLITE_TEMPLATE_DIR): Promise<'written' | 'current'> {
  const key = templateKey();
  if ((await readKey(templateDir)) === key) return 'current';
  const building = `${templateDir}.building-${process.pid}`;
  await rm(building, { recursive: true, force: true });
  await mkdir(building, { recursive: true });
  try {
    await prepare(path.join(building, DATA));
    await writeFile(path.join(building, KEY_FILE), JSON.stringify({ key, at: new Date().toISOString() }, null, 2) + '\n');
    await rm(templateDir, { recursive: true, force: true });
    await rename(building, templateDir);
    return 'written';
  } finally {
    await rm(building, { recursive: true, force: true });
  }
}
