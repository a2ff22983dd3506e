import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root: the nearest folder above this file with a package.json (works from src/ and dist/). */
function findRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

export const ROOT_DIR = findRoot();
export const MIGRATIONS_DIR = path.join(ROOT_DIR, 'src/server/db/migrations');
export const WEB_DIST_DIR = path.join(ROOT_DIR, 'dist/web');
