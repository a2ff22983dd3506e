import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../db/client.js';

/**
 * One database per test worker, migrated once: PGlite in memory by default, or a scratch database on
 * the PostgreSQL of TEST_DATABASE_URL when the 'postgres' project runs. Files reset its tables.
 */
let shared: Promise<Database> | undefined;

// Tests are the one place besides config.ts that read the environment: they choose the database.
const testDb = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
const adminUrl = process.env.TEST_DATABASE_URL;

async function create(): Promise<Database> {
  if (testDb === 'postgres') {
    if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
    const scratchName = `vr_test_${process.env.VR_TEST_RUN ?? 'solo'}_${process.pid}_${randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${scratchName}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${scratchName}`;
    const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 5 });
    await database.migrate();
    return database;
  }
  const database = await openDatabase({ pgliteDataDir: 'memory://' });
  await database.migrate();
  return database;
}

export function testDatabaseDriver(): 'pglite' | 'postgres' {
  return testDb;
}

export function workerDatabase(): Promise<Database> {
  shared ??= create();
  return shared;
}

/** Empties every table of the app (not the migrations journal) and the job queue. */
export async function resetDatabase(database: Database): Promise<void> {
  const { rows } = await database.executeSql(`select tablename from pg_tables where schemaname = 'public'`, []);
  const tables = (rows as { tablename: string }[]).map((r) => `"public"."${r.tablename}"`);
  if (tables.length) await database.executeSql(`truncate ${tables.join(', ')} restart identity cascade`, []);
  const boss = await database.executeSql(`select to_regclass('pgboss.job') is not null as present`, []);
  if ((boss.rows[0] as { present: boolean } | undefined)?.present) await database.executeSql('delete from pgboss.job', []);
}
