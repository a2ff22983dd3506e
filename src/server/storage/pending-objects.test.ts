import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { startPresence, type Presence } from '../queue/presence.js';
import { resetDatabase, workerDatabase } from '../test/database.js';
import { createLocalStorage } from './local-storage.js';
import { abandonPendingObjects, confirmPendingObjects, removeAbandonedObjects, reservePendingObjects } from './pending-objects.js';
import type { Storage } from './storage.js';

/**
 * Objects written before their rows are committed: what a process that died in between left is found
 * through its records and deleted; nothing a living process is writing is touched.
 */
describe('objects written before their rows are committed', () => {
  let database: Database;
  let root: string;
  let storage: Storage;
  const presences: Presence[] = [];
  const quiet = { error: () => undefined, warn: () => undefined, info: () => undefined };

  const register = (id: string) =>
    database.executeSql(`insert into workers (id, role, host, machine, pid) values ($1, 'api', 'elsewhere', 'elsewhere/b/n', 1)`, [id]);
  const pending = async () => ((await database.executeSql('select key, holder from pending_objects order by key', [])).rows as { key: string; holder: string }[]);
  const exists = async (key: string) => (await storage.head(key)) !== null;
  const write = async (holder: string, keys: string[]) => {
    await reservePendingObjects(database.db, holder, keys);
    for (const key of keys) await storage.put(key, Buffer.from(`answer ${key}`), 'video/webm');
  };

  beforeEach(async () => {
    database = await workerDatabase();
    await resetDatabase(database);
    root = await mkdtemp(path.join(os.tmpdir(), 'vouchreel-pending-'));
    storage = createLocalStorage(root);
  });

  afterEach(async () => {
    for (const presence of presences.splice(0)) await presence.stop();
    await rm(root, { recursive: true, force: true });
  });

  it("deletes, at a process's sweep, the objects of a holder that died before committing, and keeps a living holder's", async () => {
    const dead = randomUUID();
    const living = randomUUID();
    await register(living);
    await write(dead, ['companies/c1/requests/r1/answers/a1/original.webm', 'companies/c1/requests/r1/answers/a2/original.webm']);
    await write(living, ['companies/c2/requests/r2/answers/b1/original.webm']);

    const presence = await startPresence({
      id: randomUUID(),
      database,
      role: 'api',
      tmpRoot: path.join(root, 'tmp'),
      leaseSeconds: 30,
      logger: quiet,
      removeAbandoned: () => removeAbandonedObjects(database, storage),
    });
    presences.push(presence);
    // The sweep at start already took them; a second finds nothing more.
    expect(await exists('companies/c1/requests/r1/answers/a1/original.webm')).toBe(false);
    expect(await exists('companies/c1/requests/r1/answers/a2/original.webm')).toBe(false);
    expect((await presence.sweep()).removedObjects).toEqual([]);
    expect(await exists('companies/c2/requests/r2/answers/b1/original.webm')).toBe(true);
    expect(await pending()).toEqual([{ key: 'companies/c2/requests/r2/answers/b1/original.webm', holder: living }]);
  });

  it('refuses to commit rows whose objects a sweep took meanwhile (a holder presumed dead during a pause)', async () => {
    const paused = randomUUID();
    const keys = ['companies/c1/requests/r1/answers/a1/original.webm'];
    await write(paused, keys);
    expect(await removeAbandonedObjects(database, storage)).toEqual(keys);
    await expect(database.db.transaction((tx) => confirmPendingObjects(tx, keys))).rejects.toThrow(/removed by a sweep/);
    expect(await exists(keys[0]!)).toBe(false);
  });

  it('confirms the objects of a commit: no record is left and a later sweep keeps them', async () => {
    const holder = randomUUID();
    const keys = ['companies/c1/requests/r1/answers/a1/original.webm', 'companies/c1/requests/r1/answers/a2/original.webm'];
    await write(holder, keys);
    await database.db.transaction((tx) => confirmPendingObjects(tx, keys));
    expect(await pending()).toEqual([]);
    expect(await removeAbandonedObjects(database, storage)).toEqual([]);
    expect(await exists(keys[0]!)).toBe(true);
    expect(await exists(keys[1]!)).toBe(true);
  });

  it('keeps the records when storage fails, so that the next sweep deletes the objects', async () => {
    const dead = randomUUID();
    const keys = ['companies/c1/requests/r1/answers/a1/original.webm'];
    await write(dead, keys);
    const failing: Storage = { ...storage, delete: () => Promise.reject(new Error('storage unreachable')) };
    await expect(removeAbandonedObjects(database, failing)).rejects.toThrow('storage unreachable');
    expect(await pending()).toEqual([{ key: keys[0], holder: dead }]);
    expect(await exists(keys[0]!)).toBe(true);
    expect(await removeAbandonedObjects(database, storage)).toEqual(keys);
    expect(await pending()).toEqual([]);
    expect(await exists(keys[0]!)).toBe(false);
  });

  it('abandons a failed write: the objects and their records go; a record whose object could not be deleted stays', async () => {
    const holder = randomUUID();
    await register(holder);
    const keys = ['companies/c1/requests/r1/answers/a1/original.webm', 'companies/c1/requests/r1/answers/a2/original.webm'];
    await write(holder, keys);
    const flaky: Storage = { ...storage, delete: (key) => (key === keys[1] ? Promise.reject(new Error('timeout')) : storage.delete(key)) };
    await abandonPendingObjects(database.db, flaky, keys);
    expect(await exists(keys[0]!)).toBe(false);
    expect(await pending()).toEqual([{ key: keys[1], holder }]);
    // Once its holder has stopped, a sweep removes what is left.
    await database.executeSql('delete from workers where id = $1', [holder]);
    expect(await removeAbandonedObjects(database, storage)).toEqual([keys[1]]);
    expect(await exists(keys[1]!)).toBe(false);
  });
});
