import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../lib/paths.js';
import * as schema from './schema.js';

export type Schema = typeof schema;
/** The one database type services use; both drivers produce it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle, or the database itself, for functions that work inside either. */
export type DbOrTx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

/** Raw SQL executor, as pg-boss's `db` option expects it. */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

/**
 * A Drizzle database bound to a connection that is already inside a transaction: its `transaction`
 * becomes a savepoint (Drizzle's own would send BEGIN/COMMIT on node-postgres, or call a method PGlite's
 * transaction lacks).
 */
function insideTransaction(db: Db): Db {
  let depth = 0;
  const savepoint = async <T>(fn: (tx: Db) => Promise<T>): Promise<T> => {
    const name = `tx_sp${++depth}`;
    await db.execute(sql.raw(`savepoint ${name}`));
    try {
      const result = await fn(db);
      await db.execute(sql.raw(`release savepoint ${name}`));
      return result;
    } catch (error) {
      await db.execute(sql.raw(`rollback to savepoint ${name}`));
      throw error;
    } finally {
      depth -= 1;
    }
  };
  return Object.assign(db, { transaction: savepoint }) as Db;
}

/** The channel migration 0004's trigger announces a company's committed changes on. */
export const COMPANY_CHANGED_CHANNEL = 'company_changed';

export interface Database {
  db: Db;
  driver: 'pglite' | 'postgres';
  /** The PostgreSQL URL, when not embedded. */
  url?: string;
  executeSql: ExecuteSql;
  /**
   * Runs `fn` in one transaction, given both its raw SQL executor (pg-boss calls accept it as their
   * `db`, so a job is taken, completed or sent together with rows of ours) and a Drizzle database bound
   * to the same transaction: the transactional outbox. Rolled back if `fn` throws. Keep it short: no
   * upload or media work inside, since it holds a connection (and, on PGlite, the only one).
   */
  transaction<T>(fn: (executeSql: ExecuteSql, tx: Db) => Promise<T>): Promise<T>;
  migrate(): Promise<void>;
  ping(): Promise<number>;
  close(): Promise<void>;
  /** The PGlite instance, when embedded (tests clone it). */
  pglite?: PGlite;
  /** The pg pool, on PostgreSQL. */
  pool?: pg.Pool;
  /**
   * On PostgreSQL, every pool connection listens to COMPANY_CHANGED_CHANNEL, so that this process hears
   * the announcements of its own writes before the write's call returns (PostgreSQL sends a session its
   * own notifications before it reports the command done): emits 'company_changed' with the payload.
   * Connections come and go, so this alone does not hear everything; the change feed's own connection does.
   */
  ownChanges?: EventEmitter;
}

export interface OpenDatabaseOptions {
  /** A PostgreSQL URL; without it, PGlite. */
  databaseUrl?: string | undefined;
  /** PGlite data directory; 'memory://' for an in-memory database. */
  pgliteDataDir?: string;
  /** An existing PGlite instance (tests). */
  pglite?: PGlite;
  poolSize?: number;
}

/** How long taking a connection from the pool may wait (a new connection, or a free one under load). */
const CONNECT_TIMEOUT_MS = 10_000;

/** Arbitrary constant naming the migration lock of this app. */
const MIGRATION_LOCK_KEY = 727_001;

async function ping(db: Db): Promise<number> {
  const started = performance.now();
  await db.execute(sql`select 1`);
  return Math.round((performance.now() - started) * 10) / 10;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    // A database that does not accept connections fails calls within seconds (503) instead of holding them.
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    // An idle client that errors (server restart) must not crash the process; the next query reconnects.
    pool.on('error', () => undefined);
    // Nor one taken out of the pool (a transaction, the migration): the pool does not listen to it then, and
    // a connection cut between two of its queries would emit 'error' with nobody listening and end the
    // process. Its next query fails instead, and the pool closes it when it comes back (not queryable).
    const whileOut = () => undefined;
    pool.on('acquire', (client) => client.on('error', whileOut));
    pool.on('release', (_error, client) => client.removeListener('error', whileOut));
    const ownChanges = new EventEmitter().setMaxListeners(0);
    pool.on('connect', (client) => {
      client.on('notification', (message) => {
        // Every listening connection hears every process's announcements; only this connection's own count here.
        const own = message.processId === (client as unknown as { processID: number | null }).processID;
        if (own && message.channel === COMPANY_CHANGED_CHANNEL && message.payload) ownChanges.emit(COMPANY_CHANGED_CHANNEL, message.payload);
      });
      // Queued before the query the connection was opened for; a failure there fails that query too.
      client.query(`LISTEN ${COMPANY_CHANGED_CHANNEL}`).catch(() => undefined);
    });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      driver: 'postgres',
      url: options.databaseUrl,
      pool,
      ownChanges,
      executeSql: async (text, values) => pool.query(text, values),
      transaction: async (fn) => {
        const client = await pool.connect();
        let broken: Error | undefined;
        try {
          await client.query('begin');
          const result = await fn((text, values) => client.query(text, values), insideTransaction(drizzlePg(client, { schema }) as unknown as Db));
          await client.query('commit');
          return result;
        } catch (error) {
          await client.query('rollback').catch((rollbackError: unknown) => {
            // The connection itself failed: it must not go back to the pool.
            broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
          });
          throw error;
        } finally {
          client.release(broken);
        }
      },
      // Several processes may start at once: one migrates while the others wait on an advisory lock.
      migrate: async () => {
        const client = await pool.connect();
        try {
          await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
          await migratePg(drizzlePg(client, { schema }), { migrationsFolder: MIGRATIONS_DIR });
        } finally {
          await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
          client.release();
        }
      },
      ping: () => ping(db),
      close: () => pool.end(),
    };
  }

  let client = options.pglite;
  if (!client) {
    const dataDir = options.pgliteDataDir ?? 'memory://';
    if (!dataDir.startsWith('memory://')) mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
    client = await PGlite.create(dataDir);
  }
  const pgl = client;
  const drizzled = drizzlePglite(pgl, { schema });
  const db = drizzled as unknown as Db;
  return {
    db,
    driver: 'pglite',
    pglite: pgl,
    // pg-boss's own migrations are multi-statement scripts without parameters: those need `exec`.
    executeSql: async (text, values) =>
      values?.length ? pgl.query(text, values) : ((await pgl.exec(text)).at(-1) ?? { rows: [] }),
    transaction: (fn) =>
      pgl.transaction((tx) =>
        fn(
          async (text, values) => (values?.length ? tx.query(text, values) : ((await tx.exec(text)).at(-1) ?? { rows: [] })),
          // Drizzle's PGlite session only calls `query` on it (its `transaction` is a savepoint).
          insideTransaction(drizzlePglite(tx as unknown as PGlite, { schema }) as unknown as Db),
        ),
      ),
    migrate: () => migratePglite(drizzled, { migrationsFolder: MIGRATIONS_DIR }),
    ping: () => ping(db),
    close: async () => {
      if (!pgl.closed) await pgl.close();
    },
  };
}
