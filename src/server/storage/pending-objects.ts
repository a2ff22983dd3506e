import { inArray } from 'drizzle-orm';
import type { Database, DbOrTx, ExecuteSql } from '../db/client.js';
import { pendingObjects } from '../db/schema.js';
import type { Storage } from './storage.js';

/**
 * Objects written before the rows that name them are committed. A process that dies between the two
 * (killed, out of memory, power loss) would leave objects no row names, which nobody would ever delete.
 * So each key is recorded with its holder (the process's `workers` id) before its upload starts, and the
 * record goes in the transaction that commits the rows; what a dead holder left is deleted by the
 * presence sweep of any process (`removeAbandonedObjects`).
 */

/** A sweep handles this many keys at once; the next sweep takes the rest. */
const SWEEP_BATCH = 200;

/** Records `keys` as being written by `holder`, committed before any of them is uploaded. */
export async function reservePendingObjects(db: DbOrTx, holder: string, keys: string[]): Promise<void> {
  if (keys.length) await db.insert(pendingObjects).values(keys.map((key) => ({ key, holder })));
}

/**
 * In the transaction that commits the rows naming `keys`: they are no longer pending. Throws when a
 * sweep took them meanwhile (this process was presumed dead during a long pause): the objects may be
 * gone, so the rows must not be committed.
 */
export async function confirmPendingObjects(tx: DbOrTx, keys: string[]): Promise<void> {
  if (!keys.length) return;
  const confirmed = await tx.delete(pendingObjects).where(inArray(pendingObjects.key, keys)).returning({ key: pendingObjects.key });
  if (confirmed.length !== keys.length) throw new Error('Stored objects were removed by a sweep before their rows were committed.');
}

/**
 * The write failed or was not needed: removes the objects, then the records of those removed. Never
 * throws (it runs on failure paths); a record left behind is swept once its holder has stopped.
 */
export async function abandonPendingObjects(db: DbOrTx, storage: Storage, keys: string[]): Promise<void> {
  const removed = await Promise.all(keys.map((key) => storage.delete(key).then(() => key, () => undefined)));
  const gone = removed.filter((key): key is string => key !== undefined);
  if (gone.length) await db.delete(pendingObjects).where(inArray(pendingObjects.key, gone)).catch(() => undefined);
}

/**
 * Deletes the objects whose holder is no longer a registered process, and their records. The records
 * are deleted first and stay locked until every object is gone: a holder that was only presumed dead
 * cannot confirm them meanwhile, and a storage failure leaves them for the next sweep.
 */
export async function removeAbandonedObjects(database: Database, storage: Storage): Promise<string[]> {
  return database.transaction(async (executeSql: ExecuteSql) => {
    const { rows } = await executeSql(
      `delete from pending_objects where key in (
         select p.key from pending_objects p
         where not exists (select 1 from workers w where w.id = p.holder)
         order by p.created_at limit ${SWEEP_BATCH} for update skip locked)
       returning key`,
    );
    const keys = (rows as { key: string }[]).map((r) => r.key);
    for (const key of keys) await storage.delete(key);
    return keys;
  });
}
