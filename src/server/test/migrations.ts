import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { MIGRATIONS_DIR } from '../lib/paths.js';

export interface DatabaseAtMigration {
  /** An in-memory database migrated up to the migration asked for, as the release that ended there left it. */
  pg: PGlite;
  /** Runs every later migration, as the upgrade does. */
  upgrade: () => Promise<void>;
  /** Closes the database and removes the folder of earlier migrations. */
  close: () => Promise<void>;
}

/**
 * For migration tests: a database at migration `lastIdx` (inclusive), built from a folder holding only
 * the migrations up to it, so that a test can write rows in the old shape and then upgrade.
 */
export async function databaseAtMigration(lastIdx: number): Promise<DatabaseAtMigration> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'vr-migrations-'));
  const journal = JSON.parse(await readFile(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: { idx: number; tag: string }[] };
  const previous = journal.entries.filter((e) => e.idx <= lastIdx);
  for (const e of previous) await cp(path.join(MIGRATIONS_DIR, `${e.tag}.sql`), path.join(folder, `${e.tag}.sql`));
  await cp(path.join(MIGRATIONS_DIR, 'meta'), path.join(folder, 'meta'), { recursive: true });
  await writeFile(path.join(folder, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: previous }));
  const pg = await PGlite.create('memory://');
  await migrate(drizzle(pg), { migrationsFolder: folder });
  return {
    pg,
    upgrade: () => migrate(drizzle(pg), { migrationsFolder: MIGRATIONS_DIR }),
    close: async () => {
      await pg.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}
