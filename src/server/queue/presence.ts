import { readFileSync, readlinkSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Database, Db, ExecuteSql } from '../db/client.js';
import type { QueueLogger } from './queue.js';

/**
 * Each server process registers in `workers`, refreshes its `last_seen` every few seconds and removes
 * its row when it stops cleanly. Every few seconds it also looks for processes that died without
 * stopping (SIGKILL, out of memory, power loss):
 *
 * - a row not refreshed for `leaseSeconds` (judged by the database's clock) is dead — but only by a
 *   process that has itself been in contact with the database for that long, so that after an outage
 *   the first process back does not bury the others before they could refresh their rows;
 * - a row of the same machine (host, boot and pid namespace) whose pid no longer runs is dead at once.
 *
 * Dead rows are deleted; in the same transaction `recover` hands the jobs they held back to the queue
 * (processes that work jobs). Each process then removes the temporary folders of processes that no
 * longer exist from its DATA_DIR/tmp (one folder per process: DATA_DIR/tmp/<process id>), and the
 * stored objects they were writing for rows they never committed (`removeAbandoned`).
 */

export interface PresenceOptions {
  id: string;
  database: Database;
  role: string;
  /** DATA_DIR/tmp: this process's folder is `<tmpRoot>/<id>`. */
  tmpRoot: string;
  leaseSeconds: number;
  logger: QueueLogger;
  /**
   * Requeues the jobs whose holder no longer exists, inside the transaction that buried it (both handles
   * of that transaction: the worker's root records what the lost jobs mean through the jobs service).
   */
  recover?: (executeSql: ExecuteSql, tx: Db) => Promise<{ id: string; name: string; state: string }[]>;
  /** Deletes the stored objects dead processes were writing (storage/pending-objects.ts); their keys. */
  removeAbandoned?: () => Promise<string[]>;
}

export interface SweepResult {
  /** Processes found dead and removed. */
  dead: { id: string; pid: number; host: string; role: string; why: 'silent' | 'gone' }[];
  /** Jobs handed back (state 'retry', or 'failed' when out of attempts). */
  requeued: { id: string; name: string; state: string }[];
  /** Temporary folders of dead processes removed from this DATA_DIR. */
  removedFolders: number;
  /** Stored objects dead processes had not committed, deleted. */
  removedObjects: string[];
}

export interface Presence {
  id: string;
  /** This process's temporary folder (created on use, removed at a clean stop). */
  tmpDir: string;
  /** One heartbeat now. */
  beat(): Promise<void>;
  /** One sweep now (it also runs on its own every few seconds). */
  sweep(): Promise<SweepResult>;
  stop(): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Entries of DATA_DIR/tmp not named after a process (older versions) are removed once this old. */
const LEGACY_TMP_MAX_AGE_MS = 60 * 60_000;

/**
 * What makes a pid meaningful: the host, its boot and the pid namespace (containers have their own).
 * Where these cannot be read, a value no other process shares, so that only the heartbeat counts.
 */
export function machineIdentity(id: string): string {
  const read = (fn: () => string) => {
    try {
      return fn().trim();
    } catch {
      return '';
    }
  };
  const boot = read(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8'));
  const pidNamespace = read(() => readlinkSync('/proc/self/ns/pid'));
  return boot && pidNamespace ? `${os.hostname()}/${boot}/${pidNamespace}` : `${os.hostname()}/unknown/${id}`;
}

export function pidRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Every 1 to 5 seconds: six heartbeats fit in a lease. */
export const heartbeatMs = (leaseSeconds: number) => Math.min(5000, Math.max(1000, Math.floor((leaseSeconds * 1000) / 6)));

export async function startPresence(options: PresenceOptions): Promise<Presence> {
  const { id, database, logger, leaseSeconds } = options;
  const machine = machineIdentity(id);
  const tmpDir = path.join(options.tmpRoot, id);
  /** Since when every heartbeat has succeeded (undefined: the last one failed). */
  let contactSince: number | undefined;
  let registered = false;
  let lastBeatError = 0;
  let stopped = false;

  const beat = async () => {
    try {
      const { rows } = await database.executeSql(
        `insert into workers (id, role, host, machine, pid) values ($1, $2, $3, $4, $5)
         on conflict (id) do update set last_seen = now()
         returning (xmax = 0) as inserted`,
        [id, options.role, os.hostname(), machine, process.pid],
      );
      const inserted = (rows[0] as { inserted?: boolean } | undefined)?.inserted === true;
      if (inserted && registered) {
        // Another process buried this one (no heartbeat for a lease: a long pause or a lost database).
        logger.warn({ worker: id }, 'this process was presumed dead and its jobs were requeued; registered again');
      }
      registered = true;
      contactSince ??= Date.now();
    } catch (error) {
      contactSince = undefined;
      if (Date.now() - lastBeatError > 30_000) logger.error({ err: error }, 'heartbeat failed: database unreachable');
      lastBeatError = Date.now();
      throw error;
    }
  };

  const removeFoldersOfDeadProcesses = async (): Promise<number> => {
    const names = await readdir(options.tmpRoot).catch(() => [] as string[]);
    const owned = names.filter((n) => UUID.test(n) && n !== id);
    const alive = new Set<string>();
    if (owned.length) {
      const { rows } = await database.executeSql('select id from workers where id = any($1::uuid[])', [owned]);
      for (const row of rows as { id: string }[]) alive.add(row.id);
    }
    let removed = 0;
    for (const name of names) {
      if (name === id) continue;
      const folder = path.join(options.tmpRoot, name);
      if (UUID.test(name)) {
        if (alive.has(name)) continue;
      } else {
        const info = await stat(folder).catch(() => null);
        if (!info || Date.now() - info.mtimeMs < LEGACY_TMP_MAX_AGE_MS) continue;
      }
      await rm(folder, { recursive: true, force: true });
      removed += 1;
    }
    return removed;
  };

  const sweep = async (): Promise<SweepResult> => {
    const { rows: neighbours } = await database.executeSql('select id, pid from workers where machine = $1 and id <> $2', [machine, id]);
    const gone = (neighbours as { id: string; pid: number }[]).filter((w) => !pidRuns(w.pid)).map((w) => w.id);
    const judgeSilence = contactSince !== undefined && Date.now() - contactSince >= leaseSeconds * 1000;
    const { dead, requeued } = await database.transaction(async (executeSql, tx) => {
      const { rows } = await executeSql(
        `delete from workers
         where id <> $1 and (id = any($2::uuid[]) or ($3::boolean and last_seen < now() - $4::integer * interval '1 second'))
         returning id, pid, host, role`,
        [id, gone, judgeSilence, leaseSeconds],
      );
      const buried = (rows as { id: string; pid: number; host: string; role: string }[]).map((w) => ({
        ...w,
        why: gone.includes(w.id) ? ('gone' as const) : ('silent' as const),
      }));
      return { dead: buried, requeued: options.recover ? await options.recover(executeSql, tx) : [] };
    });
    for (const w of dead) {
      logger.warn({ worker: w.id, host: w.host, pid: w.pid, role: w.role, why: w.why }, w.why === 'gone' ? 'process ended without stopping: removed' : `process silent for ${leaseSeconds} s: presumed dead`);
    }
    if (requeued.length) {
      logger.warn({ jobs: requeued.map((j) => ({ id: j.id, queue: j.name, state: j.state })) }, 'jobs of a dead process handed back to the queue');
    }
    const removedFolders = await removeFoldersOfDeadProcesses();
    if (removedFolders) logger.warn({ removedFolders }, 'removed temporary files left by a process that ended without stopping');
    // Storage may be down while the database is not: the next sweep tries again.
    const removedObjects = options.removeAbandoned
      ? await options.removeAbandoned().catch((error: unknown) => {
          logger.error({ err: error }, 'removing stored objects of a dead process failed; retried at the next sweep');
          return [];
        })
      : [];
    if (removedObjects.length) logger.warn({ objects: removedObjects }, 'removed stored objects a process that ended without stopping had not committed');
    return { dead, requeued, removedFolders, removedObjects };
  };

  await beat();
  // A start after a crash on the same machine finds its predecessor at once.
  await sweep();

  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    // A slow database must not pile up ticks.
    if (stopped || running) return;
    running = (async () => {
      await beat().catch(() => undefined);
      if (contactSince !== undefined) {
        await sweep().catch((error: unknown) => logger.error({ err: error }, 'sweep for dead processes failed'));
      }
    })().finally(() => {
      running = undefined;
    });
  }, heartbeatMs(leaseSeconds));
  timer.unref();

  return {
    id,
    tmpDir,
    beat,
    sweep,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      await rm(tmpDir, { recursive: true, force: true });
      // Gone cleanly: nobody needs to wait for this row to go silent.
      await database.executeSql('delete from workers where id = $1', [id]).catch(() => undefined);
    },
  };
}
